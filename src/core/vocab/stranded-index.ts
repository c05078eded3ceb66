/**
 * The stranded-terms check read from the lineage index in `registry.db` and the records themselves, so that it
 * answers (after a restore, at each start) without the query index: the terms each vocabulary slot cites are
 * links, or `linksTo` facts for the slots not kept as links; the classes a term has here are read from the records
 * that hold or describe it, and the concepts peers' caches hold are facts. Each reader gives what its query gives.
 */
import { GRAPHS, RDF, SKOS } from '../ns.js';
import type { Core } from '../core.js';
import { ownerOf } from '../store/nquads.js';
import { statedAbout } from '../stored/about.js';
import { FACT, indexedAs, linksToValue, LOOKUP_FACTS, typeFactOf } from '../store/lineage/lineage-facts.js';
import { peerGraphSql } from '../store/lineage/lineage-sql.js';
import type { VocabularySlot } from '../discovery/vocabulary-rule.js';

/** An SQL statement and its parameters. */
interface Sql {
  readonly sql: string;
  readonly params: unknown[];
}

/**
 * The citations of a slot in this registry's graph as rows (s, term), of `term` alone when given; undefined when
 * the index does not keep what the slot needs (its subject's class).
 */
function citationsSql(slot: VocabularySlot, term?: string): Sql | undefined {
  const typeFact = slot.subjectType === undefined ? undefined : typeFactOf(slot.subjectType);
  if (slot.subjectType !== undefined && typeFact === undefined) return undefined;
  const typed = (s: string): string =>
    typeFact === undefined
      ? ''
      : `AND EXISTS (SELECT 1 FROM lineage_node t WHERE t.iri = ${s} AND t.graph = ? AND t.p = ${typeFact})`;
  const typedParams = typeFact === undefined ? [] : [GRAPHS.local];
  const kept = indexedAs(slot.predicate);
  if (kept !== undefined && 'link' in kept)
    return {
      sql: `SELECT l.s AS s, l.o AS term FROM lineage_link l WHERE l.p = ? AND l.graph = ?
        ${term === undefined ? '' : 'AND l.o = ?'} ${typed('l.s')}`,
      params: [kept.link, GRAPHS.local, ...(term === undefined ? [] : [term]), ...typedParams],
    };
  const split = "instr(n.value, ' ')";
  return {
    sql: `SELECT n.iri AS s, substr(n.value, 1, ${split} - 1) AS term FROM lineage_node n
      WHERE n.p = ? AND n.${LOOKUP_FACTS} AND n.graph = ?
        AND ${term === undefined ? `substr(n.value, ${split} + 1) = ?` : 'n.value = ?'} ${typed('n.iri')}`,
    params: [
      FACT.linksTo,
      GRAPHS.local,
      term === undefined ? slot.predicate : linksToValue(term, slot.predicate),
      ...typedParams,
    ],
  };
}

/** Whether the index keeps what the check of every slot reads. */
export function slotsIndexed(slots: readonly VocabularySlot[]): boolean {
  return slots.every((slot) => citationsSql(slot) !== undefined);
}

/** Every distinct IRI this registry's graph cites in a slot, in code point order. */
export function citedTermsFromIndex(core: Core, slot: VocabularySlot): string[] {
  const citations = citationsSql(slot);
  if (citations === undefined) return [];
  return core.db
    .prepare(`SELECT DISTINCT term FROM (${citations.sql}) ORDER BY term`)
    .pluck()
    .all(...citations.params) as string[];
}

/** The records of this registry's graph that cite `term` in a slot, in code point order. */
export function citingRecordsFromIndex(core: Core, slot: VocabularySlot, term: string): string[] {
  const citations = citationsSql(slot, term);
  if (citations === undefined) return [];
  const nodes = core.db
    .prepare(`SELECT DISTINCT s FROM (${citations.sql}) ORDER BY s`)
    .pluck()
    .all(...citations.params) as string[];
  return [...new Set(nodes.map(ownerOf))];
}

/**
 * The classes each term has in this registry's graph (read from the records that hold or describe it) and, of the classes
 * peers' caches give it, the one the check asks about: concept.
 */
export async function definitionsFromIndex(
  core: Core,
  terms: readonly string[],
): Promise<Map<string, { local: Set<string>; peer: Set<string> }>> {
  const found = new Map<string, { local: Set<string>; peer: Set<string> }>();
  const entry = (term: string): { local: Set<string>; peer: Set<string> } => {
    const known = found.get(term) ?? { local: new Set<string>(), peer: new Set<string>() };
    found.set(term, known);
    return known;
  };
  for (const [term, stated] of await statedAbout(core, terms, [GRAPHS.local]))
    for (const { statements } of stated)
      for (const cls of statements.get(RDF('type')) ?? []) entry(term).local.add(cls.value);
  const peers = peerGraphSql('n.graph');
  const cached = core.db
    .prepare(
      `SELECT DISTINCT n.iri FROM json_each(?) c JOIN lineage_node n ON n.iri = c.value
       WHERE n.p = ${FACT.concept} AND ${peers.sql}`,
    )
    .pluck()
    .all(JSON.stringify(terms), ...peers.params) as string[];
  for (const term of cached) entry(term).peer.add(SKOS('Concept'));
  return found;
}
