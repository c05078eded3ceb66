/**
 * What the registry keeps of a record fetched from a peer: a stub of the record node and the sub-resources it
 * owns (`<record>#…`), with statements in the model's namespaces only, placed in the peer's own named graph. A
 * peer can therefore say nothing about IRIs that are not its own records, and nothing in vocabularies the
 * registry does not read.
 */
import N3 from 'n3';
import { OWL, PEER_GRAPH_PREFIX, PREFIXES, RDF, REG } from '../ns.js';
import { isRfc3987Iri } from '../records/iri.js';
import { kindOfTypes } from '../records/kinds.js';
import { factory, type Quad } from '../store/nquads.js';
import { PeerRequestError } from './peer-http.js';

/** The Accept header of a record fetch: the RDF forms a registry serves, quads first. */
export const RECORD_ACCEPT = 'application/n-quads, application/n-triples;q=0.9, text/turtle;q=0.8';

/** A stub larger than this many statements is refused as not a record. */
const MAX_STUB_QUADS = 5000;

/** Namespaces whose statements a stub keeps (the registry's model); from OWL only `owl:sameAs`. */
const MODEL_NAMESPACES: readonly string[] = [
  PREFIXES.rdf,
  PREFIXES.rdfs,
  PREFIXES.dct,
  PREFIXES.dcat,
  PREFIXES.prov,
  PREFIXES.schema,
  PREFIXES.skos,
  PREFIXES.spdx,
  PREFIXES.codemeta,
  PREFIXES.foaf,
  PREFIXES.reg,
];
const SAME_AS = OWL('sameAs');

/** A stub ready to commit: its quads in the peer graph and the record kind they describe. */
export interface Stub {
  readonly quads: Quad[];
  readonly kind: string;
}

/** The RDF syntax of a content type, or undefined for one the registry does not read. */
function syntaxOf(contentType: string): string | undefined {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/n-quads') return 'N-Quads';
  if (type === 'application/n-triples' || type === 'text/plain') return 'N-Triples';
  if (type === 'text/turtle' || type === 'application/x-turtle') return 'Turtle';
  return undefined;
}

/** Parses a fetched record document; a PeerRequestError (`garbage`) when it is not RDF the registry reads. */
export function parseRecordDocument(body: string, contentType: string, documentIri: string): Quad[] {
  const format = syntaxOf(contentType);
  if (format === undefined)
    throw new PeerRequestError(
      'garbage',
      `answered ${contentType === '' ? 'without a media type' : contentType}, not N-Quads, N-Triples or Turtle`,
    );
  try {
    return new N3.Parser({ format, baseIRI: documentIri }).parse(body);
  } catch (error) {
    throw new PeerRequestError(
      'garbage',
      `answered ${format} that does not parse: ${(error as Error).message}`,
    );
  }
}

/** Whether the index can hold a statement: every IRI in it an IRI by RFC 3987, every literal text. */
function storable(quad: Quad): boolean {
  return [quad.subject, quad.predicate, quad.object].every((term) =>
    term.termType === 'Literal'
      ? !/\p{Cs}/u.test(term.value) && isRfc3987Iri(term.datatype.value)
      : term.termType !== 'NamedNode' || isRfc3987Iri(term.value),
  );
}

const inModel = (predicate: string): boolean =>
  predicate === SAME_AS || MODEL_NAMESPACES.some((ns) => predicate.startsWith(ns));

/**
 * The stub of `record` in `graph`: statements whose subject is the record or one of its fragments, in the model's
 * namespaces, without blank nodes (their labels mean nothing outside the document). Empty when the document says
 * nothing about the record.
 */
export function stubOf(record: string, quads: readonly Quad[], graph: string): Stub {
  const target = factory.namedNode(graph);
  const kept: Quad[] = [];
  for (const quad of quads) {
    const subject = quad.subject.value;
    if (quad.subject.termType !== 'NamedNode' || (subject !== record && !subject.startsWith(`${record}#`)))
      continue;
    if (quad.object.termType === 'BlankNode' || !inModel(quad.predicate.value)) continue;
    // A peer's text is held to the rules of the registry's own: the query index refuses what is not an IRI.
    if (!storable(quad)) continue;
    kept.push(factory.quad(quad.subject, quad.predicate, quad.object, target));
  }
  if (kept.length > MAX_STUB_QUADS)
    throw new PeerRequestError('garbage', `answered ${kept.length} statements about one record`);
  const types = kept
    .filter((quad) => quad.subject.value === record && quad.predicate.value === RDF('type'))
    .map((quad) => quad.object.value);
  // Counted per peer like any record, whatever it is; `record` when none of its classes is a record class.
  const kind = kindOfTypes(types) ?? 'record';
  const withdrawn = kept.some(
    (quad) =>
      quad.subject.value === record &&
      quad.predicate.value === REG('tombstoned') &&
      quad.object.value === 'true',
  );
  return { quads: kept, kind: withdrawn ? `${kind}:withdrawn` : kind };
}

/** Whether a graph name is a peer's cache graph. */
export function isPeerGraph(graph: string): boolean {
  return graph.startsWith(PEER_GRAPH_PREFIX);
}
