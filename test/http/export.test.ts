import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

const auth = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const EDAM_SEQUENCE = 'http://edamontology.org/data_2044';
const EDAM_ALIGNMENT = 'http://edamontology.org/data_0863';
const TABULAR = 'https://w3id.org/reg/ns#TabularDataset';

let core: Core;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
});
afterAll(async () => core.close());

async function register(body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await app.request('/api/v1/software', {
    method: 'POST',
    headers: auth,
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, any>;
  expect(response.status, JSON.stringify(json)).toBe(201);
  return json;
}

const exported = async (id: string) => app.request(`/api/v1/software/${id}/export/catalogue`);

describe('GET /api/v1/software/:id/export/catalogue', () => {
  it('projects a software record into the tool catalogue shape', async () => {
    const topic = core.reference.index.termsOfClass('https://w3id.org/reg/ns#ResearchTopic')[0]!;
    const software = await register({
      name: 'Seq Aligner 2',
      tagline: 'Aligns sequences',
      description: 'Aligns biological sequences against a reference.',
      homepage: 'https://aligner.example.org/',
      code_repository: 'https://github.com/example/aligner',
      documentation: 'https://aligner.example.org/docs',
      download_url: 'https://aligner.example.org/download',
      kinds: ['service', 'cli', 'desktop'],
      topics: [topic.iri],
      license: 'https://spdx.org/licenses/MIT',
      publisher: { name: 'Example Institute', kind: 'organization', identifier: 'https://ror.org/02jz4aj89' },
      contact: { name: 'Ada Example', kind: 'person', identifier: 'https://orcid.org/0000-0002-1825-0097' },
      api_docs: [{ url: 'https://aligner.example.org/openapi.json', format: 'openapi' }],
      capability: { consumes: [EDAM_SEQUENCE], produces: [EDAM_ALIGNMENT, TABULAR] },
    });
    const response = await exported(software.id);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, any>;
    expect(body).toEqual({
      name: 'Seq Aligner 2',
      biotoolsID: 'seq_aligner_2',
      description: 'Aligns biological sequences against a reference.',
      homepage: 'https://aligner.example.org/',
      version: [],
      toolType: ['Web service', 'Command-line tool', 'Desktop application'],
      topic: [{ uri: topic.iri, term: topic.label }],
      function: [
        {
          operation: [],
          input: [{ data: { uri: EDAM_SEQUENCE, term: 'Sequence' } }],
          output: [{ data: { uri: EDAM_ALIGNMENT, term: 'Sequence alignment' } }],
        },
      ],
      license: 'MIT',
      documentation: [
        { url: 'https://aligner.example.org/docs', type: ['General'] },
        { url: 'https://aligner.example.org/openapi.json', type: ['API documentation'] },
      ],
      download: [{ url: 'https://aligner.example.org/download', type: 'Binaries' }],
      link: [
        { url: 'https://github.com/example/aligner', type: ['Repository'] },
        { url: software.iri, type: ['Registry'] },
      ],
      credit: [
        {
          name: 'Example Institute',
          typeEntity: 'Institute',
          typeRole: ['Provider'],
          url: 'https://ror.org/02jz4aj89',
        },
        {
          name: 'Ada Example',
          typeEntity: 'Person',
          typeRole: ['Primary contact'],
          orcidid: 'https://orcid.org/0000-0002-1825-0097',
        },
      ],
      publication: [],
    });
  });

  it('keeps a minimal record minimal', async () => {
    const software = await register({ name: 'bare' });
    const body = (await (await exported(software.id)).json()) as Record<string, any>;
    expect(body).toMatchObject({
      name: 'bare',
      biotoolsID: 'bare',
      homepage: software.iri,
      toolType: [],
      function: [],
      credit: [],
    });
    expect(body.license).toBeUndefined();
    expect(body.description).toBeUndefined();
  });

  it('answers 404 problem+json for unknown software', async () => {
    const response = await exported('019a0000-0000-7000-8000-000000000000');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });
});
