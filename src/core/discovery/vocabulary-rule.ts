import type { Quad } from '../store/nquads.js';
import { DCAT, DCT, GRAPHS, PEER_GRAPH_PREFIX, RDF, REG, SH, SKOS, SPDX } from '../ns.js';
import type { ValidationResult } from '../validate/index.js';
import type { Core } from '../core.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { FACT } from '../store/lineage/lineage-facts.js';
import { peerGraphSql } from '../store/lineage/lineage-sql.js';

/** A slot whose IRIs must be terms the registry holds, of one of the accepted classes. */
export interface VocabularySlot {
  readonly predicate: string;
  /** The JSON field named in a refusal. */
  readonly field: string;
  readonly accepted: readonly string[];
  /** Only quads whose subject carries this type are held to the rule (e.g. conforms_to on the artifact node). */
  readonly subjectType?: string;
  /** Concepts cached from a peer are accepted in this slot (a peer is authoritative for its own types). */
  readonly peerConcepts: boolean;
  readonly unknown: (iri: string) => string;
  readonly wrongClass: (iri: string) => string;
}

const typeUnknown = (field: string) => (iri: string) =>
  `${field}: <${iri}> is not an artifact type this registry knows. First search for one: GET /api/v1/vocab/search?branch=data&q=…; ` +
  'if the type exists elsewhere, adopt it with POST /api/v1/types, sending that `iri`; otherwise mint one with POST /api/v1/types without an `iri`.';
const typeWrong = (field: string) => (iri: string) =>
  `${field}: <${iri}> names a subject area or another kind of term rather than a kind of data, so it cannot be what an artifact is.`;

/** The slots the vocabulary rule holds to terms, each with the JSON field a refusal names. */
export const VOCABULARY_SLOTS: readonly VocabularySlot[] = [
  {
    predicate: DCT('subject'),
    field: 'topics',
    accepted: [REG('ResearchTopic')],
    peerConcepts: false,
    unknown: (iri) =>
      `topics: <${iri}> is not a research topic this registry knows. Either search for one with GET /api/v1/vocab/search?branch=topic&q=… or leave the field out.`,
    wrongClass: (iri) =>
      `topics: <${iri}> is a term, but not one this registry classifies software by; search with GET /api/v1/vocab/search?branch=topic&q=….`,
  },
  {
    predicate: REG('produces'),
    field: 'capability.produces',
    accepted: [REG('ArtifactType')],
    peerConcepts: true,
    unknown: typeUnknown('capability.produces'),
    wrongClass: typeWrong('capability.produces'),
  },
  {
    predicate: REG('consumes'),
    field: 'capability.consumes',
    accepted: [REG('ArtifactType')],
    peerConcepts: true,
    unknown: typeUnknown('capability.consumes'),
    wrongClass: typeWrong('capability.consumes'),
  },
  {
    predicate: DCT('conformsTo'),
    field: 'conforms_to',
    subjectType: DCAT('Dataset'),
    accepted: [REG('ArtifactType')],
    peerConcepts: true,
    unknown: typeUnknown('conforms_to'),
    wrongClass: typeWrong('conforms_to'),
  },
  {
    predicate: DCT('license'),
    field: 'license',
    accepted: [SPDX('ListedLicense'), DCT('LicenseDocument')],
    peerConcepts: false,
    unknown: (iri) =>
      `license: <${iri}> is not a licence this registry knows. Use an SPDX licence IRI such as https://spdx.org/licenses/Apache-2.0 ` +
      '(search with GET /api/v1/vocab/search?branch=license&q=…), or adopt this one with POST /api/v1/licenses.',
    wrongClass: (iri) => `license: <${iri}> is a term, but not a licence.`,
  },
];

const RDF_TYPE = RDF('type');

/**
 * Applies the vocabulary rule to a candidate record: every IRI in a type, topic or licence slot must be a term
 * the registry holds (bundled, minted, adopted, or for types cached from a peer), of a class the slot accepts,
 * and not retired. Returns one violation per offending IRI, in the validator's result form.
 */
