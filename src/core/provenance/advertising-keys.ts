import { DCAT, DCT, GRAPHS, PROV, REG } from '../ns.js';
import { addAdvertisingRows, type AdvertisingRows } from '../store/advertising.js';
import type { Database } from '../store/database.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { FACT, LINK } from '../store/lineage/lineage-facts.js';
import type { Core } from '../core.js';
import { selectByKey } from '../stored/keyset.js';

const LOCAL = `<${GRAPHS.local}>`;

/**
 * Rebuilds the rows that make advertising idempotent (a deployment's run keys and artifact keys, and which
 * artifacts each run produced and consumed) from the records, which carry all of it: a run its key and
 * deployment, an artifact its key, the deployment it is attributed to and the run that generated it, a run what
 * it used. After a restore, the same advertisement made again finds its run and artifacts instead of minting
 * new ones. Rows already present are kept. Returns how many rows were added. Read from the lineage index when it
 * is complete (so a restore never loads the query index for it), else by queries; both give the same rows.
 */
export async function rebuildAdvertisingKeys(core: Core): Promise<number> {
  const rows = lineageIndexReady(core.db)
    ? advertisingRowsFromIndex(core.db)
    : await advertisingRowsByQuery(core);
  return addAdvertisingRows(core.db, rows, new Date().toISOString());
}

/** The advertising rows the registry's own records carry, by queries. */
export async function advertisingRowsByQuery(core: Core): Promise<AdvertisingRows> {
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

/**
 * The same rows from the lineage index: each run (a node typed as an activity) with its first key and deployment,
 * each artifact with its first key and first deployment it is attributed to, and the runs' outputs and inputs, in
 * the order of the queries (by run or artifact IRI), all stated in the registry's own graph.
 */
export function advertisingRowsFromIndex(db: Database): AdvertisingRows {
  const keys = `${FACT.externalKey}, ${FACT.legacyExternalKey}`;
  const firstKey = `(SELECT k.value FROM lineage_node k WHERE k.iri = t.iri AND k.graph = t.graph
    AND k.p IN (${keys}) ORDER BY k.rowid LIMIT 1)`;
  const typed = (fact: number): string =>
    `(SELECT DISTINCT iri, graph FROM lineage_node WHERE p = ${fact} AND graph = ?) t`;
  const runKeys = db
    .prepare(
      `SELECT * FROM (SELECT t.iri AS run, ${firstKey} AS key,
         (SELECT l.o FROM lineage_link l WHERE l.s = t.iri AND l.graph = t.graph
            AND l.p IN (${LINK.associatedWith}, ${LINK.atInstance}) ORDER BY l.rowid LIMIT 1) AS instance
       FROM ${typed(FACT.run)}) WHERE key IS NOT NULL AND instance IS NOT NULL ORDER BY run`,
    )
    .all(GRAPHS.local) as { run: string; key: string; instance: string }[];
  const artifactKeys = db
    .prepare(
      `SELECT * FROM (SELECT t.iri AS artifact, ${firstKey} AS key,
         (SELECT l.o FROM lineage_link l WHERE l.s = t.iri AND l.graph = t.graph AND l.p = ${LINK.attributedTo}
            AND EXISTS (SELECT 1 FROM lineage_node d WHERE d.iri = l.o AND d.graph = t.graph
              AND d.p = ${FACT.deployment})
          ORDER BY l.rowid LIMIT 1) AS instance
       FROM ${typed(FACT.artifact)}) WHERE key IS NOT NULL AND instance IS NOT NULL ORDER BY artifact`,
    )
    .all(GRAPHS.local) as { artifact: string; key: string; instance: string }[];
  // A pair whose run is typed as an activity in the registry's graph: outputs link from the artifact, inputs from
  // the run.
  const pairs = (link: number, run: 's' | 'o'): { run: string; artifact: string }[] =>
    db
      .prepare(
        `SELECT DISTINCT l.${run} AS run, l.${run === 's' ? 'o' : 's'} AS artifact FROM lineage_link l
         WHERE l.p = ${link} AND l.graph = @graph AND EXISTS (SELECT 1 FROM lineage_node r
           WHERE r.iri = l.${run} AND r.graph = @graph AND r.p = ${FACT.run})
         ORDER BY run || ' ' || artifact`,
      )
      .all({ graph: GRAPHS.local }) as { run: string; artifact: string }[];
  return {
    runKeys,
    artifactKeys,
    claims: [
      ...pairs(LINK.generatedBy, 'o').map((pair) => ({ ...pair, role: 'produced' as const })),
      ...pairs(LINK.used, 's').map((pair) => ({ ...pair, role: 'consumed' as const })),
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
