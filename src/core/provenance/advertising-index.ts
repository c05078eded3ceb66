/**
 * The rows that make advertising idempotent, rebuilt from the lineage index in `registry.db` (runs' and artifacts'
 * keys under either predicate, their deployments, generated-by and used links), so that a restore rebuilds them
 * without the query index. The same rows as the queries of `advertising-keys.ts` give.
 */
import type { Core } from '../core.js';
import { GRAPHS, REG } from '../ns.js';
import type { AdvertisingRows } from '../store/advertising.js';
import { FACT, LINK } from '../store/lineage-index.js';

const KEYS = `${FACT.externalKey}, ${FACT.legacyKey}`;

/** The first key stated of the node in `iri` in this registry's graph. */
const keyOf = (iri: string): string =>
  `(SELECT k.value FROM lineage_node k WHERE k.iri = ${iri} AND k.graph = t.graph AND k.p IN (${KEYS})
    ORDER BY k.rowid LIMIT 1)`;

/** Whether the node in `iri` is typed as `fact` in this registry's graph. */
const typed = (iri: string, fact: number): string =>
  `EXISTS (SELECT 1 FROM lineage_node w WHERE w.iri = ${iri} AND w.graph = ? AND w.p = ${fact})`;

/** The advertising rows the records of this registry's graph carry. */
export function advertisingRowsFromIndex(core: Core): AdvertisingRows {
  const local = GRAPHS.local;
  const runKeys = core.db
    .prepare(
      `SELECT run, key, instance FROM (SELECT t.iri AS run, ${keyOf('t.iri')} AS key,
         (SELECT i FROM (
            SELECT a.o AS i, a.rowid AS at FROM lineage_link a
              WHERE a.s = t.iri AND a.graph = t.graph AND a.p = ${LINK.associatedWith}
            UNION ALL
            SELECT substr(n.value, 1, instr(n.value, ' ') - 1), n.rowid FROM lineage_node n
              WHERE n.iri = t.iri AND n.graph = t.graph AND n.p = ${FACT.linksTo}
                AND substr(n.value, instr(n.value, ' ') + 1) = ?)
          ORDER BY at LIMIT 1) AS instance
       FROM (SELECT DISTINCT iri, graph FROM lineage_node WHERE p = ${FACT.run} AND graph = ?) t)
       WHERE key IS NOT NULL AND instance IS NOT NULL ORDER BY run`,
    )
    .all(REG('atInstance'), local) as { run: string; key: string; instance: string }[];
  const artifactKeys = core.db
    .prepare(
      `SELECT artifact, key, instance FROM (SELECT t.iri AS artifact, ${keyOf('t.iri')} AS key,
         (SELECT a.o FROM lineage_link a WHERE a.s = t.iri AND a.graph = t.graph AND a.p = ${LINK.attributedTo}
            AND ${typed('a.o', FACT.deployment)} ORDER BY a.rowid LIMIT 1) AS instance
       FROM (SELECT DISTINCT iri, graph FROM lineage_node WHERE p = ${FACT.artifact} AND graph = ?) t)
       WHERE key IS NOT NULL AND instance IS NOT NULL ORDER BY artifact`,
    )
    .all(local, local) as { artifact: string; key: string; instance: string }[];
  const pairs = (link: number, run: 's' | 'o'): { run: string; artifact: string }[] =>
    core.db
      .prepare(
        `SELECT DISTINCT l.${run} AS run, l.${run === 's' ? 'o' : 's'} AS artifact FROM lineage_link l
         WHERE l.p = ${link} AND l.graph = ? AND ${typed(`l.${run}`, FACT.run)} ORDER BY run, artifact`,
      )
      .all(local, local) as { run: string; artifact: string }[];
  return {
    runKeys,
    artifactKeys,
    claims: [
      ...pairs(LINK.generatedBy, 'o').map((pair) => ({ ...pair, role: 'produced' as const })),
      ...pairs(LINK.used, 's').map((pair) => ({ ...pair, role: 'consumed' as const })),
    ],
  };
}
