/**
 * RDF representations of one record, built from its stored quads (the record node and the owned fragment
 * nodes and agents it wrote): Turtle with absolute prefix declarations, JSON-LD with an inline context, and
 * N-Quads in the record's named graph.
 */
import type * as RDF from '@rdfjs/types';
import { Writer } from 'n3';
import { NotFoundError } from '../errors.js';
import { GRAPHS, PREFIXES, RDF as RDF_NS, XSD } from '../ns.js';
import type { Json, JsonObject } from '../records/mapper.js';
import { serialiseGraph } from '../store/graph/graph-formats.js';
import { canonicalText, factory, parseNQuads, quadToLine, type Quad } from '../store/nquads.js';
import type { Core } from '../core.js';
import { versionOf } from '../stored/record-version.js';
import { DEREFERENCEABLE, type RecordKind } from '../records/kind-registry.js';

/** Record kinds whose IRIs dereference. */
export type { RecordKind };

/** Where each dereferenceable kind is minted, the class that marks it, and the API list it belongs to. */
export const RECORD_KINDS: Readonly<
  Record<RecordKind, { readonly segment: string; readonly cls: string; readonly listing: string }>
> = Object.fromEntries(
  [...DEREFERENCEABLE].map(([kind, declared]) => [
    kind,
    { segment: declared.segment, cls: declared.marker, listing: declared.listing },
  ]),
) as Record<RecordKind, { readonly segment: string; readonly cls: string; readonly listing: string }>;

/** RDF serialisations a record is offered in. */
export type RdfFormat = 'turtle' | 'jsonld' | 'nquads' | 'ntriples' | 'rdfxml';

/** The exact Content-Type of each RDF serialisation. */
export const RDF_CONTENT_TYPES: Readonly<Record<RdfFormat, string>> = {
  turtle: 'text/turtle; charset=utf-8',
  jsonld: 'application/ld+json',
  nquads: 'application/n-quads',
  ntriples: 'application/n-triples',
  rdfxml: 'application/rdf+xml',
};

/** One record as stored: its IRI, kind and quads (record node first, then its fragments and agents). */
export interface RecordQuads {
  readonly iri: string;
  readonly kind: RecordKind;
  readonly quads: readonly Quad[];
}

