import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { restoreNQuads } from '../../src/core/ops/restore.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN, tempDir, waitFor } from '../helpers.js';
import { externalGraphRun } from '../support/external-store.js';

const TYPE = 'http://edamontology.org/data_0006';
let core: Core;
let app: ReturnType<typeof createApp>;
const ids: Record<string, string> = {};

async function send(method: string, url: string, body: unknown, bearer = ROOT_TOKEN) {
  const response = await app.request(url, {
    method,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  return text === '' ? {} : (JSON.parse(text) as Record<string, any>);
}

async function get(url: string, on = app) {
  const response = await on.request(url);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: (await response.json()) as any,
  };
}

/** The titles of the hits of a search, in the order given. */
async function titles(query: string, on = app): Promise<string[]> {
  const { status, body } = await get(`/api/v1/search?${query}`, on);
  expect(status, JSON.stringify(body)).toBe(200);
  return (body.hits as any[]).map((hit) => hit.title as string);
}

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  const software = async (key: string, body: Record<string, unknown>) =>
    (ids[key] = (await send('POST', '/api/v1/software', body)).id as string);
  await software('exact', { name: 'BLAST' });
  await software('prefix', { name: 'blast+ suite' });
  await software('word', { name: 'NCBI Blast wrapper' });
  await software('substring', { name: 'subblaster' });
  await software('other', { name: 'Aligner', tagline: 'A fast Blást-like search over sequence records' });
  await software('withdrawn', { name: 'Blast classic' });
  await software('renamed', { name: 'Old blast name' });
  const instance = await send('POST', '/api/v1/instances', {
    software: ids.exact,
    label: 'blast server',
    description: 'The public deployment',
  });
  ids.instance = instance.id;
  const token = (await send('POST', `/api/v1/instances/${instance.id}/tokens`, {})).token as string;
  await send(
    'POST',
    '/api/v1/advertise/produced',
    {
      run: { external_key: 'gh-actions/4711/attempt-1', label: 'nightly alignment' },
      artifacts: [
        { title: 'Alignment hits', description: 'Found by a blast run', conforms_to: TYPE },
        ...Array.from({ length: 105 }, (_, n) => ({ title: `bulk item ${n}`, conforms_to: TYPE })),
      ],
    },
    token,
  );
  await send('DELETE', `/api/v1/software/${ids.withdrawn}`, undefined);
  await send('PATCH', `/api/v1/software/${ids.renamed}`, { name: 'Renamed tool' });
});
afterAll(async () => core.close());

describe('GET /api/v1/search', () => {
  it('ranks exact > prefix > word > substring > other field, shorter titles first within a band', async () => {
    const { body } = await get('/api/v1/search?q=blast');
    expect(body).toMatchObject({ query: 'blast', partial: false, peers: [] });
    expect((body.hits as any[]).map((hit) => [hit.title, hit.score])).toEqual([
      ['BLAST', 1],
      ['blast server', 0.8],
      ['blast+ suite', 0.8],
      ['NCBI Blast wrapper', 0.7],
      ['subblaster', 0.6],
      ['Aligner', 0.3],
      ['Alignment hits', 0.3],
    ]);
    expect(body.total).toBe(7);
    expect(body.hits[0]).toEqual({
      iri: `http://registry.test/software/${ids.exact}`,
      id: ids.exact,
      entity_type: 'software',
      title: 'BLAST',
      origin: { kind: 'local' },
      score: 1,
    });
    expect(body.hits[1]).toMatchObject({ entity_type: 'instance', snippet: 'The public deployment' });
    expect(body.hits[5].snippet).toBe('A fast Blást-like search over sequence records');
    expect(body.hits[6]).toMatchObject({ entity_type: 'artifact', snippet: 'Found by a blast run' });
  });

  it('ignores case and accents, and finds substrings through the trigram index', async () => {
    expect(await titles('q=BL%C3%84ST&limit=1')).toEqual(['BLAST']);
    expect(await titles('q=ubblas')).toEqual(['subblaster']);
    expect(await titles('q=st-lik')).toEqual(['Aligner']);
    // Two characters: title starts and word starts only.
    expect(await titles('q=su')).toEqual(['subblaster', 'blast+ suite']);
  });

  it("matches a run's label and its identifier, and a deployment's description", async () => {
    expect(await titles('q=nightly')).toEqual(['nightly alignment']);
    const byKey = await get('/api/v1/search?q=gh-actions%2F4711');
    expect(byKey.body.hits).toEqual([
      expect.objectContaining({
        entity_type: 'run',
        title: 'nightly alignment',
        snippet: 'gh-actions/4711/attempt-1',
        score: 0.3,
      }),
    ]);
    expect(await titles('q=public+deployment')).toEqual(['blast server']);
  });

  it('filters by type: comma-separated or repeated; an unknown type is a 400 naming the known ones', async () => {
    expect(await titles('q=blast&type=instance')).toEqual(['blast server']);
    expect(await titles('q=blast&type=instance,artifact')).toEqual(['blast server', 'Alignment hits']);
    expect(await titles('q=blast&type=instance&type=artifact')).toEqual(['blast server', 'Alignment hits']);
    expect(await titles('q=nightly&type=software')).toEqual([]);
    const bad = await get('/api/v1/search?q=blast&type=software,tool');
    expect(bad.status).toBe(400);
    expect(bad.type).toBe('application/problem+json');
    expect(bad.body).toMatchObject({
      code: 'bad-request',
      type: 'https://w3id.org/reg/problem/bad-request',
      known: ['software', 'instance', 'artifact', 'run'],
    });
    expect(bad.body.detail).toContain('software, instance, artifact, run');
    expect(bad.body.detail).toContain('"tool"');
  });

  it('answers an empty or missing q with no hits, not an error', async () => {
    for (const query of ['', 'q=', 'q=%20%20', 'type=run']) {
      const { status, body } = await get(`/api/v1/search?${query}`);
      expect(status, query).toBe(200);
      expect(body).toMatchObject({ hits: [], total: 0 });
    }
  });

  it('clamps limit to 1–100 (default 30) and refuses a limit that is not a number', async () => {
    expect(await titles('q=bulk+item')).toHaveLength(30);
    expect(await titles('q=bulk+item&limit=1000')).toHaveLength(100);
    expect(await titles('q=bulk+item&limit=0')).toHaveLength(1);
    expect(await titles('q=bulk+item&limit=-4')).toHaveLength(1);
    expect(await titles('q=bulk+item&limit=7')).toHaveLength(7);
    const bad = await get('/api/v1/search?q=bulk&limit=many');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('bad-request');
  });

  it('orders ties stably: shorter title, then title, then IRI', async () => {
    const hits = await titles('q=bulk+item&limit=12');
    expect(hits.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, n) => `bulk item ${n}`));
    expect(hits.slice(10)).toEqual(['bulk item 10', 'bulk item 11']);
    expect(await titles('q=bulk+item&limit=12')).toEqual(hits);
  });

  it('leaves withdrawn records out and follows renames', async () => {
    expect(await titles('q=classic')).toEqual([]);
    expect(await titles('q=old+blast')).toEqual([]);
    expect(await titles('q=renamed')).toEqual(['Renamed tool']);
    expect((await get(`/api/v1/software/${ids.withdrawn}`)).body.tombstoned).toBe(true);
  });

  it('accepts federated=true with the local hits, and refuses a federated value that is not a boolean', async () => {
    const { status, body } = await get('/api/v1/search?q=blast&federated=true&limit=1');
    expect(status).toBe(200);
    expect(body.hits).toEqual([expect.objectContaining({ title: 'BLAST', origin: { kind: 'local' } })]);
    expect(body.federation).toMatchObject({ registry: 'http://registry.test' });
    expect((await get('/api/v1/search?q=blast&federated=maybe')).status).toBe(400);
  });

  it('refuses a query longer than 200 characters', async () => {
    const bad = await get(`/api/v1/search?q=${'x'.repeat(201)}`);
    expect(bad.status).toBe(400);
  });
});

