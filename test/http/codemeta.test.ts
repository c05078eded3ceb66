import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let software: Record<string, any>;
let release: Record<string, any>;
let other: Record<string, any>;
const root = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };

async function created(path: string, body: unknown) {
  const response = await app.request(path, { method: 'POST', headers: root, body: JSON.stringify(body) });
  const json = (await response.json()) as Record<string, any>;
  expect(response.status, `${path}: ${JSON.stringify(json)}`).toBe(201);
  return json;
}

async function codemeta(path: string) {
  const response = await app.request(path);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: (await response.json()) as any,
  };
}

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  software = await created('/api/v1/software', {
    name: 'shacl-manager',
    description: 'Validates RDF graphs against SHACL shapes.',
    homepage: 'https://shacl.example.org/',
    code_repository: 'https://git.example.org/shacl-manager',
    documentation: 'https://shacl.example.org/docs',
    license: 'https://spdx.org/licenses/Apache-2.0',
    kinds: ['service', 'cli'],
    maturity: 'active',
    keywords: ['validation', 'rdf'],
    publisher: { kind: 'organization', name: 'Example Lab', identifier: 'https://ror.org/00example0' },
    contact: { kind: 'person', name: 'Ada Lovelace', email: 'ada@example.org' },
  });
  release = await created(`/api/v1/software/${software.id}/releases`, {
    version: '2.1.0',
    date_published: '2026-10-01',
    changelog: 'https://shacl.example.org/changes/2.1.0',
    downloads: [{ url: 'https://shacl.example.org/get/2.1.0.tar.gz', label: 'source' }],
  });
  other = await created('/api/v1/software', { name: 'bare-tool' });
});

afterAll(async () => core.close());

describe('GET /api/v1/software/{id}/codemeta.json', () => {
  it('is CodeMeta 3 with the record’s values', async () => {
    expect(software.keywords).toHaveLength(2);
    const { status, type, body } = await codemeta(`/api/v1/software/${software.id}/codemeta.json`);
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/ld\+json/);
    expect(body).toEqual({
      '@context': 'https://w3id.org/codemeta/3.0',
      type: 'SoftwareSourceCode',
      id: software.iri,
      identifier: software.iri,
      name: 'shacl-manager',
      description: 'Validates RDF graphs against SHACL shapes.',
      codeRepository: 'https://git.example.org/shacl-manager',
      url: 'https://shacl.example.org/',
      license: 'https://spdx.org/licenses/Apache-2.0',
      developmentStatus: 'active',
      keywords: software.keywords,
      applicationCategory: ['service', 'cli'],
      softwareHelp: 'https://shacl.example.org/docs',
      publisher: { type: 'Organization', id: 'https://ror.org/00example0', name: 'Example Lab' },
      maintainer: expect.objectContaining({ type: 'Person', name: 'Ada Lovelace', email: 'ada@example.org' }),
      dateCreated: software.created,
      dateModified: software.modified,
    });
    expect((await codemeta(`/api/v1/software/${software.id}/codemeta`)).body).toEqual(body);
  });

  it('describes a release with its version, date, notes and download', async () => {
    const path = `/api/v1/software/${software.id}/releases/${release.id}/codemeta.json`;
    const { status, body } = await codemeta(path);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      '@context': 'https://w3id.org/codemeta/3.0',
      id: release.iri,
      identifier: release.iri,
      name: 'shacl-manager',
      version: '2.1.0',
      softwareVersion: '2.1.0',
      datePublished: '2026-10-01',
      releaseNotes: 'https://shacl.example.org/changes/2.1.0',
      downloadUrl: 'https://shacl.example.org/get/2.1.0.tar.gz',
      isPartOf: software.iri,
    });
  });

  it('leaves out what a bare record does not hold', async () => {
    const { body } = await codemeta(`/api/v1/software/${other.id}/codemeta.json`);
    expect(Object.keys(body).sort()).toEqual(
      ['@context', 'type', 'id', 'identifier', 'name', 'dateCreated', 'dateModified'].sort(),
    );
  });

  it('answers 404 for a software it does not hold and for a release of another software', async () => {
    expect((await codemeta('/api/v1/software/01J7ZQK8W0RXAB3M2C7YQ1V4TD/codemeta.json')).status).toBe(404);
    const { status, body } = await codemeta(
      `/api/v1/software/${other.id}/releases/${release.id}/codemeta.json`,
    );
    expect(status).toBe(404);
    expect(body.code).toBe('not-found');
  });
});
