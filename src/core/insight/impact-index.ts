/**
 * Impact read from the lineage index in `registry.db` (runs' deployments, releases, starts, statuses and labels,
 * generated-by, used and runs-release links, creation times and withdrawals), so an impact question is answered
 * before the query index has loaded, and from the external store without a request per step (what holds some
 * content is read by `insight/content-index.ts`). Each reader gives what its query in the query index gives, for the graphs,
 * withdrawals, order and limits that query has.
 */
import type { Core } from '../core.js';
import { FACT, LINK } from '../store/lineage/lineage-facts.js';
import { firstFactSql, firstLinkSql, notWithdrawnSql } from '../store/lineage/lineage-sql.js';
import type { RunFacts } from './impact-runs.js';

interface RunRow {
  readonly run: string;
  readonly instance: string | null;
  readonly release: string | null;
  readonly started: string | null;
  readonly created: string | null;
  readonly status: string | null;
  readonly label: string | null;
}

/** The first value of a link or fact of the run in the graph that types it, as the records stated them. */
const first = (table: 'link' | 'node', code: number, name: string): string =>
  `${table === 'link' ? firstLinkSql('t.iri', 't.graph', code) : firstFactSql('t.iri', 't.graph', code)} AS ${name}`;

/**
 * The deployment, release, start (or else creation) time, status and label of each run typed as a run in any
 * graph, each the first one stated in a graph that types it (the query takes a sample of them: runs have one).
 */
export function runFactsFromIndex(core: Core, runs: readonly string[]): Map<string, RunFacts> {
  const rows = core.db
    .prepare(
      `SELECT t.iri AS run, ${first('link', LINK.associatedWith, 'instance')},
         ${first('link', LINK.usedRelease, 'release')}, ${first('node', FACT.started, 'started')},
         ${first('node', FACT.created, 'created')}, ${first('node', FACT.status, 'status')},
         ${first('node', FACT.label, 'label')}
       FROM json_each(?) c JOIN lineage_node t ON t.iri = c.value AND t.p = ${FACT.run}
       ORDER BY t.rowid`,
    )
    .all(JSON.stringify(runs)) as RunRow[];
  const merged = new Map<string, Omit<RunRow, 'run'>>();
  for (const { run, ...row } of rows) {
    const seen = merged.get(run);
    merged.set(
      run,
      seen === undefined
        ? row
        : {
            instance: seen.instance ?? row.instance,
            release: seen.release ?? row.release,
            started: seen.started ?? row.started,
            created: seen.created ?? row.created,
            status: seen.status ?? row.status,
            label: seen.label ?? row.label,
          },
    );
  }
  const facts = new Map<string, RunFacts>();
  for (const [run, row] of merged) {
    const at = row.started ?? row.created;
    facts.set(run, {
      ...(row.instance === null ? {} : { instance: row.instance }),
      ...(row.release === null ? {} : { release: row.release }),
      ...(at === null ? {} : { at }),
      ...(row.status === null ? {} : { status: row.status }),
      ...(row.label === null ? {} : { label: row.label }),
    });
  }
  return facts;
}

/**
 * The distinct pairs of a run that used one of `releases` and an artifact it generated (null: it generated
 * nothing), in any graph, ordered by run then artifact, at most `limit`.
 */
export function releaseRunRowsFromIndex(
  core: Core,
  releases: readonly string[],
  limit: number,
): { run: string; a: string | null }[] {
  return core.db
    .prepare(
      `SELECT DISTINCT u.s AS run, m.s AS a FROM lineage_link u
         LEFT JOIN lineage_link m ON m.o = u.s AND m.p = ${LINK.generatedBy}
       WHERE u.o IN (SELECT value FROM json_each(?)) AND u.p = ${LINK.usedRelease}
       ORDER BY run, a LIMIT ?`,
    )
    .all(JSON.stringify(releases), limit) as { run: string; a: string | null }[];
}

/**
 * How many artifacts runs of the deployment generated (created at or after `since`, in UTC, and not withdrawn in
 * the graph stating both), and the `shown` newest of them (ties in IRI order).
 */
export function producedSinceFromIndex(
  core: Core,
  instance: string,
  since: string | undefined,
  shown: number,
): { count: number; artifacts: string[] } {
  const after = since === undefined ? undefined : Date.parse(since);
  if (after !== undefined && Number.isNaN(after)) return { count: 0, artifacts: [] };
  const bound = after === undefined ? [] : [new Date(after).toISOString()];
  const from = `FROM lineage_link r
    JOIN lineage_link m ON m.o = r.s AND m.p = ${LINK.generatedBy}
    JOIN lineage_node c ON c.iri = m.s AND c.graph = m.graph AND c.p = ${FACT.created}
    WHERE r.o = ? AND r.p = ${LINK.associatedWith} ${bound.length === 0 ? '' : 'AND c.value >= ?'}
      AND ${notWithdrawnSql('m.s', 'm.graph')}`;
  const count = core.db
    .prepare(`SELECT COUNT(DISTINCT m.s) ${from}`)
    .pluck()
    .get(instance, ...bound) as number;
  if (count === 0) return { count, artifacts: [] };
  const artifacts = core.db
    .prepare(`SELECT m.s AS a, MAX(c.value) AS at ${from} GROUP BY m.s ORDER BY at DESC, a LIMIT ?`)
    .all(instance, ...bound, shown) as { a: string }[];
  return { count, artifacts: artifacts.map((row) => row.a) };
}

/** The deployments that run one of `releases` now and are not withdrawn in that graph, in IRI order. */
export function runningNowFromIndex(core: Core, releases: readonly string[], limit: number): string[] {
  return core.db
    .prepare(
      `SELECT DISTINCT l.s FROM lineage_link l
       WHERE l.o IN (SELECT value FROM json_each(?)) AND l.p = ${LINK.runsRelease}
         AND ${notWithdrawnSql('l.s', 'l.graph')}
       ORDER BY l.s LIMIT ?`,
    )
    .pluck()
    .all(JSON.stringify(releases), limit) as string[];
}

/** Whether a run in any graph used `iri`. */
export function usedByARunInIndex(core: Core, iri: string): boolean {
  return (
    core.db.prepare(`SELECT 1 FROM lineage_link WHERE o = ? AND p = ${LINK.used} LIMIT 1`).get(iri) !==
    undefined
  );
}
