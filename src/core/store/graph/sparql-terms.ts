/**
 * Moving records between canonical N-Quads lines and a SPARQL server: solutions back to lines in exactly the form
 * `quadToLine` writes, lines into INSERT DATA / DELETE DATA blocks, and the pairing of lines whose lexical form a
 * server changed (Virtuoso stores `"true"^^xsd:boolean` as `"1"`, drops `.000` from times, lower-cases language
 * tags) with the form the registry wrote.
 */
import N3 from 'n3';
import { XSD } from '../../ns.js';
import { factory, quadToLine, type Quad } from '../nquads.js';
import type { Binding } from './types.js';

type Term = Binding[string];

/** The N-Quads line of one solution `?s ?p ?o` in `graph`, as `quadToLine` would write the same quad. */
export function lineOfSolution(s: Term, p: Term, o: Term, graph: string): string {
  return quadToLine(
    factory.quad(
      factory.namedNode(s.value),
      factory.namedNode(p.value),
      objectTerm(o),
      graph === '' ? factory.defaultGraph() : factory.namedNode(graph),
    ),
  );
}

function objectTerm(term: Term): Quad['object'] {
  if (term.type === 'uri') return factory.namedNode(term.value);
  if (term.type === 'bnode') return factory.blankNode(term.value);
  const lang = term['xml:lang'];
  if (lang !== undefined && lang !== '') return factory.literal(term.value, lang);
  if (term.datatype !== undefined) return factory.literal(term.value, factory.namedNode(term.datatype));
  return factory.literal(term.value);
}

/** The subject IRI of a canonical line (records never have blank-node subjects). */
export function subjectOfLine(line: string): string {
  return line.slice(1, line.indexOf('> '));
}

/** A line of `graph` as a triple for a `GRAPH <graph> { … }` data block. */
export function tripleOfLine(line: string, graph: string): string {
  const suffix = ` <${graph}> .`;
  return line.endsWith(suffix) ? `${line.slice(0, -suffix.length)} .` : line;
}

/** Lines per operation of an update: Virtuoso refuses an INSERT DATA of a few thousand triples. */
const LINES_PER_OPERATION = 500;

/**
 * Data operations (`INSERT DATA` or `DELETE DATA`) over lines grouped by graph, split so that no operation
 * exceeds what a server compiles at once; several operations still go in one request, joined by `;`.
 */
export function dataOperations(
  keyword: 'INSERT DATA' | 'DELETE DATA',
  byGraph: ReadonlyMap<string, readonly string[]>,
): string[] {
  const operations: string[] = [];
  let blocks: string[] = [];
  let size = 0;
  const flush = (): void => {
    if (blocks.length > 0) operations.push(`${keyword} {\n${blocks.join('\n')}\n}`);
    blocks = [];
    size = 0;
  };
  for (const [graph, lines] of byGraph) {
    for (let start = 0; start < lines.length;) {
      const take = Math.min(lines.length - start, LINES_PER_OPERATION - size);
      const triples = lines.slice(start, start + take).map((line) => tripleOfLine(line, graph));
      blocks.push(`GRAPH <${graph}> {\n${triples.join('\n')}\n}`);
      size += take;
      start += take;
      if (size >= LINES_PER_OPERATION) flush();
    }
  }
  flush();
  return operations;
}

const NUMERIC = new Set(
  [
    'integer',
    'decimal',
    'double',
    'float',
    'long',
    'int',
    'short',
    'byte',
    'nonNegativeInteger',
    'positiveInteger',
    'negativeInteger',
    'nonPositiveInteger',
    'unsignedLong',
    'unsignedInt',
    'unsignedShort',
    'unsignedByte',
  ].map((name) => XSD(name)),
);

/**
 * A key equal for two lines that state the same value in different lexical forms: same subject and predicate,
 * and an object equal as a value (booleans 1/true, numbers whatever their form or numeric type, instants whatever
 * their fraction or offset, language tags whatever their case).
 */
