import type { Binding, QueryForm } from '../store/graph/types.js';

/** The serialisations of SELECT and ASK results /sparql offers. */
export type ResultFormat = 'json' | 'xml' | 'csv' | 'tsv';
/** The serialisations of CONSTRUCT and DESCRIBE graphs (and of the service description) /sparql offers. */
export type GraphFormat = 'turtle' | 'ntriples' | 'nquads' | 'jsonld' | 'rdfxml';
/** Any serialisation /sparql offers. */
export type SparqlFormat = ResultFormat | GraphFormat;

/**
 * The media types of each serialisation, the first one being what the answer is labelled with. On equal quality
 * the serialisation listed first wins, so `*\/*` gets SPARQL JSON results or Turtle, as before content
 * negotiation was offered.
 */
export const RESULT_OFFERS: readonly (readonly [ResultFormat, readonly string[]])[] = [
  ['json', ['application/sparql-results+json', 'application/json']],
  ['xml', ['application/sparql-results+xml', 'application/xml', 'text/xml']],
  ['csv', ['text/csv']],
  ['tsv', ['text/tab-separated-values']],
];
export const GRAPH_OFFERS: readonly (readonly [GraphFormat, readonly string[]])[] = [
  ['turtle', ['text/turtle', 'application/x-turtle']],
  ['ntriples', ['application/n-triples', 'text/plain']],
  ['nquads', ['application/n-quads']],
  ['jsonld', ['application/ld+json', 'application/json']],
  ['rdfxml', ['application/rdf+xml', 'application/xml', 'text/xml']],
];

/** The W3C format IRI of each serialisation (https://www.w3.org/ns/formats/), for the service description. */
export const FORMAT_IRIS: Readonly<Record<SparqlFormat, string>> = {
  json: 'http://www.w3.org/ns/formats/SPARQL_Results_JSON',
  xml: 'http://www.w3.org/ns/formats/SPARQL_Results_XML',
  csv: 'http://www.w3.org/ns/formats/SPARQL_Results_CSV',
  tsv: 'http://www.w3.org/ns/formats/SPARQL_Results_TSV',
  turtle: 'http://www.w3.org/ns/formats/Turtle',
  ntriples: 'http://www.w3.org/ns/formats/N-Triples',
  nquads: 'http://www.w3.org/ns/formats/N-Quads',
  jsonld: 'http://www.w3.org/ns/formats/JSON-LD',
  rdfxml: 'http://www.w3.org/ns/formats/RDF_XML',
};

/**
 * The serialisations a query form can be answered in. CSV and TSV are defined for SELECT results only (an ASK
 * has no variables to head the columns).
 */
export function offersFor(form: QueryForm): readonly (readonly [SparqlFormat, readonly string[]])[] {
  if (form === 'CONSTRUCT' || form === 'DESCRIBE') return GRAPH_OFFERS;
  return form === 'ASK'
    ? RESULT_OFFERS.filter(([format]) => format === 'json' || format === 'xml')
    : RESULT_OFFERS;
}

/** The `Content-Type` an answer in this serialisation is sent with. */
export function contentTypeOf(format: SparqlFormat): string {
  const offers: readonly (readonly [SparqlFormat, readonly string[]])[] = [...RESULT_OFFERS, ...GRAPH_OFFERS];
  const type = offers.find(([offered]) => offered === format)?.[1][0] ?? 'application/octet-stream';
  return `${type}; charset=utf-8`;
}

/** SPARQL 1.1 Query Results JSON, as both stores answer a client's SELECT or ASK. */
export interface ResultsJson {
  readonly head?: { readonly vars?: readonly string[] };
  readonly results?: { readonly bindings: readonly Binding[] };
  readonly boolean?: boolean;
}

export { serialiseGraph, serialiseTriples } from '../store/graph/graph-formats.js';

/** Writes SELECT or ASK results (SPARQL JSON, as the stores answer) in another results serialisation. */
export function serialiseResults(json: string, format: ResultFormat): string {
  if (format === 'json') return json;
  const results = JSON.parse(json) as ResultsJson;
  const vars = results.head?.vars ?? [];
  const rows = results.results?.bindings ?? [];
  switch (format) {
    case 'xml':
      return resultsXml(vars, rows, results.boolean);
    case 'csv':
      return [vars.join(','), ...rows.map((row) => vars.map((name) => csvField(row[name])).join(','))]
        .map((line) => `${line}\r\n`)
        .join('');
    case 'tsv':
      return [
        vars.map((name) => `?${name}`).join('\t'),
        ...rows.map((row) => vars.map((name) => tsvTerm(row[name])).join('\t')),
      ]
        .map((line) => `${line}\n`)
        .join('');
  }
}

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
};

function xmlText(text: string): string {
  return text.replace(/[&<>"]/g, (char) => XML_ESCAPES[char] ?? char);
}

/** SPARQL Query Results XML Format (https://www.w3.org/TR/rdf-sparql-XMLres/). */
function resultsXml(vars: readonly string[], rows: readonly Binding[], boolean: boolean | undefined): string {
  const head = vars.map((name) => `<variable name="${xmlText(name)}"/>`).join('');
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sparql xmlns="http://www.w3.org/2005/sparql-results#">',
  ];
  lines.push(`<head>${head}</head>`);
  if (boolean !== undefined) {
    lines.push(`<boolean>${boolean ? 'true' : 'false'}</boolean>`);
  } else {
    lines.push('<results>');
    for (const row of rows) {
      const bindings = vars
        .filter((name) => row[name] !== undefined)
        .map((name) => `<binding name="${xmlText(name)}">${xmlTerm(row[name]!)}</binding>`)
        .join('');
      lines.push(`<result>${bindings}</result>`);
    }
    lines.push('</results>');
  }
  lines.push('</sparql>');
  return `${lines.join('\n')}\n`;
}

function xmlTerm(term: Binding[string]): string {
  if (term.type === 'uri') return `<uri>${xmlText(term.value)}</uri>`;
  if (term.type === 'bnode') return `<bnode>${xmlText(term.value)}</bnode>`;
  const lang = term['xml:lang'];
  if (lang !== undefined) return `<literal xml:lang="${xmlText(lang)}">${xmlText(term.value)}</literal>`;
  if (term.datatype !== undefined)
    return `<literal datatype="${xmlText(term.datatype)}">${xmlText(term.value)}</literal>`;
  return `<literal>${xmlText(term.value)}</literal>`;
}

/** A CSV field (https://www.w3.org/TR/sparql11-results-csv-tsv/): the plain value, quoted when it must be. */
function csvField(term: Binding[string] | undefined): string {
  if (term === undefined) return '';
  const value = term.type === 'bnode' ? `_:${term.value}` : term.value;
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** A TSV field: the term in Turtle syntax, as the TSV results format requires. */
function tsvTerm(term: Binding[string] | undefined): string {
  if (term === undefined) return '';
  if (term.type === 'uri') return `<${term.value}>`;
  if (term.type === 'bnode') return `_:${term.value}`;
  const text = `"${term.value.replace(/[\\"\t\n\r]/g, (char) => TURTLE_ESCAPES[char] ?? char)}"`;
  const lang = term['xml:lang'];
  if (lang !== undefined) return `${text}@${lang}`;
  if (term.datatype === undefined || term.datatype === `${XSD}string`) return text;
  return `${text}^^<${term.datatype}>`;
}

const TURTLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
};