export async function checkVocabulary(
  core: Core,
  quads: readonly Quad[],
  locate: ReadonlyMap<string, string>,
): Promise<ValidationResult[]> {
  const typed = new Map<string, Set<string>>();
  for (const quad of quads) {
    if (quad.predicate.value !== RDF_TYPE) continue;
    const types = typed.get(quad.subject.value) ?? new Set<string>();
    types.add(quad.object.value);
    typed.set(quad.subject.value, types);
  }
  const results: ValidationResult[] = [];
  const seen = new Set<string>();
  for (const quad of quads) {
    const slot = VOCABULARY_SLOTS.find((candidate) => candidate.predicate === quad.predicate.value);
    if (slot === undefined || quad.object.termType !== 'NamedNode') continue;
    if (slot.subjectType !== undefined && typed.get(quad.subject.value)?.has(slot.subjectType) !== true)
      continue;
    const iri = quad.object.value;
    const key = `${slot.field} ${iri}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const message = await verdict(core, slot, iri, typed);
    if (message === undefined) continue;
    const location = locate.get(quad.subject.value);
    const field =
      location === undefined
        ? slot.field
        : `${location}.${slot.field.slice(slot.field.lastIndexOf('.') + 1)}`;
    results.push({
      severity: 'violation',
      field,
      message: location === undefined ? message : message.replace(`${slot.field}:`, `${field}:`),
      focusNode: quad.subject.value,
      path: slot.predicate,
      value: iri,
      valueType: 'iri',
      component: SH('ClassConstraintComponent'),
    });
  }
  return results;
}

async function verdict(
  core: Core,
  slot: VocabularySlot,
  iri: string,
  typed: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<string | undefined> {
  const found = core.reference.index.check(iri, slot.accepted);
  switch (found.verdict) {
    case 'held':
      return undefined;
    case 'retired': {
      const next = [...found.term.replacedBy, ...found.term.seeAlso];
      return `${slot.field}: <${iri}> is a retired term${next.length > 0 ? `; use ${next.map((t) => `<${t}>`).join(' or ')} instead` : ''}; replace it or clear the field.`;
    }
    case 'wrong-class':
      return slot.wrongClass(iri);
    case 'unknown':
      break;
  }
  // Not bundled: a term minted or adopted here (a record of the local graph), or for types one cached from a peer.
  const local = await core.graph.readRecord(GRAPHS.local, iri);
  if (local !== undefined) {
    const classes = slot.accepted.map((cls) => `<${iri}> <${RDF_TYPE}> <${cls}>`);
    return classes.some((line) => local.includes(line)) ? undefined : slot.wrongClass(iri);
  }
  // The candidate itself may define the term (a type minted in the same write); looked up, not scanned, so a
  // record citing many terms is checked in time linear in their number.
  if (slot.accepted.some((cls) => typed.get(iri)?.has(cls) === true)) return undefined;
  if (slot.peerConcepts && (await cachedConcept(core, iri))) return undefined;
  return slot.unknown(iri);
}

/**
 * Whether a peer's cache holds `iri` as a concept: from the lineage index when it is complete (so the query index
 * is not loaded for it), else from the query index once it answers (until then the term is not known to be held).
 * An index that cannot be read is no evidence against the term.
 */
async function cachedConcept(core: Core, iri: string): Promise<boolean> {
  if (lineageIndexReady(core.db)) {
    const peers = peerGraphSql('n.graph');
    return (
      core.db
        .prepare(
          `SELECT 1 FROM lineage_node n WHERE n.iri = ? AND n.p = ${FACT.concept} AND ${peers.sql} LIMIT 1`,
        )
        .get(iri, ...peers.params) !== undefined
    );
  }
  if (!core.graph.ready) return false;
  try {
    return await core.graph.ask(
      `ASK { GRAPH ?g { <${iri}> a <${SKOS('Concept')}> } FILTER(STRSTARTS(STR(?g), "${PEER_GRAPH_PREFIX}")) }`,
    );
  } catch {
    return true;
  }
}