describe('the search index is derived data', () => {
  /** Opens a registry on `dir`, searches it once the index is rebuilt, and closes it. */
  async function searchAfterStart(dir: string, query: string): Promise<string[]> {
    const reopened = await openTestCore({ REG_DATA_DIR: dir }, true);
    try {
      const on = createApp(reopened);
      await waitFor(async () => (await get('/api/v1/search?q=x', on)).body.partial === false);
      return await titles(query, on);
    } finally {
      await reopened.close();
    }
  }

  /** A data directory holding software records of these names, with no registry open on it. */
  async function registryWith(names: string[]): Promise<string> {
    const dir = tempDir();
    const first = await openTestCore({ REG_DATA_DIR: dir }, true);
    try {
      const on = createApp(first);
      for (const name of names) {
        const response = await on.request('/api/v1/software', {
          method: 'POST',
          headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        });
        expect(response.status).toBe(201);
      }
      expect(await titles('q=kept', on)).toHaveLength(names.length);
    } finally {
      await first.close();
    }
    return dir;
  }

  it('is rebuilt at start when its tables were dropped', async () => {
    const dir = await registryWith(['kept one', 'kept two']);
    const raw = await openTestCore({ REG_DATA_DIR: dir });
    raw.db.exec('DROP TABLE search_text; DROP TABLE search_entry;');
    await raw.close();
    expect(await searchAfterStart(dir, 'q=kept')).toEqual(['kept one', 'kept two']);
  });

  // The embedded store refills the index from its record rows whenever it is empty or stale; the external store
  // keeps its own table of subjects and refills the index only when it is marked for a rebuild.
  it.skipIf(externalGraphRun())(
    'is rebuilt at start when it is empty while records exist (an upgrade)',
    async () => {
      const dir = await registryWith(['kept alpha', 'kept beta', 'kept gamma']);
      const raw = await openTestCore({ REG_DATA_DIR: dir });
      raw.db.exec(`DELETE FROM search_entry;
      INSERT INTO search_text (search_text) VALUES ('delete-all');
      INSERT INTO search_word (search_word) VALUES ('delete-all');
      DELETE FROM search_rebuild;`);
      await raw.close();
      expect(await searchAfterStart(dir, 'q=kept')).toEqual(['kept beta', 'kept alpha', 'kept gamma']);
    },
  );

  it('is current after a restore, which writes record rows directly or through the write path', async () => {
    const source = await registryWith(['kept restored']);
    const dumped = await openTestCore({ REG_DATA_DIR: source });
    const chunks: string[] = [];
    for await (const chunk of dumped.graph.dump()) chunks.push(chunk);
    await dumped.close();
    const file = path.join(tempDir(), 'dump.nq');
    fs.writeFileSync(file, chunks.join(''));
    const target = await registryWith(['kept before']);
    const stopped = await openTestCore({ REG_DATA_DIR: target });
    await restoreNQuads(stopped, file);
    await stopped.close();
    expect(await searchAfterStart(target, 'q=kept')).toEqual(['kept before', 'kept restored']);
  });
});
