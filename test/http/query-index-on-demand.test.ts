/**
 * The registry's own query index loaded on demand (`REG_QUERY_INDEX=on-demand`, embedded store): the registry is
 * ready without it; its reads (each checked as it answers), writes, probes and /sparql (which has a copy of its
 * own) leave it unloaded; a query of the registry's own loads it, and it is dropped again after the idle time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { EmbeddedGraphStore } from '../../src/core/store/graph/embedded/embedded.js';
import { probeDue } from '../../src/core/catalogue/health-probe.js';
import { lineageIndexReady, markLineageStale } from '../../src/core/store/lineage/lineage-index.js';
import { REG } from '../../src/core/ns.js';
import { openTestCore, waitFor } from '../helpers.js';
import { apiOf, type Json } from '../support/api.js';
import { fixtureEvent, seedWithLineage } from '../support/openlineage.js';
import { seedExample } from '../../src/core/ops/seed.js';
import { nameOnlyWrite } from '../support/stored-records.js';
import { findStrandedCitations } from '../../src/core/vocab/stranded-terms.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof apiOf>;
let store: EmbeddedGraphStore;
let deployment: Awaited<ReturnType<typeof api.deployment>>;

beforeAll(async () => {
  core = await openTestCore({ REG_QUERY_INDEX: 'on-demand', REG_SPARQL_INDEX_IDLE: '300ms' }, true);
  if (!(core.graph instanceof EmbeddedGraphStore)) throw new Error('this test needs the embedded store');
  store = core.graph;
  app = createApp(core);
  api = apiOf(app);
  deployment = await seedWithLineage(core, api);
}, 120_000);

afterAll(async () => {
  await core.close();
});

describe('the query index loaded on demand', () => {
  it('is not loaded by start, readiness, reads, writes, probes or /sparql', async () => {
    expect(store.indexHeld).toBe(false);
    expect(core.graph.ready).toBe(true);
    expect(await (await app.request('/readyz')).json()).toMatchObject({ status: 'ready' });
    const artifacts = (await api.call('GET', '/api/v1/artifacts?limit=50', 200)).items as Json[];
    const runs = (await api.call('GET', '/api/v1/runs?limit=50', 200)).items as Json[];
    const software = (await api.call('GET', '/api/v1/software?limit=50', 200)).items as Json[];
    const types = (await api.call('GET', '/api/v1/types', 200)).items as Json[];
    const produced = artifacts.find((item) => item.generated_by !== undefined) ?? artifacts[0]!;
    const type = encodeURIComponent(String(types[0]!.iri));
    // An artifact known by its bytes' checksum (written before the reads: writes leave the index unloaded too).
    const digest = 'ab'.repeat(32);
    await api.call('POST', '/api/v1/artifacts', 201, {
      title: 'held bytes',
      distributions: [
        { download_url: 'https://data.example.org/held', checksum: { algorithm: 'sha256', value: digest } },
      ],
    });
    const content = encodeURIComponent(`ni:///sha-256;${Buffer.from(digest, 'hex').toString('base64url')}`);
    const reads = [
      '/api/v1/instances?limit=50',
      '/api/v1/software?q=shacl&limit=5',
      '/api/v1/artifacts?keyword=validation',
      '/api/v1/software?publisher=nobody',
      `/api/v1/software?produces=${type}`,
      `/api/v1/software?consumes=${type}`,
      '/api/v1/artifacts?availability=metadata-only',
      `/api/v1/artifacts?run=${String(runs[0]!.id)}`,
      `/api/v1/artifacts?content=${content}`,
      `/api/v1/identify?id=${content}`,
      `/api/v1/artifacts/identify?value=${digest}`,
      `/api/v1/software/${String(software[0]!.id)}`,
      `/api/v1/software/${String(deployment.software.id)}/deployments`,
      `/api/v1/instances/${String(deployment.instance.id)}`,
      `/api/v1/instances/${String(deployment.instance.id)}/runs`,
      `/api/v1/runs/${String(runs[0]!.id)}`,
      `/api/v1/artifacts/${String(produced.id)}`,
      `/api/v1/artifacts/${String(produced.id)}/lineage?direction=both`,
      `/api/v1/impact?of=${String(produced.id)}`,
      `/api/v1/capabilities?produces=${encodeURIComponent(String(types[0]!.iri))}`,
      `/api/v1/capabilities?basis=both&produces=${encodeURIComponent(String(types[0]!.iri))}`,
      `/api/v1/instances/${String(deployment.instance.id)}/observed-capability`,
      `/api/v1/software/${String(deployment.software.id)}/observed-capability`,
      '/api/v1/search?q=shacl',
      '/api/v1/licenses',
      '/api/v1/registry',
      '/metrics',
      `/api/v1/graph?iri=${encodeURIComponent(String(deployment.software.iri))}&depth=2`,
      `/api/v1/graph?iri=${encodeURIComponent(String(produced.iri))}&depth=3`,
    ];
    // Checked after each read: a copy loaded for one is held until the idle time has passed.
    for (const path of reads) {
      const response = await app.request(path);
      expect([path, response.status, store.indexHeld]).toEqual([path, 200, false]);
    }
    // The filters and the content lookup found what they were asked for.
    for (const path of [`/api/v1/artifacts?content=${content}`, `/api/v1/identify?id=${content}`])
      expect([path, (await api.call('GET', path, 200)).total]).toEqual([path, 1]);
    for (const path of [`/api/v1/software?produces=${type}`, '/api/v1/artifacts?availability=metadata-only'])
      expect([path, Number((await api.call('GET', path, 200)).total) > 0]).toEqual([path, true]);
    // Writes: a record, an advertised artifact, OpenLineage events, an announced deployment.
    await api.call('POST', '/api/v1/software', 201, { name: 'written on demand' });
    await api.advertise(deployment.token, 'produced', 'on-demand-run', [{ title: 'table written' }]);
    await api.call('POST', '/api/v1/lineage', 202, fixtureEvent('airflow-complete'), deployment.token);
    await probeDue(core);
    // A second seed refused, the check for stranded terms (after a restore, at each start), and a write whose type
    // is checked against peers' concepts.
    await expect(seedExample(core)).rejects.toThrow(/already holds/);
    expect(await findStrandedCitations(core)).toEqual([]);
    const capability = { produces: ['https://peer.example/type/unknown'] };
    await api.call('POST', '/api/v1/software', 422, { name: 'cites a type', capability });
    const exported = await api.send('GET', '/api/v1/openlineage/export');
    expect([exported.status, (await exported.text()).length > 0]).toEqual([200, true]);
    expect(store.indexHeld).toBe(false);
    const sparql = await app.request(
      `/sparql?query=${encodeURIComponent('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }')}`,
      { headers: { accept: 'application/sparql-results+json' } },
    );
    expect(sparql.status).toBe(200);
    expect(store.indexHeld).toBe(false);
  });

  it('is loaded by a read that needs it, and dropped again when idle', async () => {
    // A query of its own asks the query index (as /sparql does not: it has a copy of its own).
    const softwareCount = async () => {
      const [row] = await core.graph.select(
        `SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { GRAPH ?g { ?s a <${REG('Software')}> } }`,
      );
      return Number(row?.n?.value ?? 0);
    };
    const before = await softwareCount();
    expect(before).toBeGreaterThan(0);
    expect(store.indexHeld).toBe(true);
    await waitFor(() => !store.indexHeld, 10_000);
    // The next such read loads it again, with what was written meanwhile.
    await api.call('POST', '/api/v1/software', 201, { name: 'written while unloaded' });
    expect(await softwareCount()).toBe(before + 1);
    expect(store.indexHeld).toBe(true);
  });

  it('is ready once the lineage index the reads use is complete', async () => {
    // Enough records that filling the index takes batches, between which other work runs.
    const many = Array.from({ length: 1200 }, (_, n) =>
      nameOnlyWrite(`${core.config.baseIri}/software/n${n}`, `n${n}`),
    );
    await core.graph.commit(many, () => undefined);
    // As after an upgrade or a restore: the lineage index is to be filled again from the records.
    core.db.transaction(() => markLineageStale(core.db, core.graph.kind));
    expect(core.graph.ready).toBe(false);
    const refused = await app.request('/readyz');
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { detail: string }).detail).toContain('lineage index');
    // The next start fills it in the background, and is ready when it is complete.
    const dataDir = core.config.dataDir;
    await core.close();
    core = await openTestCore({ REG_DATA_DIR: dataDir, REG_QUERY_INDEX: 'on-demand' }, true);
    app = createApp(core);
    // As a restore's report and the start-up check do: the check for stranded terms waits for the fill.
    expect(await findStrandedCitations(core)).toEqual([]);
    expect(lineageIndexReady(core.db)).toBe(true);
    await waitFor(() => core.graph.ready, 30_000);
    expect(lineageIndexReady(core.db)).toBe(true);
    expect((await app.request('/readyz')).status).toBe(200);
    expect((core.graph as EmbeddedGraphStore).indexHeld).toBe(false);
  });
});