/** A record as read from the store: its quads and the version of the stored text they came from. */
export interface StoredRecordQuads extends RecordQuads {
  /** See `versionOf`. */
  readonly version: string;
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/;

/**
 * Reads the quads of the local record `{base}/<segment>/<id>` of `kind`; 404 when there is none of that kind
 * (withdrawn records still resolve: they carry `reg:tombstoned true`).
 */
export async function readRecordQuads(core: Core, kind: RecordKind, id: string): Promise<StoredRecordQuads> {
  const { segment, cls } = RECORD_KINDS[kind];
  const iri = `${core.config.baseIri}/${segment}/${id}`;
  // Made only when needed: an error captures a stack, which costs more than the rest of a cached read.
  const missing = () => new NotFoundError(`no ${kind} ${ID_PATTERN.test(id) ? iri : 'with that id'}`);
  if (!ID_PATTERN.test(id)) throw missing();
  const text = await core.graph.readRecord(GRAPHS.local, iri);
  if (text === undefined) throw missing();
  const quads = parseNQuads(text);
  const typed = quads.some(
    (quad) =>
      quad.subject.value === iri && quad.predicate.value === RDF_NS('type') && quad.object.value === cls,
  );
  if (!typed) throw missing();
  // The record node first, so every serialisation opens with the record itself.
  const own = quads.filter((quad) => quad.subject.value === iri);
  return {
    iri,
    kind,
    quads: [...own, ...quads.filter((quad) => quad.subject.value !== iri)],
    version: versionOf(text),
  };
}

/** Serialises a record in one RDF format; returns the body and its exact Content-Type. */
export async function renderRecord(
  record: RecordQuads,
  format: RdfFormat,
): Promise<{ readonly contentType: string; readonly body: string }> {
  const body =
    format === 'turtle'
      ? recordTurtle(record.quads)
      : format === 'jsonld'
        ? JSON.stringify(recordJsonLd(record.quads), null, 2)
        : format === 'nquads'
          ? recordNQuads(record.quads)
          : // The triples of the record, written by oxigraph (RDF/XML for clients such as rdflib that ask for it first).
            await serialiseGraph(recordTurtle(record.quads), format);
  return { contentType: RDF_CONTENT_TYPES[format], body };
}

/** The record as N-Quads, in its named graph, one line per quad in canonical (sorted) order. */
export function recordNQuads(quads: readonly Quad[]): string {
  return canonicalText(quads.map(quadToLine));
}

/**
 * The record as Turtle: the triples of its quads (the graph name is dropped), with `@prefix` declarations for
 * the namespaces it uses, all absolute, and no `@base`, so the text means the same wherever it is read.
 */
export function recordTurtle(quads: readonly Quad[]): string {
  const writer = new Writer({ format: 'text/turtle', prefixes: usedPrefixes(quads) });
  writer.addQuads(
    quads.map((quad) => factory.quad(quad.subject, quad.predicate, quad.object, factory.defaultGraph())),
  );
  let text = '';
  // Without an output stream the n3 writer finishes synchronously; the callback only hands over the string.
  writer.end((error, result: string) => {
    if (error) throw error;
    text = result;
  });
  return text;
}

/**
 * The record as JSON-LD: one node object per subject in `@graph` (the default graph, as in the Turtle), keys
 * and types as compact IRIs under an inline `@context` of the prefixes used, IRIs as `{"@id"}`, plain strings
 * as JSON strings and other literals as `{"@value", "@type"}` (so every value round-trips exactly).
 */
export function recordJsonLd(quads: readonly Quad[]): JsonObject {
  const prefixes = usedPrefixes(quads);
  const compact = (iri: string): string => compactIri(iri, prefixes);
  const nodes = new Map<string, JsonObject>();
  for (const quad of quads) {
    const id = termId(quad.subject);
    let node = nodes.get(id);
    if (node === undefined) nodes.set(id, (node = { '@id': id }));
    if (quad.predicate.value === RDF_NS('type') && quad.object.termType !== 'Literal') {
      pushValue(node, '@type', compact(quad.object.value));
      continue;
    }
    pushValue(node, compact(quad.predicate.value), objectValue(quad.object, compact));
  }
  const context: JsonObject = {};
  for (const [prefix, iri] of Object.entries(prefixes)) context[prefix] = iri;
  // `@id` and `@type` lead each node, for people reading the document.
  const graph = [...nodes.values()].map(({ '@id': id = null, '@type': types, ...rest }) => ({
    '@id': id,
    ...(types === undefined ? {} : { '@type': types }),
    ...rest,
  }));
  return { '@context': context, '@graph': graph };
}

function pushValue(node: JsonObject, key: string, value: Json): void {
  const existing = node[key];
  if (Array.isArray(existing)) existing.push(value);
  else node[key] = [value];
}

function termId(term: RDF.Term): string {
  return term.termType === 'BlankNode' ? `_:${term.value}` : term.value;
}

function objectValue(term: RDF.Term, compact: (iri: string) => string): Json {
  if (term.termType !== 'Literal') return { '@id': termId(term) };
  if (term.language !== '') return { '@value': term.value, '@language': term.language };
  if (term.datatype.value === XSD('string')) return term.value;
  return { '@value': term.value, '@type': compact(term.datatype.value) };
}

// A compact IRI whose suffix starts with `//` would be read as an absolute IRI, so such IRIs stay whole.
function compactIri(iri: string, prefixes: Readonly<Record<string, string>>): string {
  for (const [prefix, namespace] of Object.entries(prefixes)) {
    const local = iri.slice(namespace.length);
    if (iri.startsWith(namespace) && local !== '' && !local.startsWith('//')) return `${prefix}:${local}`;
  }
  return iri;
}

/** The registry's prefixes whose namespace some IRI of the quads (type, predicate, object, datatype) is in. */
function usedPrefixes(quads: readonly Quad[]): Record<string, string> {
  const iris = new Set<string>();
  for (const quad of quads) {
    iris.add(quad.predicate.value);
    if (quad.object.termType === 'NamedNode') iris.add(quad.object.value);
    if (quad.object.termType === 'Literal') iris.add(quad.object.datatype.value);
  }
  iris.delete(XSD('string'));
  iris.delete(RDF_NS('langString'));
  const used: Record<string, string> = {};
  for (const [prefix, namespace] of Object.entries(PREFIXES))
    if ([...iris].some((iri) => iri.startsWith(namespace) && iri.length > namespace.length))
      used[prefix] = namespace;
  return used;
}
