/**
 * A new version of an artifact, as a first-class operation of the native API: `version_of` names the artifact
 * it follows, and the new one joins its series and revises it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { draftFromFlags, parseArtifactSpec } from '../../src/cli/client/advertise-input.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let token: string;

async function call(method: string, path: string, body?: unknown, bearer = ROOT_TOKEN) {
  const response = await app.request(path, {
    method,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const idOf = (iri: string) => iri.slice(iri.lastIndexOf('/') + 1);

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  const software = await call('POST', '/api/v1/software', { name: 'exporter' });
  const instance = await call('POST', '/api/v1/instances', { software: software.body.id, label: 'nightly' });
  token = (await call('POST', `/api/v1/instances/${instance.body.id}/tokens`, {})).body.token;
});
afterAll(async () => core.close());

describe('a new version of an artifact', () => {
  it('joins the series of the artifact it names and revises it, whichever run writes it', async () => {
    const first = await call(
      'POST',
      '/api/v1/advertise/produced',
      { run: { external_key: 'day-1' }, artifacts: [{ title: 'customer table' }] },
      token,
    );
    expect(first.status).toBe(201);
    const v1 = first.body.artifacts[0] as string;
    const second = await call(
      'POST',
      '/api/v1/advertise/produced',
      { run: { external_key: 'day-2' }, artifacts: [{ title: 'customer table', version_of: v1 }] },
      token,
    );
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const v2 = second.body.artifacts[0] as string;
    expect(v2).not.toBe(v1);
    const [one, two] = [
      (await call('GET', `/api/v1/artifacts/${idOf(v1)}`)).body,
      (await call('GET', `/api/v1/artifacts/${idOf(v2)}`)).body,
    ];
    expect(two.is_version_of).toEqual(one.is_version_of);
    expect(two.was_revision_of).toEqual([v1]);
    // Registered without a run, too.
    const third = await call('POST', '/api/v1/artifacts', { title: 'customer table', version_of: v2 }, token);
    expect(third.status, JSON.stringify(third.body)).toBe(201);
    expect(third.body.is_version_of).toEqual(one.is_version_of);
    expect(third.body.was_revision_of).toEqual([v2]);
    // The lineage collapsed: one dataset holding the three versions.
    const lineage = await call(
      'GET',
      `/api/v1/artifacts/${idOf(v2)}/lineage?direction=both&depth=2&collapse=datasets`,
    );
    const dataset = lineage.body.nodes.find((node: any) => node.entity_type === 'dataset');
    expect(dataset.versions).toEqual([v1, v2, third.body.iri].sort());
  });

  it('refuses a version_of that names no artifact here, writing nothing', async () => {
    const runs = (await call('GET', '/api/v1/runs?limit=200')).body.total as number;
    const refused = await call(
      'POST',
      '/api/v1/advertise/produced',
      {
        run: { external_key: 'day-x' },
        artifacts: [{ title: 'orphan', version_of: 'http://registry.test/artifact/not-here' }],
      },
      token,
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].field).toBe('artifacts[0].version_of');
    expect((await call('GET', '/api/v1/runs?limit=200')).body.total).toBe(runs);
  });

  it('is what reg advertise --version-of and --artifact version-of= send', () => {
    expect(draftFromFlags({ title: 'x', 'version-of': 'http://registry.test/artifact/1' })).toMatchObject({
      versionOf: 'http://registry.test/artifact/1',
    });
    expect(parseArtifactSpec('title=x,version-of=http://registry.test/artifact/1')).toMatchObject({
      versionOf: 'http://registry.test/artifact/1',
    });
  });
});
