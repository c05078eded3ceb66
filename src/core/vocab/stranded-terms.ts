/**
 * Records that cite a vocabulary term the registry no longer holds as citable: retired (owl:deprecated), gone
 * (in no bundle, not minted or adopted here, not cached from a peer, as after a shapes or vocabulary change
 * dropped it or a restore brought in records from elsewhere), or now of a class the field does not accept.
 * Such a record stays readable and is refused on its next edit until the term is replaced or cleared; nothing is
 * changed here. The check reads the distinct terms of each vocabulary slot (a handful of paged queries whatever
 * the number of records), judges them against the in-memory reference index, and only then asks which records
 * cite the few terms found wanting.
 */
import { GRAPHS, PEER_GRAPH_PREFIX, RDF, SKOS } from '../ns.js';
import { ownerOf } from '../store/nquads.js';
import type { Core } from '../core.js';
import { selectByKey } from '../stored/keyset.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import {
  citedTermsFromIndex,
  citingRecordsFromIndex,
  definitionsFromIndex,
  slotsIndexed,
} from './stranded-index.js';
import { VOCABULARY_SLOTS, type VocabularySlot } from '../discovery/vocabulary-rule.js';

/** Why a cited term no longer counts as held. */
export type StrandedReason = 'retired' | 'unknown' | 'wrong-class';

/** One record citing one term it could not be saved with today. */
export interface StrandedCitation {
  readonly record: string;
  readonly term: string;
  /** The JSON fields that cite it, as an edit's refusal would name them. */
  readonly fields: readonly string[];
  readonly reason: StrandedReason;
  /** Terms that replace a retired one, when the vocabulary says. */
  readonly replacedBy: readonly string[];
}

/** A cited term found wanting, in one slot. */
interface WantingTerm {
  readonly slot: VocabularySlot;
  readonly term: string;
  readonly reason: StrandedReason;
  readonly replacedBy: readonly string[];
}

/** Terms whose definitions are looked up per query. */
const LOOKUP_BATCH = 200;

/** The pattern binding `?s` to records citing `term` (a variable or an IRI) in a slot. */
function citing(slot: VocabularySlot, term: string): string {
  const typed = slot.subjectType === undefined ? '' : ` ?s a <${slot.subjectType}> .`;
  return `?s <${slot.predicate}> ${term} .${typed}`;
}

/** Every distinct IRI the local graph cites in a slot. */
async function citedTerms(core: Core, slot: VocabularySlot, indexed: boolean): Promise<string[]> {
  if (indexed) return citedTermsFromIndex(core, slot);
  const rows = await selectByKey(
    core,
    'term',
    ({ after, order }) =>
      // Grouping before ordering sorts the few distinct terms, not every citation (several times faster).
      `SELECT ?term WHERE { GRAPH <${GRAPHS.local}> { ${citing(slot, '?term')} } FILTER(isIRI(?term)) ${after} } GROUP BY ?term ${order}`,
  );
  return rows.flatMap((row) => (row.term === undefined ? [] : [row.term.value]));
}

/** The classes each term has in the local graph and in peers' graphs, for terms the bundles do not hold. */
async function definitions(
  core: Core,
  terms: readonly string[],
  indexed: boolean,
): Promise<Map<string, { local: Set<string>; peer: Set<string> }>> {
  if (indexed) return definitionsFromIndex(core, terms);
  const found = new Map<string, { local: Set<string>; peer: Set<string> }>();
  for (let start = 0; start < terms.length; start += LOOKUP_BATCH) {
    const values = terms
      .slice(start, start + LOOKUP_BATCH)
      .map((term) => `<${term}>`)
      .join(' ');
    const rows = await core.graph.select(
      `SELECT DISTINCT ?term ?g ?cls WHERE { GRAPH ?g { VALUES ?term { ${values} } ?term <${RDF('type')}> ?cls }
         FILTER(?g = <${GRAPHS.local}> || STRSTARTS(STR(?g), "${PEER_GRAPH_PREFIX}")) }`,
    );
    for (const row of rows) {
      const [term, graph, cls] = [row.term?.value, row.g?.value, row.cls?.value];
      if (term === undefined || graph === undefined || cls === undefined) continue;
      const entry = found.get(term) ?? { local: new Set<string>(), peer: new Set<string>() };
      (graph === GRAPHS.local ? entry.local : entry.peer).add(cls);
      found.set(term, entry);
    }
  }
  return found;
}

