/**
 * In-memory index of the terms the bundles hold. It answers the write-path question "is this IRI a term we
 * hold, of the right class, and is it still current" without a store round trip, which matters most when the
 * record store is a remote SPARQL endpoint.
 */
import { DCT, OWL, RDF, RDFS, SKOS } from '../ns.js';
import type { Bundle } from './bundles.js';
import { unescapeNTriples } from './ntriples.js';

/** What the bundles say about one IRI. */
export interface HeldTerm {
  readonly iri: string;
  /** Bundle graph that holds the term. */
  readonly graph: string;
  /** Every rdf:type of the term, sorted (for concepts: skos:Concept plus reg:ArtifactType, reg:ResearchTopic, ...). */
  readonly classes: readonly string[];
  /** Preferred label: skos:prefLabel, else rdfs:label; English preferred when several languages exist. */
  readonly label?: string;
  /** The label of each labelling predicate the term has (rdfs:label, skos:prefLabel), English preferred. */
  readonly labels: ReadonlyMap<string, string>;
  /** True when the term is flagged owl:deprecated (a retired term). */
  readonly retired: boolean;
  /** Terms that replace a retired term (dct:isReplacedBy), sorted. */
  readonly replacedBy: readonly string[];
  /** Terms to consider instead (rdfs:seeAlso), sorted. */
  readonly seeAlso: readonly string[];
}

/** Outcome of checking an IRI against the classes a slot accepts. */
export type TermVerdict =
  | { readonly verdict: 'held'; readonly term: HeldTerm }
  | { readonly verdict: 'retired'; readonly term: HeldTerm }
  | { readonly verdict: 'wrong-class'; readonly term: HeldTerm }
  | { readonly verdict: 'unknown' };

const P_TYPE = RDF('type');
const P_PREF = SKOS('prefLabel');
const P_LABEL = RDFS('label');
const P_DEPRECATED = OWL('deprecated');
const P_REPLACED = DCT('isReplacedBy');
const P_SEE_ALSO = RDFS('seeAlso');
const WANTED = new Set([P_TYPE, P_PREF, P_LABEL, P_DEPRECATED, P_REPLACED, P_SEE_ALSO]);

interface Draft {
  graph: string;
  classes: Set<string>;
  labels: { predicate: string; value: string; lang: string }[];
  retired: boolean;
  replacedBy: Set<string>;
  seeAlso: Set<string>;
}

/** Lookup table of held terms, built once from the bundles (the shapes bundle is skipped: shapes are not terms). */
export class ReferenceIndex {
  readonly #terms: ReadonlyMap<string, HeldTerm>;
  readonly #retired: readonly HeldTerm[];

  private constructor(terms: Map<string, HeldTerm>) {
    this.#terms = terms;
    this.#retired = [...terms.values()].filter((term) => term.retired).sort((a, b) => compare(a.iri, b.iri));
  }

  /** Builds the index from bundle N-Triples as produced by `buildBundles`. */
  static fromBundles(bundles: readonly Bundle[]): ReferenceIndex {
    const drafts = new Map<string, Draft>();
    for (const bundle of bundles) {
      if (bundle.name === 'shapes') continue;
      for (const line of bundle.ntriples.split('\n')) readLine(line, bundle.graph, drafts);
    }
    const terms = new Map<string, HeldTerm>();
    for (const [iri, draft] of drafts) terms.set(iri, freeze(iri, draft));
    return new ReferenceIndex(terms);
  }

  /** Number of IRIs the index knows. */
  get size(): number {
    return this.#terms.size;
  }

  /** Returns what the bundles hold about an IRI, or undefined when they hold nothing. */
  get(iri: string): HeldTerm | undefined {
    return this.#terms.get(iri);
  }

  /** True when the IRI is held with the given class (retired or not). */
  hasClass(iri: string, classIri: string): boolean {
    return this.#terms.get(iri)?.classes.includes(classIri) ?? false;
  }

  /** Checks an IRI for a slot that accepts any of `acceptedClasses`: held, retired, of the wrong class, or unknown. */
  check(iri: string, acceptedClasses: readonly string[]): TermVerdict {
    const term = this.#terms.get(iri);
    if (term === undefined) return { verdict: 'unknown' };
    if (!term.classes.some((cls) => acceptedClasses.includes(cls))) return { verdict: 'wrong-class', term };
    return term.retired ? { verdict: 'retired', term } : { verdict: 'held', term };
  }

