import N3 from 'n3';
import type * as RDF from '@rdfjs/types';
import { MalformedInputError } from '../errors.js';

/** An RDF/JS quad, as the store layer exchanges it. */
export type Quad = RDF.Quad;

/** The RDF/JS data factory used throughout the registry. */
export const factory = N3.DataFactory;

const writer = new N3.Writer({ format: 'N-Quads' });

/** Serialises one quad as an N-Quads line without its trailing newline. */
export function quadToLine(quad: Quad): string {
  return writer.quadToString(quad.subject, quad.predicate, quad.object, quad.graph).trimEnd();
}

/** The canonical text of a set of N-Quads lines: unique, sorted by code point, newline-terminated. */
export function canonicalText(lines: Iterable<string>): string {
  return textOfLines([...new Set(lines)].sort());
}

/** Lines joined as text, each ending in a newline (empty text for none); the inverse of `linesOf`. */
export function textOfLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

const canonicalOfFrozen = new WeakMap<readonly Quad[], string>();

/**
 * The canonical text of a record's quads. A frozen array's text is computed once and remembered, so the quads a
 * write checked (and froze) are serialised once for validation and the stored row alike.
 */
export function canonicalTextOf(quads: readonly Quad[]): string {
  if (!Object.isFrozen(quads)) return canonicalText(quads.map(quadToLine));
  let text = canonicalOfFrozen.get(quads);
  if (text === undefined) {
    text = canonicalText(quads.map(quadToLine));
    canonicalOfFrozen.set(quads, text);
  }
  return text;
}

/** Splits canonical text back into its lines. */
export function linesOf(text: string): string[] {
  return text.length === 0 ? [] : text.replace(/\n$/, '').split('\n');
}

/**
 * A copy of `text` that keeps nothing else alive. A string cut from a larger one (a term the parser took from a
 * chunk of the file it reads) holds that whole string in memory for as long as it is kept; one kept for every
 * record of a large load would hold the whole file.
 */
export function detached(text: string): string {
  // Slicing the joined string makes V8 copy it into a string of its own first.
  return ` ${text}`.slice(1);
}

/** The record a subject IRI belongs to: owned sub-resources are fragments of their record's IRI. */
export function ownerOf(subject: string): string {
  const hash = subject.indexOf('#');
  return hash < 0 ? subject : subject.slice(0, hash);
}

/** Parses N-Quads text, naming the line of the first syntax error. */
export function parseNQuads(text: string): Quad[] {
  try {
    return new N3.Parser({ format: 'N-Quads' }).parse(text);
  } catch (error) {
    throw new MalformedInputError(`malformed N-Quads: ${(error as Error).message}`);
  }
}

/** One N-Quads line in `graph` as an N-Triples line (a line in another graph is left as it is). */
export function tripleOf(line: string, graph: string): string {
  const suffix = ` <${graph}> .`;
  return graph !== '' && line.endsWith(suffix) ? `${line.slice(0, -suffix.length)} .` : line;
}

/** Rewrites the graph of N-Quads lines in `graph` to give N-Triples lines. */
export function toNTriples(text: string, graph: string): string {
  if (graph === '') return text;
  return text
    .split('\n')
    .map((line) => tripleOf(line, graph))
    .join('\n');
}

/** Puts every N-Triples line of `text` into `graph`, giving N-Quads lines. */
export function toNQuads(text: string, graph: string): string {
  const suffix = ` <${graph}> .`;
  return text.replace(/ \.$/gm, suffix);
}

/** A record as a full dump writes it: its marker line, then its N-Quads. */
export function markedRecord(graph: string, subject: string, nquads: string): string {
  return `${recordMarker(graph, subject)}\n${nquads}`;
}

/** The N-Quads comment a full dump writes before each record: `# reg:record <subject> <graph>`. */
export function recordMarker(graph: string, subject: string): string {
  return graph === '' ? `# reg:record <${subject}>` : `# reg:record <${subject}> <${graph}>`;
}

/** Reads a record marker comment back (the text after `#`), or undefined for any other comment. */
export function parseRecordMarker(comment: string): { subject: string; graph: string } | undefined {
  const match = /^\s*reg:record <([^>]+)>(?: <([^>]+)>)?\s*$/.exec(comment);
  return match?.[1] === undefined ? undefined : { subject: match[1], graph: match[2] ?? '' };
}
