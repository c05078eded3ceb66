import fs from 'node:fs';
import { MalformedInputError } from '../../core/errors.js';
import { readStdin } from './input.js';
import { HttpClient } from './http.js';
import { UnexpectedResponseError } from './errors.js';
import type { Column } from './table.js';

/** One RDF term of a SPARQL JSON result row. */
export interface SparqlTerm {
  readonly type: 'uri' | 'literal' | 'bnode' | 'typed-literal';
  readonly value: string;
  readonly 'xml:lang'?: string;
  readonly datatype?: string;
}

/** SPARQL 1.1 Query Results JSON: the answer to SELECT (bindings) or ASK (boolean). */
export interface SparqlJsonResults {
  readonly head: { readonly vars?: readonly string[]; readonly link?: readonly string[] };
  readonly results?: { readonly bindings: ReadonlyArray<Readonly<Record<string, SparqlTerm>>> };
  readonly boolean?: boolean;
}

/** The answer to CONSTRUCT or DESCRIBE: RDF text, as the registry sent it. */
export interface SparqlGraphResult {
  readonly content_type: string;
  readonly data: string;
}

/** What a query answered. */
export type SparqlAnswer =
  | { readonly kind: 'results'; readonly results: SparqlJsonResults }
  | { readonly kind: 'graph'; readonly graph: SparqlGraphResult };

const XSD = 'http://www.w3.org/2001/XMLSchema#';

/**
 * Reads the query argument: the text itself, `@file` for a file's content, or `-` for standard input. An
 * unreadable file or empty input is refused as malformed input.
 */
export async function readQueryText(argument: string): Promise<string> {
  let text: string;
  const where =
    argument === '-' ? 'standard input' : argument.startsWith('@') ? argument.slice(1) : undefined;
  try {
    if (argument === '-') text = await readStdin();
    else if (argument.startsWith('@')) text = fs.readFileSync(argument.slice(1), 'utf8');
    else text = argument;
  } catch (error) {
    throw new MalformedInputError(`the query file ${where ?? argument} cannot be read: ${firstLine(error)}`);
  }
  if (text.trim() === '') {
    throw new MalformedInputError(`${where === undefined ? 'the query' : `the query in ${where}`} is empty`);
  }
  return text;
}

/**
 * Runs a query at the registry's /sparql endpoint as a POST of `application/sparql-query` (so that long queries
 * fit), with the profile's credential, and reads the answer by its media type.
 */
export async function runQuery(http: HttpClient, query: string): Promise<SparqlAnswer> {
  // The shared client streams any answer of a GET; this fetch turns that GET into the query's POST.
  const post: typeof fetch = (input, init) =>
    fetch(input, {
      ...init,
      method: 'POST',
      headers: { ...(init?.headers as Record<string, string>), 'content-type': 'application/sparql-query' },
      body: query,
    });
  const client = new HttpClient(http.profile, post);
  const response = await client.download('/sparql', 'application/sparql-results+json, text/turtle;q=0.9');
  const contentType = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (/json/i.test(contentType)) {
    let results: SparqlJsonResults;
    try {
      results = JSON.parse(text) as SparqlJsonResults;
    } catch {
      throw new UnexpectedResponseError(`/sparql answered ${contentType} that is not JSON`);
    }
    return { kind: 'results', results };
  }
  return { kind: 'graph', graph: { content_type: contentType, data: text } };
}

/** The variables of a SELECT answer: the head's, else those the rows bind. */
export function variablesOf(results: SparqlJsonResults): string[] {
  const declared = results.head.vars ?? [];
  if (declared.length > 0) return [...declared];
  return [...new Set((results.results?.bindings ?? []).flatMap((row) => Object.keys(row)))];
}

/** Columns for a terminal table: one per variable, terms shown as their value (literals with language tag). */
export function resultColumns(variables: readonly string[]): Column<Readonly<Record<string, SparqlTerm>>>[] {
  return variables.map((name) => ({
    header: name,
    // Every variable was asked for by the query: none is dropped to fit the terminal.
    priority: 0,
    value: (row) => {
      const term = row[name];
      if (term === undefined) return undefined;
      if (term.type === 'bnode') return `_:${term.value}`;
      return term['xml:lang'] === undefined ? term.value : `${term.value}@${term['xml:lang']}`;
    },
  }));
}

/**
 * SELECT results as SPARQL 1.1 CSV: a header of variable names, values without their type or language, fields
 * quoted as RFC 4180 says, rows ended by CRLF.
 */
export function resultsAsCsv(results: SparqlJsonResults): string {
  const variables = variablesOf(results);
  const field = (text: string): string => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const cell = (term: SparqlTerm | undefined): string => {
    if (term === undefined) return '';
    return field(term.type === 'bnode' ? `_:${term.value}` : term.value);
  };
  const lines = [
    variables.map(field).join(','),
    ...(results.results?.bindings ?? []).map((row) => variables.map((name) => cell(row[name])).join(',')),
  ];
  return lines.map((line) => `${line}\r\n`).join('');
}

/**
 * SELECT results as SPARQL 1.1 TSV: a header of `?variables`, terms written as in N-Triples (numbers and
 * booleans of the usual XSD types may be written bare), rows ended by LF.
 */
export function resultsAsTsv(results: SparqlJsonResults): string {
  const variables = variablesOf(results);
  const lines = [
    variables.map((name) => `?${name}`).join('\t'),
    ...(results.results?.bindings ?? []).map((row) =>
      variables.map((name) => (row[name] === undefined ? '' : termAsTsv(row[name]))).join('\t'),
    ),
  ];
  return lines.map((line) => `${line}\n`).join('');
}

/** One term in the TSV results' syntax. */
export function termAsTsv(term: SparqlTerm): string {
  if (term.type === 'uri') return `<${[...term.value].map(iriChar).join('')}>`;
  if (term.type === 'bnode') return `_:${term.value}`;
  const datatype = term.datatype;
  if (datatype === `${XSD}integer` && /^[+-]?\d+$/.test(term.value)) return term.value;
  if (datatype === `${XSD}decimal` && /^[+-]?\d*\.\d+$/.test(term.value)) return term.value;
  if (datatype === `${XSD}double` && /^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$/.test(term.value))
    return term.value;
  if (datatype === `${XSD}boolean` && /^(true|false)$/.test(term.value)) return term.value;
  const lexical = `"${term.value.replace(/[\\"\t\n\r]/g, literalEscape)}"`;
  if (term['xml:lang'] !== undefined) return `${lexical}@${term['xml:lang']}`;
  if (datatype !== undefined && datatype !== `${XSD}string`) return `${lexical}^^<${datatype}>`;
  return lexical;
}

const LITERAL_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
};
const literalEscape = (char: string): string => LITERAL_ESCAPES[char] ?? char;
/** A character of an IRI as N-Triples writes it: those IRIREF excludes as a \\u escape. */
const iriChar = (char: string): string => {
  const code = char.codePointAt(0) ?? 0;
  return code <= 0x20 || '<>"{}|^`\\'.includes(char)
    ? `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`
    : char;
};

const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
