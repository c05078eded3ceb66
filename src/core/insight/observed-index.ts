/**
 * Observed capability read from the lineage index in `registry.db`, which keeps runs' associations, instance-of
 * links, starts and creation times, artifacts' generated-by, used and conforms-to links, declared capabilities,
 * releases, names, labels and withdrawals. Each statement counts what its counterpart query in `observed.ts` or
 * `observed-matches.ts` counts, over the same graphs, so the answers are the same, given before the query index
 * has loaded and without a request to an external store.
 */
import type { Database } from '../store/database.js';
import { FACT, LINK } from '../store/lineage/lineage-facts.js';
import { factsAt, firstLinkSql, notWithdrawnSql } from '../store/lineage/lineage-sql.js';
import { GRAPHS } from '../ns.js';
import type { CapabilityWay } from './observed.js';

/** What runs met of one type: distinct artifacts, distinct runs, and the newest run's time (null: none known). */
export interface TypeCount {
  readonly type: string;
  readonly artifacts: number;
  readonly runs: number;
  readonly last: string | null;
}

/**
 * A run's time as the queries bind it, `COALESCE(started, created)` over the local graph: its newest start, else
 * its newest creation, both kept in UTC.
 */
const runTime = (run: string): string =>
  `coalesce(
     (SELECT MAX(n.value) FROM lineage_node n WHERE n.iri = ${run} AND n.graph = @local AND n.p = ${FACT.started}),
     (SELECT MAX(n.value) FROM lineage_node n WHERE n.iri = ${run} AND n.graph = @local AND n.p = ${FACT.created}))`;

/** The software a deployment is an instance of in the local graph, as the queries sample it: the first stated. */
const softwareOf = (deployment: string): string => firstLinkSql(deployment, '@local', LINK.instanceOf);

/**
 * Pairs (a, r, g) of an artifact and a run in `runs` (a table with column r) that met it one way: generated it
 * (stated in g), or used it (stated in the local graph, with g left open).
 */
const metBy = (way: CapabilityWay, runs: string): string =>
  way === 'produces'
    ? `SELECT m.s AS a, m.o AS r, m.graph AS g FROM lineage_link m JOIN ${runs} ON m.o = ${runs}.r
       WHERE m.p = ${LINK.generatedBy}`
    : `SELECT m.o AS a, m.s AS r, NULL AS g FROM lineage_link m JOIN ${runs} ON m.s = ${runs}.r
       WHERE m.p = ${LINK.used} AND m.graph = @local`;

/**
 * The types the runs of a deployment (or of every deployment of a software) met one way, as `observedTypes` asks
 * the query index: a produced artifact's type from the graph stating that the run generated it, a consumed one's
 * from any graph.
 */
export function typeCountsFromIndex(
  db: Database,
  kind: 'software' | 'instance',
  iri: string,
  way: CapabilityWay,
): TypeCount[] {
  const scope =
    kind === 'instance'
      ? 'SELECT @iri AS i'
      : `SELECT l.s AS i FROM lineage_link l WHERE l.o = @iri AND l.p = ${LINK.instanceOf} AND l.graph = @local`;
  return db
    .prepare(
      `WITH scope AS (${scope}),
         runs AS (SELECT DISTINCT a.s AS r FROM lineage_link a JOIN scope ON a.o = scope.i
           WHERE a.p = ${LINK.associatedWith} AND a.graph = @local),
         met AS (${metBy(way, 'runs')}),
         timed AS (SELECT r, ${runTime('r')} AS at FROM (SELECT DISTINCT r FROM met))
       SELECT c.o AS type, COUNT(DISTINCT met.a) AS artifacts, COUNT(DISTINCT met.r) AS runs, MAX(timed.at) AS last
       FROM met JOIN lineage_link c ON c.s = met.a AND c.p = ${LINK.conformsTo} AND (met.g IS NULL OR c.graph = met.g)
         JOIN timed ON timed.r = met.r
       GROUP BY c.o`,
    )
    .all({ iri, local: GRAPHS.local }) as TypeCount[];
}

/** A type declared on a record, one way. */
export interface Declaration {
  readonly record: string;
  readonly way: CapabilityWay;
  readonly type: string;
}

/** The types declared on `records` each way, as `declaredOn` asks: a record's capability in any graph stating it. */
export function declaredFromIndex(db: Database, records: readonly string[]): Declaration[] {
  const rows = db
    .prepare(
      `SELECT DISTINCT h.s AS record, l.p AS p, l.o AS type FROM lineage_link h
       JOIN lineage_link l ON l.s = h.o AND l.graph = h.graph AND l.p IN (${LINK.produces}, ${LINK.consumes})
       WHERE h.s IN (SELECT value FROM json_each(@records)) AND h.p = ${LINK.hasCapability}`,
    )
    .all({ records: JSON.stringify(records) }) as { record: string; p: number; type: string }[];
  return rows.map((row) => ({
    record: row.record,
    way: row.p === LINK.produces ? 'produces' : 'consumes',
    type: row.type,
  }));
}

