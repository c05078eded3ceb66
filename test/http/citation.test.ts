import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let software: Record<string, any>;
let release: Record<string, any>;
let bare: Record<string, any>;
let personal: Record<string, any>;
const root = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };

async function created(path: string, body: unknown) {
  const response = await app.request(path, { method: 'POST', headers: root, body: JSON.stringify(body) });
  const json = (await response.json()) as Record<string, any>;
  expect(response.status, `${path}: ${JSON.stringify(json)}`).toBe(201);
  return json;
}

async function citation(path: string) {
  const response = await app.request(path);
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), text };
}

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  software = await created('/api/v1/software', {
    name: 'shacl-manager',
    tagline: 'Validates RDF graphs.',
    homepage: 'https://shacl.example.org/',
    code_repository: 'https://git.example.org/shacl-manager',
    license: 'https://spdx.org/licenses/Apache-2.0',
    keywords: ['validation'],
    publisher: { kind: 'organization', name: 'Example Lab' },
  });
  release = await created(`/api/v1/software/${software.id}/releases`, {
    version: '2.1.0',
    date_published: '2026-10-01',
  });
  bare = await created('/api/v1/software', { name: 'bare-tool' });
  personal = await created('/api/v1/software', {
    name: 'solo-tool',
    contact: {
      kind: 'person',
      name: 'Josiah Stinkney Carberry',
      identifier: 'https://orcid.org/0000-0002-1825-0097',
    },
  });
});

afterAll(async () => core.close());

describe('GET /api/v1/software/{id}/citation.cff', () => {
  it('is a Citation File Format 1.2.0 document of the release, as YAML', async () => {
    const { status, type, text } = await citation(
      `/api/v1/software/${software.id}/releases/${release.id}/citation.cff`,
    );
    expect(status).toBe(200);
    expect(type).toBe('application/yaml; charset=utf-8');
    expect(parse(text)).toEqual({
      'cff-version': '1.2.0',
      message: 'If you use this software, please cite it using the metadata from this file.',
      type: 'software',
      title: 'shacl-manager',
      authors: [{ name: 'Example Lab' }],
      abstract: 'Validates RDF graphs.',
      version: '2.1.0',
      'date-released': '2026-10-01',
      license: 'Apache-2.0',
      'repository-code': 'https://git.example.org/shacl-manager',
      url: 'https://shacl.example.org/',
      keywords: ['validation'],
      identifiers: [
        { type: 'url', value: release.iri, description: 'The record of this software in the registry' },
      ],
    });
  });

  it('credits a person maintainer by family and given names with their ORCID, and names the record', async () => {
    const { status, text } = await citation(`/api/v1/software/${personal.id}/CITATION.cff`);
    expect(status).toBe(200);
    const document = parse(text);
    expect(document.authors).toEqual([
      {
        'family-names': 'Carberry',
        'given-names': 'Josiah Stinkney',
        orcid: 'https://orcid.org/0000-0002-1825-0097',
      },
    ]);
    expect(document.identifiers[0].value).toBe(personal.iri);
    expect(document.version).toBeUndefined();
  });

  it('credits the software’s contributors when the record names nobody, as the format requires an author', async () => {
    const document = parse((await citation(`/api/v1/software/${bare.id}/citation.cff`)).text);
    expect(Object.keys(document)).toEqual(
      expect.arrayContaining(['cff-version', 'message', 'title', 'authors', 'type', 'identifiers']),
    );
    expect(document.authors).toEqual([{ name: 'bare-tool contributors' }]);
    expect(document.license).toBeUndefined();
  });

  it('answers 404 for a software it does not hold', async () => {
    expect((await citation('/api/v1/software/01J7ZQK8W0RXAB3M2C7YQ1V4TD/citation.cff')).status).toBe(404);
  });
});
