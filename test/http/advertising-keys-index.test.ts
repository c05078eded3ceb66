/**
 * The rows that make advertising idempotent, rebuilt after a restore from the lineage index (so a restore never
 * loads the query index for them): the same rows the queries over the records give, including records written
 * with the predicates older versions used for a run's key and deployment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { DCAT, DCT, GRAPHS, PROV, RDF, REG } from '../../src/core/ns.js';
import { restoreNQuads } from '../../src/core/ops/restore.js';
import {
  advertisingRowsByQuery,
  advertisingRowsFromIndex,
} from '../../src/core/provenance/advertising-keys.js';
import { lineageIndexReady, markLineageStale } from '../../src/core/store/lineage/lineage-index.js';
import { openTestCore, tempDir } from '../helpers.js';
import { apiOf } from '../support/api.js';
import { seedWithLineage } from '../support/openlineage.js';

let core: Core;
let api: ReturnType<typeof apiOf>;

beforeAll(async () => {
  core = await openTestCore({}, true);
  api = apiOf(createApp(core));
  const deployment = await seedWithLineage(core, api);
  await api.advertise(deployment.token, 'produced', 'nightly-7', [
    { title: 'keyed output', external_key: 'out-7' },
  ]);
  const base = core.config.baseIri;
  const instance = String(deployment.instance.iri);
  const software = String(deployment.software.iri);
  const line = (s: string, p: string, o: string): string => `<${s}> <${p}> ${o} <${GRAPHS.local}> .`;
  const iri = (value: string): string => `<${value}>`;
  const text = (value: string): string => JSON.stringify(value);
  const legacyRun = `${base}/run/legacy-run`;
  const legacyArtifact = `${base}/artifact/legacy-artifact`;
  const lines = [
    // A run and an artifact with the older key and deployment predicates.
    line(legacyRun, RDF('type'), iri(PROV('Activity'))),
    line(legacyRun, REG('externalKey'), text('legacy-run-key')),
    line(legacyRun, REG('atInstance'), iri(instance)),
    line(legacyArtifact, RDF('type'), iri(DCAT('Dataset'))),
    line(legacyArtifact, REG('externalKey'), text('legacy-artifact-key')),
    line(legacyArtifact, PROV('wasAttributedTo'), iri(instance)),
    line(legacyArtifact, PROV('wasGeneratedBy'), iri(legacyRun)),
    // A run with no key, which only gives a claim; an artifact attributed to a software, which gives no key.
    line(`${base}/run/unkeyed`, RDF('type'), iri(PROV('Activity'))),
    line(`${base}/run/unkeyed`, PROV('used'), iri(legacyArtifact)),
    line(`${base}/artifact/by-software`, RDF('type'), iri(DCAT('Dataset'))),
    line(`${base}/artifact/by-software`, DCT('identifier'), text('software-key')),
    line(`${base}/artifact/by-software`, PROV('wasAttributedTo'), iri(software)),
    // Something that used an artifact but is not a run gives no claim.
    line(`${base}/artifact/not-a-run`, RDF('type'), iri(DCAT('Dataset'))),
    line(`${base}/artifact/not-a-run`, PROV('used'), iri(legacyArtifact)),
  ];
  const file = path.join(tempDir(), 'legacy.nq');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  await restoreNQuads(core, file);
  // A restore is made into a stopped registry: the next start reads what it wrote.
  const dataDir = core.config.dataDir;
  await core.close();
  core = await openTestCore({ REG_DATA_DIR: dataDir }, true);
}, 180_000);

afterAll(async () => {
  await core.close();
});

describe('advertising rows from the lineage index', () => {
  it('stays complete through a restore, and gives the rows the queries give', async () => {
    expect(lineageIndexReady(core.db)).toBe(true);
    const fromIndex = advertisingRowsFromIndex(core.db);
    const byQuery = await advertisingRowsByQuery(core);
    const base = core.config.baseIri;
    // Each kind of row is there: keys of runs and artifacts (the older predicates too) and both kinds of claim.
    expect(byQuery.runKeys).toContainEqual(
      expect.objectContaining({ run: `${base}/run/legacy-run`, key: 'legacy-run-key' }),
    );
    expect(byQuery.runKeys.map((row) => row.key)).toContain('nightly-7');
    expect(byQuery.artifactKeys).toContainEqual(
      expect.objectContaining({ artifact: `${base}/artifact/legacy-artifact`, key: 'legacy-artifact-key' }),
    );
    expect(byQuery.artifactKeys.map((row) => row.key)).toContain('out-7');
    expect(byQuery.artifactKeys.map((row) => row.key)).not.toContain('software-key');
    expect(byQuery.claims).toContainEqual({
      run: `${base}/run/unkeyed`,
      artifact: `${base}/artifact/legacy-artifact`,
      role: 'consumed',
    });
    expect(byQuery.claims.filter((claim) => claim.role === 'produced').length).toBeGreaterThan(3);
    expect(byQuery.claims.map((claim) => claim.run)).not.toContain(`${base}/artifact/not-a-run`);
    expect(fromIndex).toEqual(byQuery);
  });

  it('is kept by the restore as a refill from the records would fill it', async () => {
    const rows = () => ({
      links: core.db
        .prepare('SELECT graph, record, s, p, o FROM lineage_link ORDER BY graph, record, s, p, o')
        .all(),
      nodes: core.db
        .prepare(
          'SELECT graph, record, iri, p, value FROM lineage_node ORDER BY graph, record, iri, p, value',
        )
        .all(),
    });
    const kept = rows();
    expect(kept.links.length).toBeGreaterThan(20);
    markLineageStale(core.db, core.graph.kind);
    await core.graph.open();
    await core.graph.lineageFilled();
    expect(lineageIndexReady(core.db)).toBe(true);
    expect(kept).toEqual(rows());
  });
});
