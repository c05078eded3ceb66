import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let token: string;
let software: Record<string, any>;
let release: Record<string, any>;
let instance: Record<string, any>;
let inputArtifact: string;
let outputArtifact: string;
let makeRun: string;
let useRun: string;
const TYPE = 'http://edamontology.org/data_0006';
const OPERATOR = 'https://orcid.org/0000-0002-1825-0097';
const DIGEST = 'a'.repeat(64);
const root = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };

async function created(path: string, body: unknown) {
  const response = await app.request(path, { method: 'POST', headers: root, body: JSON.stringify(body) });
  const json = (await response.json()) as Record<string, any>;
  expect(response.status, `${path}: ${JSON.stringify(json)}`).toBe(201);
  return json;
}

async function advertise(role: 'produced' | 'consumed', body: unknown, bearer = token) {
  const response = await app.request(`/api/v1/advertise/${role}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, role).toBeLessThan(300);
  return (await response.json()) as Record<string, any>;
}

async function crate(path: string, headers: Record<string, string> = {}) {
  const response = await app.request(path, { headers });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: (await response.json()) as any,
  };
}

const byId = (document: any) =>
  new Map<string, any>(document['@graph'].map((entity: any) => [entity['@id'], entity]));
const idOf = (iri: string) => iri.slice(iri.lastIndexOf('/') + 1);

/** The entries of a ZIP archive, read from its local headers (stored or deflated). */
function unzip(bytes: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  let at = 0;
  while (bytes.readUInt32LE(at) === 0x04034b50) {
    const method = bytes.readUInt16LE(at + 8);
    const size = bytes.readUInt32LE(at + 18);
    const nameLength = bytes.readUInt16LE(at + 26);
    const extra = bytes.readUInt16LE(at + 28);
    const name = bytes.subarray(at + 30, at + 30 + nameLength).toString('utf8');
    const start = at + 30 + nameLength + extra;
    const data = bytes.subarray(start, start + size);
    entries.set(name, method === 8 ? zlib.inflateRawSync(data) : Buffer.from(data));
    at = start + size;
  }
  return entries;
}

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  software = await created('/api/v1/software', {
    name: 'sepia-tool',
    homepage: 'https://tool.example.org/',
    code_repository: 'https://git.example.org/sepia-tool',
    license: 'https://spdx.org/licenses/MIT',
  });
  release = await created(`/api/v1/software/${software.id}/releases`, { version: '2.1.0' });
  instance = await created('/api/v1/instances', {
    software: software.id,
    release: release.id,
    label: 'sepia.example.org',
    operator: { kind: 'person', name: 'Josiah Carberry', identifier: OPERATOR },
  });
  token = (await created(`/api/v1/instances/${instance.id}/tokens`, {})).token;
  const made = await advertise('produced', {
    run: {
      external_key: 'make-1',
      label: 'make input',
      started_at: '2026-11-01T10:00:00Z',
      ended_at: '2026-11-01T10:01:00Z',
    },
    artifacts: [{ title: 'Input table', conforms_to: TYPE }],
  });
  makeRun = made.run;
  inputArtifact = made.artifacts[0];
  await advertise('consumed', {
    run: { external_key: 'use-1', label: 'convert', started_at: '2026-11-02T10:00:00Z' },
    artifacts: [{ iri: inputArtifact }],
  });
  const used = await advertise('produced', {
    run: { external_key: 'use-1', status: 'success', ended_at: '2026-11-02T10:05:00Z' },
    artifacts: [
      {
        title: 'Sepia picture',
        description: 'The converted picture',
        conforms_to: TYPE,
        license: 'https://spdx.org/licenses/CC0-1.0',
        version: '1',
        distributions: [
          {
            download_url: 'https://data.example.org/sepia.jpg',
            media_type: 'image/jpeg',
            byte_size: 1234,
            checksum: { algorithm: 'sha256', value: DIGEST },
          },
        ],
      },
    ],
  });
  useRun = used.run;
  outputArtifact = used.artifacts[0];
});

afterAll(async () => core.close());

describe('GET /api/v1/runs/{id}/ro-crate', () => {
  it('describes the run as a Process Run Crate with exactly its software, agent and artifacts', async () => {
    const { status, type, body } = await crate(`/api/v1/runs/${idOf(useRun)}/ro-crate`);
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/ld\+json/);
    expect(body['@context']).toBe('https://w3id.org/ro/crate/1.3/context');
    const entities = byId(body);
    expect(new Set(entities.keys())).toEqual(
      new Set([
        'ro-crate-metadata.json',
        './',
        'https://w3id.org/ro/wfrun/process/0.6',
        useRun,
        release.iri,
        OPERATOR,
        inputArtifact,
        outputArtifact,
      ]),
    );
    expect(entities.get('ro-crate-metadata.json')).toEqual({
      '@id': 'ro-crate-metadata.json',
      '@type': 'CreativeWork',
      conformsTo: { '@id': 'https://w3id.org/ro/crate/1.3' },
      about: { '@id': './' },
    });
    const rootEntity = entities.get('./');
    expect(rootEntity['@type']).toBe('Dataset');
    expect(rootEntity.conformsTo).toEqual([{ '@id': 'https://w3id.org/ro/wfrun/process/0.6' }]);
    expect(rootEntity.mentions).toEqual([{ '@id': useRun }]);
    expect(new Set(rootEntity.hasPart.map((part: any) => part['@id']))).toEqual(
      new Set([inputArtifact, outputArtifact]),
    );
    expect(rootEntity.mainEntity).toBeUndefined();
    expect(rootEntity.name).toBe('Run convert');
    expect(rootEntity.description).toContain('http://registry.test');
    expect(rootEntity.datePublished).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The profile the root conforms to is a CreativeWork entity of the crate, as the profile requires.
    expect(entities.get('https://w3id.org/ro/wfrun/process/0.6')).toEqual({
      '@id': 'https://w3id.org/ro/wfrun/process/0.6',
      '@type': 'CreativeWork',
      name: 'Process Run Crate',
      version: '0.6',
    });
    expect(entities.get(useRun)).toEqual({
      '@id': useRun,
      '@type': 'CreateAction',
      name: 'convert',
      startTime: '2026-11-02T10:00:00.000Z',
      endTime: '2026-11-02T10:05:00.000Z',
      instrument: { '@id': release.iri },
      agent: { '@id': OPERATOR },
      object: [{ '@id': inputArtifact }],
      result: [{ '@id': outputArtifact }],
      actionStatus: { '@id': 'http://schema.org/CompletedActionStatus' },
    });
    expect(entities.get(release.iri)).toEqual({
      '@id': release.iri,
      '@type': 'SoftwareApplication',
      name: 'sepia-tool',
      url: 'https://tool.example.org/',
      codeRepository: 'https://git.example.org/sepia-tool',
      softwareVersion: '2.1.0',
      license: { '@id': 'https://spdx.org/licenses/MIT' },
      isPartOf: { '@id': software.iri },
    });
    expect(entities.get(OPERATOR)).toEqual({ '@id': OPERATOR, '@type': 'Person', name: 'Josiah Carberry' });
    const output = entities.get(outputArtifact);
    expect(output).toMatchObject({
      '@type': 'File',
      name: 'Sepia picture',
      description: 'The converted picture',
      conformsTo: { '@id': TYPE },
      license: { '@id': 'https://spdx.org/licenses/CC0-1.0' },
      version: '1',
      contentUrl: 'https://data.example.org/sepia.jpg',
      encodingFormat: 'image/jpeg',
      contentSize: '1234',
      sha256: DIGEST,
    });
    expect(entities.get(inputArtifact)).toMatchObject({
      '@type': 'Dataset',
      name: 'Input table',
      conformsTo: { '@id': TYPE },
    });
    expect(entities.get(inputArtifact).distribution).toBeUndefined();
  });

  it('answers the same crate in a ZIP archive, with a preview page', async () => {
    for (const [path, headers] of [
      [`/api/v1/runs/${idOf(useRun)}/ro-crate?format=zip`, {}],
      [`/api/v1/runs/${idOf(useRun)}/ro-crate`, { accept: 'application/zip' }],
    ] as const) {
      const response = await app.request(path, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/zip');
      const entries = unzip(Buffer.from(await response.arrayBuffer()));
      expect([...entries.keys()]).toEqual(['ro-crate-metadata.json', 'ro-crate-preview.html']);
      const json = JSON.parse(entries.get('ro-crate-metadata.json')!.toString('utf8'));
      const direct = (await crate(`/api/v1/runs/${idOf(useRun)}/ro-crate`)).body;
      expect(json).toEqual(direct);
      expect(entries.get('ro-crate-preview.html')!.toString('utf8')).toContain('Sepia picture');
    }
  });

  it('says how a run ended: failed, aborted (as a failure with its reason) or still running', async () => {
    for (const [status, expected, error] of [
      ['failed', 'FailedActionStatus', undefined],
      ['aborted', 'FailedActionStatus', 'aborted'],
      ['running', 'ActiveActionStatus', undefined],
    ] as const) {
      const run = (
        await advertise('produced', { run: { external_key: `end-${status}`, status }, artifacts: [] })
      ).run;
      const action = byId((await crate(`/api/v1/runs/${idOf(run)}/ro-crate`)).body).get(run);
      expect(action.actionStatus).toEqual({ '@id': `http://schema.org/${expected}` });
      expect(action.error).toBe(error);
    }
  });

  it('describes a workflow as a ComputationalWorkflow under the Workflow Run Crate profile', async () => {
    const workflow = await created('/api/v1/software', { name: 'align-workflow', kinds: ['workflow'] });
    const deployment = await created('/api/v1/instances', {
      software: workflow.id,
      label: 'align.example.org',
    });
    const bearer = (await created(`/api/v1/instances/${deployment.id}/tokens`, {})).token;
    const run = (await advertise('produced', { run: { external_key: 'wf-1' }, artifacts: [] }, bearer)).run;
    const entities = byId((await crate(`/api/v1/runs/${idOf(run)}/ro-crate`)).body);
    expect(entities.get(workflow.iri)['@type']).toEqual([
      'SoftwareApplication',
      'SoftwareSourceCode',
      'ComputationalWorkflow',
    ]);
    expect(entities.get('./').conformsTo).toEqual([
      { '@id': 'https://w3id.org/ro/wfrun/process/0.6' },
      { '@id': 'https://w3id.org/ro/wfrun/workflow/0.6' },
      { '@id': 'https://w3id.org/workflowhub/workflow-ro-crate/1.1' },
    ]);
    expect(entities.get('./').mainEntity).toEqual({ '@id': workflow.iri });
    // Without an operator, the deployment is the agent.
    expect(entities.get(run).agent).toEqual({ '@id': deployment.iri });
    expect(entities.get(deployment.iri)).toMatchObject({
      '@type': 'SoftwareApplication',
      name: 'align.example.org',
    });
  });

  it('refuses a format it does not write, an Accept it cannot meet and a run it does not hold', async () => {
    const bad = await crate(`/api/v1/runs/${idOf(useRun)}/ro-crate?format=tar`);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('format');
    expect((await crate(`/api/v1/runs/${idOf(useRun)}/ro-crate`, { accept: 'text/csv' })).status).toBe(406);
    expect((await crate('/api/v1/runs/01J7ZQK8W0RXAB3M2C7YQ1V4TD/ro-crate')).status).toBe(404);
  });
});

