import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

const IDENTIFIER = 'http://edamontology.org/data_0842';
const ONTOLOGY = 'http://edamontology.org/data_0582';
let core: Core;
let app: ReturnType<typeof createApp>;

async function send(method: string, url: string, body?: unknown): Promise<Record<string, any>> {
  const response = await app.request(url, {
    method,
    headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  return text === '' ? {} : (JSON.parse(text) as Record<string, any>);
}

async function matches(role: 'produces' | 'consumes', type: string): Promise<Record<string, any>[]> {
  const response = await app.request(`/api/v1/capabilities?${role}=${encodeURIComponent(type)}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: Record<string, any>[] }).items;
}

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
});
afterAll(async () => core.close());

describe('capability matches of releases', () => {
  it('name the software a release belongs to and its version, as fields', async () => {
    const software = await send('POST', '/api/v1/software', { name: 'converter' });
    const release = await send('POST', `/api/v1/software/${software.id}/releases`, {
      version: '2.4.1',
      capability: { consumes: [IDENTIFIER] },
    });
    const [item, ...rest] = await matches('consumes', IDENTIFIER);
    expect(rest).toEqual([]);
    expect(item).toEqual({
      iri: release.iri,
      id: release.id,
      entity_type: 'release',
      name: 'converter 2.4.1',
      software: software.iri,
      software_name: 'converter',
      version: '2.4.1',
      capability: {
        iri: `${release.iri as string}#capability`,
        produces: [],
        consumes: [expect.objectContaining({ iri: IDENTIFIER })],
        declared_at: 'release',
      },
      origin: { kind: 'local' },
    });
  });

  it('follow a renamed software, and leave the fields off software and deployment matches', async () => {
    const software = await send('POST', '/api/v1/software', {
      name: 'old name',
      capability: { produces: [ONTOLOGY] },
    });
    await send('POST', `/api/v1/software/${software.id}/releases`, {
      version: '0.1',
      capability: { produces: [ONTOLOGY] },
    });
    await send('POST', '/api/v1/instances', {
      software: software.id,
      label: 'ontology-eu',
      capability: { produces: [ONTOLOGY] },
    });
    await send('PATCH', `/api/v1/software/${software.id}`, { name: 'new name' });
    const items = await matches('produces', ONTOLOGY);
    expect(items.map((item) => [item.entity_type, item.name])).toEqual([
      ['software', 'new name'],
      ['release', 'new name 0.1'],
      ['instance', 'ontology-eu'],
    ]);
    expect(items[1]).toMatchObject({ software: software.iri, software_name: 'new name', version: '0.1' });
    for (const item of [items[0], items[2]]) {
      expect(item).not.toHaveProperty('software');
      expect(item).not.toHaveProperty('software_name');
      expect(item).not.toHaveProperty('version');
    }
  });
});