/** The cited terms of every slot that an edit would refuse, judged as the vocabulary rule judges them. */
async function wantingTerms(core: Core, indexed: boolean): Promise<WantingTerm[]> {
  const wanting: WantingTerm[] = [];
  const unbundled: { slot: VocabularySlot; term: string }[] = [];
  for (const slot of VOCABULARY_SLOTS) {
    // Each slot's citations are one read of the whole index (about 0.2 s per million quads for the largest):
    // requests are served between them, as this check runs while the registry serves (at start, after a restore).
    await new Promise((resolve) => setImmediate(resolve));
    for (const term of await citedTerms(core, slot, indexed)) {
      const found = core.reference.index.check(term, slot.accepted);
      if (found.verdict === 'unknown') unbundled.push({ slot, term });
      else if (found.verdict !== 'held')
        wanting.push({ slot, term, reason: found.verdict, replacedBy: found.term.replacedBy });
    }
  }
  const defined = await definitions(core, [...new Set(unbundled.map((entry) => entry.term))], indexed);
  for (const { slot, term } of unbundled) {
    const classes = defined.get(term);
    const local = [...(classes?.local ?? [])];
    if (local.length > 0) {
      if (!local.some((cls) => slot.accepted.includes(cls)))
        wanting.push({ slot, term, reason: 'wrong-class', replacedBy: [] });
      continue;
    }
    if (slot.peerConcepts && classes?.peer.has(SKOS('Concept')) === true) continue;
    wanting.push({ slot, term, reason: 'unknown', replacedBy: [] });
  }
  return wanting;
}

/** The records of the local graph citing `term` in a slot. */
async function citingRecords(
  core: Core,
  slot: VocabularySlot,
  term: string,
  indexed: boolean,
): Promise<string[]> {
  if (indexed) return citingRecordsFromIndex(core, slot, term);
  const rows = await selectByKey(
    core,
    's',
    ({ after, order }) =>
      `SELECT ?s WHERE { GRAPH <${GRAPHS.local}> { ${citing(slot, `<${term}>`)} } ${after} } GROUP BY ?s ${order}`,
  );
  return rows.flatMap((row) => (row.s === undefined ? [] : [ownerOf(row.s.value)]));
}

/**
 * Every local record citing a term an edit would refuse, once per record and term (with every field that cites
 * it), in record then term order. Read from the lineage index when it is complete (a fill under way, after a
 * restore or an upgrade, is waited for), else from the query index.
 */
export async function findStrandedCitations(core: Core): Promise<StrandedCitation[]> {
  if (!lineageIndexReady(core.db)) await core.graph.lineageFilled();
  const indexed = lineageIndexReady(core.db) && slotsIndexed(VOCABULARY_SLOTS);
  const byKey = new Map<string, StrandedCitation & { fields: string[] }>();
  for (const { slot, term, reason, replacedBy } of await wantingTerms(core, indexed)) {
    for (const record of await citingRecords(core, slot, term, indexed)) {
      const key = `${record} ${term}`;
      const entry = byKey.get(key) ?? { record, term, fields: [], reason, replacedBy };
      if (!entry.fields.includes(slot.field)) entry.fields.push(slot.field);
      byKey.set(key, entry);
    }
  }
  return [...byKey.values()].sort((a, b) =>
    a.record === b.record ? compare(a.term, b.term) : compare(a.record, b.record),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
