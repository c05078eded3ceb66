/**
 * The reads lineage makes of its index (`lineage-index.ts`): one breadth-first step from frontiers, the nodes it
 * reached with their kinds and titles, and the series artifacts are versions of.
 */
import type { Database } from '../database.js';
import { FACT, LINK } from './lineage-facts.js';

/** Which way a step follows links from its frontier: toward what an artifact came from, or what came from it. */
export type LineageWay = 'up' | 'down';

/**
 * One breadth-first step of lineage from the frontiers, as lines `way artifact predicate run reached` (run and
 * reached empty when there is none), distinct and in code point order, `limit` of them from `offset`. Up from an
 * artifact: the run that generated it with each input of that run, and what it was derived from or is a revision
 * of; down: the runs that used it with each of their outputs, and what was derived from or revises it. With
 * `asOf`, runs and reached artifacts created after it are left out (a run's other end is then empty).
 */
export function lineageStepLines(
  db: Database,
  frontiers: readonly (readonly [LineageWay, readonly string[]])[],
  limit: number,
  asOf: string | undefined,
  offset = 0,
): string[] {
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return '?';
  };
  const recorded = (column: string): string =>
    asOf === undefined
      ? '1'
      : `NOT EXISTS (SELECT 1 FROM lineage_node c WHERE c.iri = ${column} AND c.p = ${FACT.created} AND c.value > ${param(asOf)})`;
  const branches: string[] = [];
  for (const [way, frontier] of frontiers) {
    const from = (): string => `(SELECT value AS a FROM json_each(${param(JSON.stringify(frontier))})) f`;
    const line = (p: string, run: string, reached: string): string =>
      `'${way} ' || f.a || ' ${p} ' || ${run} || ' ' || ${reached}`;
    const derived = (p: 'derivedFrom' | 'revisionOf'): string =>
      way === 'up'
        ? `SELECT ${line(p, "''", 'l.o')} AS line FROM ${from()} JOIN lineage_link l ON l.s = f.a AND l.p = ${LINK[p]} WHERE ${recorded('l.o')}`
        : `SELECT ${line(p, "''", 'l.s')} AS line FROM ${from()} JOIN lineage_link l ON l.o = f.a AND l.p = ${LINK[p]} WHERE ${recorded('l.s')}`;
    if (way === 'up')
      branches.push(
        `SELECT ${line('generated', 'l.o', "coalesce(x.o, '')")} AS line FROM ${from()}
           JOIN lineage_link l ON l.s = f.a AND l.p = ${LINK.generatedBy}
           LEFT JOIN lineage_link x ON x.s = l.o AND x.p = ${LINK.used} AND ${recorded('x.o')}
           WHERE ${recorded('l.o')}`,
      );
    else
      branches.push(
        `SELECT ${line('used', 'l.s', "coalesce(x.s, '')")} AS line FROM ${from()}
           JOIN lineage_link l ON l.o = f.a AND l.p = ${LINK.used}
           LEFT JOIN lineage_link x ON x.o = l.s AND x.p = ${LINK.generatedBy} AND ${recorded('x.s')}
           WHERE ${recorded('l.s')}`,
      );
    branches.push(derived('derivedFrom'), derived('revisionOf'));
  }
  if (branches.length === 0) return [];
  const sql = `SELECT DISTINCT line FROM (${branches.join(' UNION ALL ')}) ORDER BY line LIMIT ${param(limit)} OFFSET ${param(offset)}`;
  return db
    .prepare(sql)
    .pluck()
    .all(...params) as string[];
}

/** A node lineage holds something about: its kind, the graph that says so, and its title there (or ''). */
export interface LineageNodeRow {
  readonly iri: string;
  readonly kind: 'artifact' | 'run';
  readonly graph: string;
  readonly title: string;
}

/**
 * What the records say of lineage nodes: each graph that types an artifact (of `artifacts`) or a run (of `runs`),
 * with a title from the same graph (an artifact's title, a run's label).
 */
export function lineageNodeRows(
  db: Database,
  artifacts: readonly string[],
  runs: readonly string[],
): LineageNodeRow[] {
  const rows: LineageNodeRow[] = [];
  const query = db.prepare(
    `SELECT t.iri AS iri, t.graph AS graph,
       coalesce((SELECT v.value FROM lineage_node v WHERE v.iri = t.iri AND v.graph = t.graph AND v.p = ?
         LIMIT 1), '') AS title
     FROM lineage_node t WHERE t.iri IN (SELECT value FROM json_each(?)) AND t.p = ?`,
  );
  for (const [kind, iris, type, title] of [
    ['artifact', artifacts, FACT.artifact, FACT.title],
    ['run', runs, FACT.run, FACT.label],
  ] as const) {
    if (iris.length === 0) continue;
    for (const row of query.all(title, JSON.stringify(iris), type) as {
      iri: string;
      graph: string;
      title: string;
    }[])
      rows.push({ ...row, kind });
  }
  return rows;
}

/** The datasets (artifact series) artifacts are versions of, as [artifact, series] pairs. */
export function lineageSeriesRows(db: Database, artifacts: readonly string[]): [string, string][] {
  const rows = db
    .prepare(
      `SELECT DISTINCT l.s AS artifact, l.o AS series FROM lineage_link l
       WHERE l.s IN (SELECT value FROM json_each(?)) AND l.p = ${LINK.versionOf}
         AND EXISTS (SELECT 1 FROM lineage_node s WHERE s.iri = l.o AND s.p = ${FACT.series})`,
    )
    .all(JSON.stringify(artifacts)) as { artifact: string; series: string }[];
  return rows.map((row) => [row.artifact, row.series]);
}