describe('a crate sent back to the registry that exported it', () => {
  it('adds nothing when its deployment sends it, and is refused from another deployment', async () => {
    const exported = (await crate(`/api/v1/runs/${idOf(useRun)}/ro-crate`)).body;
    const post = async (bearer: string) => {
      const response = await app.request('/api/v1/ro-crate', {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/ld+json' },
        body: JSON.stringify(exported),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const runsBefore = (await crate('/api/v1/runs')).body.total;
    const back = await post(token);
    expect(back.status).toBe(200);
    expect(back.body.runs).toEqual([
      { action: useRun, run: useRun, created: false, used: [inputArtifact], generated: [outputArtifact] },
    ]);
    expect((await crate('/api/v1/runs')).body.total).toBe(runsBefore);
    const stranger = await created('/api/v1/instances', {
      software: software.id,
      release: release.id,
      label: 'other.example.org',
      operator: { kind: 'person', name: 'Josiah Carberry', identifier: OPERATOR },
    });
    const strangerToken = (await created(`/api/v1/instances/${stranger.id}/tokens`, {})).token;
    const refused = await post(strangerToken);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((error: any) => error.message)).toContain(
      `"${useRun}" is a run of another deployment`,
    );
  });
});

describe('GET /api/v1/artifacts/{id}/ro-crate', () => {
  it('holds one CreateAction per run around the artifact, as far as the depth asked', async () => {
    const near = byId((await crate(`/api/v1/artifacts/${idOf(outputArtifact)}/ro-crate?depth=1`)).body);
    const actions = (entities: Map<string, any>) =>
      [...entities.values()]
        .filter((entity) => entity['@type'] === 'CreateAction')
        .map((entity) => entity['@id']);
    expect(actions(near)).toEqual([useRun]);
    const far = byId((await crate(`/api/v1/artifacts/${idOf(outputArtifact)}/ro-crate?depth=6`)).body);
    expect(new Set(actions(far))).toEqual(new Set([useRun, makeRun]));
    expect(far.get(makeRun).result).toEqual([{ '@id': inputArtifact }]);
    expect(far.get(useRun).object).toEqual([{ '@id': inputArtifact }]);
    expect(new Set(far.get('./').mentions.map((item: any) => item['@id']))).toEqual(
      new Set([useRun, makeRun]),
    );
  });

  it('refuses a depth that is not a whole number, as the lineage API does', async () => {
    const { status, body } = await crate(`/api/v1/artifacts/${idOf(outputArtifact)}/ro-crate?depth=deep`);
    expect(status).toBe(400);
    expect(body.detail).toContain('depth');
  });
});