  /** Every retired (owl:deprecated) term, sorted by IRI. */
  retiredTerms(): readonly HeldTerm[] {
    return this.#retired;
  }

  /** Every held term carrying the given class, optionally leaving retired ones out, in IRI order. */
  termsOfClass(classIri: string, { includeRetired = true }: { includeRetired?: boolean } = {}): HeldTerm[] {
    const found: HeldTerm[] = [];
    for (const term of this.#terms.values()) {
      if (term.classes.includes(classIri) && (includeRetired || !term.retired)) found.push(term);
    }
    return found.sort((a, b) => compare(a.iri, b.iri));
  }
}

// Bundles are canonical N-Triples written by ./ntriples.ts, so a line is `<s> <p> object .` with IRI subjects
// for every term we index; blank-node subjects (structure, not terms) are skipped.
function readLine(line: string, graph: string, drafts: Map<string, Draft>): void {
  if (!line.startsWith('<')) return;
  const subjectEnd = line.indexOf('> <');
  if (subjectEnd < 0) return;
  const predicateEnd = line.indexOf('> ', subjectEnd + 3);
  if (predicateEnd < 0) return;
  const predicate = line.slice(subjectEnd + 3, predicateEnd);
  if (!WANTED.has(predicate)) return;
  const subject = unescapeNTriples(line.slice(1, subjectEnd));
  const object = line.slice(predicateEnd + 2, line.length - 2);
  let draft = drafts.get(subject);
  if (draft === undefined) {
    draft = { graph, classes: new Set(), labels: [], retired: false, replacedBy: new Set(), seeAlso: new Set() };
    drafts.set(subject, draft);
  }
  if (predicate === P_PREF || predicate === P_LABEL) {
    const literal = parseLiteral(object);
    if (literal !== undefined) draft.labels.push({ predicate, ...literal });
    return;
  }
  if (predicate === P_DEPRECATED) {
    draft.retired ||= parseLiteral(object)?.value === 'true';
    return;
  }
  if (!object.startsWith('<')) return;
  const iri = unescapeNTriples(object.slice(1, -1));
  if (predicate === P_TYPE) draft.classes.add(iri);
  else if (predicate === P_REPLACED) draft.replacedBy.add(iri);
  else draft.seeAlso.add(iri);
}

const NO_LABELS: ReadonlyMap<string, string> = new Map();

function freeze(iri: string, draft: Draft): HeldTerm {
  const label = pickLabel(draft.labels);
  const labels = new Map<string, string>();
  for (const predicate of [P_LABEL, P_PREF]) {
    const picked = pickLabel(draft.labels.filter((candidate) => candidate.predicate === predicate));
    if (picked !== undefined) labels.set(predicate, picked);
  }
  return Object.freeze({
    iri,
    graph: draft.graph,
    classes: Object.freeze([...draft.classes].sort(compare)),
    ...(label === undefined ? {} : { label }),
    labels: labels.size === 0 ? NO_LABELS : labels,
    retired: draft.retired,
    replacedBy: Object.freeze([...draft.replacedBy].sort(compare)),
    seeAlso: Object.freeze([...draft.seeAlso].sort(compare)),
  });
}

function pickLabel(labels: Draft['labels']): string | undefined {
  const rank = (l: Draft['labels'][number]): number =>
    (l.predicate === P_PREF ? 0 : 2) + (l.lang === 'en' || l.lang === '' ? 0 : 1);
  let best: Draft['labels'][number] | undefined;
  for (const label of labels) {
    if (best === undefined || rank(label) < rank(best) || (rank(label) === rank(best) && label.value < best.value)) {
      best = label;
    }
  }
  return best?.value;
}

function parseLiteral(object: string): { value: string; lang: string } | undefined {
  if (!object.startsWith('"')) return undefined;
  const close = object.lastIndexOf('"');
  if (close <= 0) return undefined;
  const suffix = object.slice(close + 1);
  return { value: unescapeNTriples(object.slice(1, close)), lang: suffix.startsWith('@') ? suffix.slice(1) : '' };
}


function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
