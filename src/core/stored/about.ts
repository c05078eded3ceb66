/**
 * What the records of a store state about nodes, read whole instead of asked of the query index: the record that
 * holds a node (its IRI, or the IRI before its fragment) and the records the lineage index notes as describing it
 * too (a software naming its publisher, say). Only to be used when the lineage index is complete.
 */
import type * as RDF from '@rdfjs/types';
import type { Core } from '../core.js';
import { indexQuads } from '../records/reader.js';
import { FACT } from '../store/lineage/lineage-facts.js';
import { ownerOf, parseNQuads } from '../store/nquads.js';

/** Statements about one node, by predicate. */
type Statements = Map<string, RDF.Term[]>;

/** What one graph states about a node. */
export interface StatedAbout {
  readonly graph: string;
  readonly statements: ReadonlyMap<string, readonly RDF.Term[]>;
}

/**
 * What each of `graphs` states about each node (in the order of `graphs`, a graph once per node), from the
 * records that hold or describe the nodes, read together graph by graph.
 */
export async function statedAbout(
  core: Core,
  nodes: readonly string[],
  graphs: readonly string[],
): Promise<Map<string, StatedAbout[]>> {
  const wanted = JSON.stringify([...new Set(nodes)]);
  const rows = core.db
    .prepare(
      `SELECT r.graph AS graph, r.subject AS record, n.value AS node FROM json_each(?) n
         JOIN ${core.graph.recordTables.records} r ON r.subject = n.value
           AND r.graph IN (SELECT value FROM json_each(?))
       UNION
       SELECT d.graph, d.record, d.iri FROM json_each(?) n
         JOIN lineage_node d ON d.iri = n.value AND d.p = ${FACT.describedElsewhere}
           AND d.graph IN (SELECT value FROM json_each(?))`,
    )
    .all(
      JSON.stringify([...new Set(nodes.map(ownerOf))]),
      JSON.stringify(graphs),
      wanted,
      JSON.stringify(graphs),
    ) as { graph: string; record: string; node: string }[];
  const owned = new Map<string, string[]>();
  for (const node of nodes) owned.set(ownerOf(node), [...(owned.get(ownerOf(node)) ?? []), node]);
  const stated = new Map<string, StatedAbout[]>();
  for (const graph of graphs) {
    const records = new Map<string, Set<string>>();
    for (const row of rows) {
      if (row.graph !== graph) continue;
      const about = records.get(row.record) ?? new Set<string>();
      for (const node of row.node === row.record ? (owned.get(row.node) ?? []) : [row.node]) about.add(node);
      records.set(row.record, about);
    }
    if (records.size === 0) continue;
    const merged = new Map<string, Statements>();
    for (const [record, text] of await core.graph.readRecords(graph, [...records.keys()])) {
      const index = indexQuads(parseNQuads(text));
      for (const node of records.get(record) ?? []) {
        const statements = index.get(node);
        if (statements === undefined) continue;
        const into = merged.get(node) ?? new Map<string, RDF.Term[]>();
        for (const [predicate, terms] of statements)
          into.set(predicate, [...(into.get(predicate) ?? []), ...terms]);
        merged.set(node, into);
      }
    }
    for (const [node, statements] of merged)
      stated.set(node, [...(stated.get(node) ?? []), { graph, statements }]);
  }
  return stated;
}