function valueKey(line: string): string {
  let quad: Quad | undefined;
  try {
    quad = new N3.Parser({ format: 'N-Quads' }).parse(line)[0];
  } catch {
    return line;
  }
  if (quad === undefined) return line;
  const head = `${quad.subject.value} ${quad.predicate.value}`;
  const object = quad.object;
  if (object.termType !== 'Literal') return `${head} ${object.termType} ${object.value}`;
  if (object.language !== '') return `${head} lang ${object.value} @${object.language.toLowerCase()}`;
  const datatype = object.datatype.value;
  if (datatype === XSD('boolean')) {
    const value = object.value === '1' ? 'true' : object.value === '0' ? 'false' : object.value;
    return `${head} boolean ${value}`;
  }
  if (NUMERIC.has(datatype) && object.value.trim() !== '' && Number.isFinite(Number(object.value)))
    return `${head} number ${Number(object.value)}`;
  if (datatype === XSD('dateTime') && !Number.isNaN(Date.parse(object.value)))
    return `${head} instant ${Date.parse(object.value)}`;
  return `${head} ${datatype} ${object.value}`;
}

/**
 * Pairs the lines a server holds in another form (`got` but not written) with the lines the registry wrote
 * (`written` but not got) that state the same value. Returns the pairs as [server form, written form] and the
 * written lines no server line accounts for.
 */
export function pairRewrites(
  written: ReadonlySet<string>,
  got: ReadonlySet<string>,
): { pairs: [string, string][]; missing: string[] } {
  const missing = [...written].filter((line) => !got.has(line));
  if (missing.length === 0) return { pairs: [], missing };
  const extras = new Map<string, string[]>();
  for (const line of got) {
    if (written.has(line)) continue;
    const key = valueKey(line);
    extras.set(key, [...(extras.get(key) ?? []), line]);
  }
  const pairs: [string, string][] = [];
  const unpaired: string[] = [];
  for (const line of missing) {
    const candidates = extras.get(valueKey(line));
    const server = candidates?.shift();
    if (server === undefined) unpaired.push(line);
    else pairs.push([server, line]);
  }
  return { pairs, missing: unpaired };
}

/** Whether a line's object is a literal whose lexical form a server may keep differently (typed or tagged). */
export function mayBeRewritten(line: string): boolean {
  // Canonical lines end with `"…"^^<datatype> <graph> .` or `"…"@tag <graph> .` for such literals.
  return /"(\^\^<[^>]*>|@[A-Za-z0-9-]+)( <[^>]*>)? \.$/.test(line);
}

const XSD_BOOLEAN = XSD('boolean');
const XSD_DATE_TIME = XSD('dateTime');
const XSD_STRING = XSD('string');

/**
 * A solution as the registry reads it: SPARQL 1.0 `typed-literal` as `literal`, and the lexical forms a server
 * may have changed put back into the forms the registry writes (xsd:boolean as true/false, xsd:dateTime in UTC with
 * milliseconds, xsd:string as a simple literal), so answers do not depend on the store
 * (both the embedded and the external store give theirs this way).
 */
export function normaliseBinding(binding: Binding): Binding {
  const out: Binding = {};
  for (const [name, term] of Object.entries(binding)) out[name] = normaliseTerm(term);
  return out;
}

/** One term of a solution, normalised as `normaliseBinding` does. */
export function normaliseTerm(term: Binding[string]): Binding[string] {
  if (term.type !== 'literal' && term.type !== 'typed-literal') return term;
  const datatype = term.datatype;
  if (datatype === undefined) return term.type === 'literal' ? term : { ...term, type: 'literal' };
  if (datatype === XSD_STRING) return { type: 'literal', value: term.value };
  return { type: 'literal', value: registryLexicalForm(term.value, datatype), datatype };
}

/** The lexical form the registry writes for a value a server may hand back in another form. */
export function registryLexicalForm(value: string, datatype: string): string {
  if (datatype === XSD_BOOLEAN) return value === '1' ? 'true' : value === '0' ? 'false' : value;
  if (datatype === XSD_DATE_TIME) {
    const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,3}))?Z$/.exec(value);
    if (match !== null) return `${match[1]}.${(match[2] ?? '').padEnd(3, '0')}Z`;
  }
  return value;
}