/** The releases of a software in the local graph, as `releasesOf` asks: at most `limit`. */
export function releasesFromIndex(db: Database, software: string, limit: number): string[] {
  return db
    .prepare(
      `SELECT DISTINCT l.s FROM lineage_link l
       WHERE l.o = @software AND l.p = ${LINK.versionOf} AND l.graph = @local
         AND EXISTS (SELECT 1 FROM lineage_node k WHERE k.iri = l.s AND k.graph = @local AND k.p = ${FACT.release})
       ORDER BY l.s LIMIT @limit`,
    )
    .pluck()
    .all({ software, local: GRAPHS.local, limit }) as string[];
}

/** What one deployment's runs met of one type, with the software it is an instance of. */
export interface DeploymentCount extends TypeCount {
  readonly instance: string;
  readonly software: string | null;
}

/**
 * Per deployment not withdrawn (in the local graph) and asked type, what its runs met of it one way, as
 * `observations` asks: a produced artifact's type from the graph stating that a run generated it, a consumed
 * one's from any graph. At most `limit` rows, by deployment and type.
 */
export function deploymentCountsFromIndex(
  db: Database,
  types: readonly string[],
  way: CapabilityWay,
  limit: number,
): DeploymentCount[] {
  const met =
    way === 'produces'
      ? `SELECT c.s AS a, c.o AS t, m.o AS r FROM lineage_link c
         JOIN lineage_link m ON m.s = c.s AND m.graph = c.graph AND m.p = ${LINK.generatedBy}
         WHERE c.o IN (SELECT value FROM json_each(@types)) AND c.p = ${LINK.conformsTo}`
      : `SELECT c.s AS a, c.o AS t, m.s AS r FROM lineage_link c
         JOIN lineage_link m ON m.o = c.s AND m.graph = @local AND m.p = ${LINK.used}
         WHERE c.o IN (SELECT value FROM json_each(@types)) AND c.p = ${LINK.conformsTo}`;
  return db
    .prepare(
      `WITH met AS (${met}),
         timed AS (SELECT r, ${runTime('r')} AS at FROM (SELECT DISTINCT r FROM met))
       SELECT a.o AS instance, met.t AS type, ${softwareOf('a.o')} AS software,
         COUNT(DISTINCT met.a) AS artifacts, COUNT(DISTINCT met.r) AS runs, MAX(timed.at) AS last
       FROM met JOIN lineage_link a ON a.s = met.r AND a.p = ${LINK.associatedWith} AND a.graph = @local
         JOIN timed ON timed.r = met.r
       WHERE ${notWithdrawnSql('a.o', 'a.graph')}
       GROUP BY a.o, met.t ORDER BY a.o, met.t LIMIT @limit`,
    )
    .all({ types: JSON.stringify(types), local: GRAPHS.local, limit }) as DeploymentCount[];
}

/** A deployment whose runs used an artifact: how many runs, the newest run's time, and its software. */
export interface UseCount {
  readonly instance: string;
  readonly software: string | null;
  readonly runs: number;
  readonly last: string | null;
}

/**
 * The deployments whose runs used an artifact (both stated in the local graph), as `artifactUse` asks: at most
 * `limit`, by deployment.
 */
export function useCountsFromIndex(db: Database, artifact: string, limit: number): UseCount[] {
  return db
    .prepare(
      `WITH runs AS (SELECT DISTINCT u.s AS r FROM lineage_link u
           WHERE u.o = @artifact AND u.p = ${LINK.used} AND u.graph = @local),
         timed AS (SELECT r, ${runTime('r')} AS at FROM runs)
       SELECT a.o AS instance, ${softwareOf('a.o')} AS software, COUNT(DISTINCT a.s) AS runs, MAX(timed.at) AS last
       FROM timed JOIN lineage_link a ON a.s = timed.r AND a.p = ${LINK.associatedWith} AND a.graph = @local
       GROUP BY a.o ORDER BY a.o LIMIT @limit`,
    )
    .all({ artifact, local: GRAPHS.local, limit }) as UseCount[];
}

/** The names of records in the local graph, as `namesOf` asks: a schema:name, else an rdfs:label. */
export function namesFromIndex(db: Database, iris: readonly string[]): Map<string, string> {
  const facts = factsAt(
    db,
    iris.map((iri) => [iri, GRAPHS.local] as const),
    [FACT.name, FACT.label],
  );
  const names = new Map<string, string>();
  for (const fact of facts) if (fact.p === FACT.name && !names.has(fact.iri)) names.set(fact.iri, fact.value);
  for (const fact of facts)
    if (fact.p === FACT.label && !names.has(fact.iri)) names.set(fact.iri, fact.value);
  return names;
}
