/**
 * The graph view read without the query index: a step follows the links and `linksTo` facts of the lineage index
 * in `registry.db` (every statement of a record that links a node to an IRI, but `rdf:type`), and nodes are
 * described from the records that hold or describe them (this registry's and peers' caches, read whole) and from
 * the bundled terms the reference index holds. Each gives what its query gives.
 */
import { GRAPHS, RDF, REG } from '../ns.js';
import type { Core } from '../core.js';
import { statedAbout } from '../stored/about.js';
import { FACT, LINK_PREDICATE_OF, LOOKUP_FACTS } from '../store/lineage/lineage-facts.js';

/** What was found about a node, graph by graph: types, titles by predicate, withdrawal. */
export interface Described {
  readonly types: Set<string>;
  readonly titles: Map<string, string>;
  graph?: string;
  tombstoned: boolean;
}

/**
 * One breadth-first step from the lineage index: the statements of this registry's graph from or to the frontier
 * whose other end is an IRI, as lines `way node predicate other` split by spaces, distinct, in code point order,
 * at most `limit`.
 */
export function graphStepFromIndex(core: Core, frontier: readonly string[], limit: number): string[][] {
  const predicate = `CASE l.p ${[...LINK_PREDICATE_OF].map(([code, iri]) => `WHEN ${code} THEN '${iri}'`).join(' ')} END`;
  const split = "instr(n.value, ' ')";
  const nodes = '(SELECT value AS a FROM json_each(?)) f';
  const rows = core.db
    .prepare(
      `SELECT DISTINCT line FROM (
         SELECT 'out ' || f.a || ' ' || ${predicate} || ' ' || l.o AS line FROM ${nodes}
           JOIN lineage_link l ON l.s = f.a AND l.graph = ?
         UNION ALL
         SELECT 'in ' || f.a || ' ' || ${predicate} || ' ' || l.s FROM ${nodes}
           JOIN lineage_link l ON l.o = f.a AND l.graph = ?
         UNION ALL
         SELECT 'out ' || f.a || ' ' || substr(n.value, ${split} + 1) || ' ' || substr(n.value, 1, ${split} - 1)
           FROM ${nodes} JOIN lineage_node n ON n.iri = f.a AND n.p = ? AND n.graph = ?
         UNION ALL
         SELECT 'in ' || f.a || ' ' || substr(n.value, ${split} + 1) || ' ' || n.iri FROM ${nodes}
           JOIN lineage_node n ON n.p = ? AND n.${LOOKUP_FACTS} AND n.value > f.a || ' ' AND n.value < f.a || '!'
             AND n.graph = ?
       ) ORDER BY line LIMIT ?`,
    )
    .pluck()
    .all(
      ...[JSON.stringify(frontier), GRAPHS.local],
      ...[JSON.stringify(frontier), GRAPHS.local],
      ...[JSON.stringify(frontier), FACT.linksTo, GRAPHS.local],
      ...[JSON.stringify(frontier), FACT.linksTo, GRAPHS.local],
      limit,
    ) as string[];
  return rows.map((line) => line.split(' '));
}

/**
 * Describes nodes from the records that hold them (this registry's graph first, then peers' caches, as the store
 * lists them) and from the bundled terms: types, the titles of `titles`, withdrawal, and the graph that says so
 * (this registry's own wins).
 */
export async function describeFromRecords(
  core: Core,
  iris: readonly string[],
  titles: readonly string[],
): Promise<Map<string, Described>> {
  const found = new Map<string, Described>();
  const node = (iri: string): Described => {
    const known = found.get(iri) ?? {
      types: new Set<string>(),
      titles: new Map<string, string>(),
      tombstoned: false,
    };
    found.set(iri, known);
    return known;
  };
  const graphs = core.graph
    .recordGraphs()
    .sort((a, b) => Number(b === GRAPHS.local) - Number(a === GRAPHS.local));
  for (const [iri, stated] of await statedAbout(core, iris, graphs)) {
    for (const { graph, statements } of stated) {
      const types = statements.get(RDF('type')) ?? [];
      const named = titles.flatMap((predicate) => {
        const value = statements.get(predicate)?.[0]?.value;
        return value === undefined ? [] : [[predicate, value] as const];
      });
      const withdrawn = (statements.get(REG('tombstoned')) ?? []).some((term) => term.value === 'true');
      if (types.length === 0 && named.length === 0 && !withdrawn) continue;
      const described = node(iri);
      described.graph ??= graph;
      for (const type of types) described.types.add(type.value);
      for (const [predicate, value] of named)
        if (!described.titles.has(predicate) || graph === GRAPHS.local)
          described.titles.set(predicate, value);
      if (withdrawn) described.tombstoned = true;
    }
  }
  for (const iri of iris) {
    const term = core.reference.index.get(iri);
    if (term === undefined || (term.classes.length === 0 && term.labels.size === 0)) continue;
    const described = node(iri);
    described.graph ??= term.graph;
    for (const type of term.classes) described.types.add(type);
    for (const [predicate, value] of term.labels)
      if (!described.titles.has(predicate) && titles.includes(predicate))
        described.titles.set(predicate, value);
  }
  return found;
}
