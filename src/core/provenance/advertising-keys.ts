import { DCAT, DCT, GRAPHS, PROV, REG } from '../ns.js';
import { addAdvertisingRows, type AdvertisingRows } from '../store/advertising.js';
import type { Core } from '../core.js';
import { selectByKey } from '../stored/keyset.js';
import { lineageIndexReady } from '../store/lineage-index.js';
import { advertisingRowsFromIndex } from './advertising-index.js';

const LOCAL = `<${GRAPHS.local}>`;

/**
 * Rebuilds the rows that make advertising idempotent (a deployment's run keys and artifact keys, and which
 * artifacts each run produced and consumed) from the records, which carry all of it: a run its key and
 * deployment, an artifact its key, the deployment it is attributed to and the run that generated it, a run what
 * it used. After a restore, the same advertisement made again finds its run and artifacts instead of minting
 * new ones. Rows already present are kept. Read from the lineage index when it is complete (a fill under way is
 * waited for), else by queries. Returns how many rows were added.
 */
export async function rebuildAdvertisingKeys(core: Core): Promise<number> {
  return addAdvertisingRows(core.db, await advertisingRowsOf(core), new Date().toISOString());
}

/** The advertising rows the records carry, in the order each reader gives them. */
export async function advertisingRowsOf(core: Core): Promise<AdvertisingRows> {
  // After a restore the lineage index is being filled again: waiting for it spares loading the query index.
  if (!lineageIndexReady(core.db)) await core.graph.lineageFilled();
  if (lineageIndexReady(core.db)) return advertisingRowsFromIndex(core);
  const [runs, artifacts, produced, consumed] = await Promise.all([
    selectByKey(
      core,
      'run',
      ({ after, order }) => `SELECT ?run (SAMPLE(?k) AS ?key) (SAMPLE(?i) AS ?instance) WHERE {
        GRAPH ${LOCAL} { ?run a <${PROV('Activity')}> ; <${DCT('identifier')}>|<${REG('externalKey')}> ?k ;
          <${PROV('wasAssociatedWith')}>|<${REG('atInstance')}> ?i . } ${after} } GROUP BY ?run ${order}`,
    ),
    selectByKey(
      core,
      'artifact',
      ({ after, order }) => `SELECT ?artifact (SAMPLE(?k) AS ?key) (SAMPLE(?i) AS ?instance) WHERE {
        GRAPH ${LOCAL} { ?artifact a <${DCAT('Dataset')}> ; <${DCT('identifier')}>|<${REG('externalKey')}> ?k ;
          <${PROV('wasAttributedTo')}> ?i . ?i a <${REG('Instance')}> . } ${after} } GROUP BY ?artifact ${order}`,
    ),
    claimPairs(core, `?artifact <${PROV('wasGeneratedBy')}> ?run .`),
    claimPairs(core, `?run <${PROV('used')}> ?artifact .`),
  ]);
  return {
    runKeys: runs.flatMap((row) =>
      row.run && row.key && row.instance
        ? [{ run: row.run.value, key: row.key.value, instance: row.instance.value }]
        : [],
    ),
    artifactKeys: artifacts.flatMap((row) =>
      row.artifact && row.key && row.instance
        ? [{ artifact: row.artifact.value, key: row.key.value, instance: row.instance.value }]
        : [],
    ),
    claims: [
      ...produced.map((pair) => ({ ...pair, role: 'produced' as const })),
      ...consumed.map((pair) => ({ ...pair, role: 'consumed' as const })),
    ],
  };
}

/** The (run, artifact) pairs a pattern over the registry's own runs names. */
async function claimPairs(core: Core, pattern: string): Promise<{ run: string; artifact: string }[]> {
  const rows = await selectByKey(
    core,
    'pair',
    ({ after, order }) => `SELECT DISTINCT ?pair ?run ?artifact WHERE {
      GRAPH ${LOCAL} { ${pattern} ?run a <${PROV('Activity')}> . }
      BIND(CONCAT(STR(?run), " ", STR(?artifact)) AS ?pair) ${after} } ${order}`,
  );
  return rows.flatMap((row) =>
    row.run && row.artifact ? [{ run: row.run.value, artifact: row.artifact.value }] : [],
  );
}
