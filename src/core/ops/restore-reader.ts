/**
 * Reads an N-Quads file for a restore as strictly as the query index parses: each line must be UTF-8, parse as
 * N-Quads, and hold only IRIs that are IRIs by RFC 3987 (the index refuses `%zz`, U+007F, U+FFFD and the like,
 * and a stored record holding one would break every later edit of it). Lines that fail are not yielded but
 * reported with their number and reason; the caller decides what a bad line costs (restore refuses the file).
 */
import fs from 'node:fs';
import { isUtf8 } from 'node:buffer';
import N3 from 'n3';
import type * as RDF from '@rdfjs/types';
import { iriProblem } from '../records/iri.js';
import { MalformedInputError } from '../errors.js';
import { parseRecordMarker, quadToLine, type Quad } from '../store/nquads.js';

/**
 * What the reader yields, in file order: checked quads, statements read as they are (from a batch the scan found
 * plain), and the record markers a full dump writes.
 */
export type Parsed =
  | { readonly quad: Quad; /** Its line's number. */ readonly line: number }
  | { readonly statement: Statement }
  | { readonly marker: { readonly subject: string; readonly graph: string } };

/** A statement line taken as it is: canonical N-Quads in a named graph, without blank nodes. */
export interface Statement {
  /** The line, trimmed: what the store keeps. */
  readonly line: string;
  readonly subject: string;
  readonly graph: string;
}

/** One line the reader refused, numbered from 1. */
export interface LineProblem {
  readonly line: number;
  readonly reason: string;
}

interface Line {
  readonly number: number;
  readonly text: string;
}

/** Lines parsed in one go; a batch that fails is parsed again line by line to name each bad line. */
const BATCH_LINES = 2000;
const NEWLINE = 0x0a;
const SURROGATE = /\p{Cs}/u;

/**
 * Yields the checked contents of `file`; each refused line is appended to `problems`. With `plain` (what a scan
 * of the whole file found of each batch of lines, numbered from 0), a plain batch is yielded as its statement
 * lines without parsing them again.
 */
export async function* readNQuadsFile(
  file: string,
  problems: LineProblem[],
  plain?: (batch: number) => Promise<boolean>,
): AsyncGenerator<Parsed> {
  let index = 0;
  for await (const batch of batchesOf(file, problems)) {
    const taken = (await plain?.(index++)) === true;
    yield* taken ? plainBatch(batch) : parseBatch(batch, problems);
  }
}

/**
 * Reads the whole of `file` as `readNQuadsFile` does, telling `onBatch` whether each batch is plain: every
 * statement line of it well formed, already canonical (as the store would write it), in a named graph and
 * without blank nodes. Stops at the first quad in the default graph when `defaultGraph` is false, and returns
 * the number of its line. With `part`, only every `of`-th batch from the `index`-th is parsed (scans of the
 * other parts running beside it), and lines that are not UTF-8 are named by part 0 only.
 */
export async function scanNQuadsFile(
  file: string,
  problems: LineProblem[],
  onBatch: (batch: number, plain: boolean) => void,
  defaultGraph: boolean,
  part: { readonly index: number; readonly of: number } = { index: 0, of: 1 },
): Promise<{ readonly quads: number; readonly inDefaultGraph?: number }> {
  let index = 0;
  let quads = 0;
  for await (const batch of batchesOf(file, part.index === 0 ? problems : [])) {
    if (index % part.of !== part.index) {
      index++;
      continue;
    }
    const before = problems.length;
    const plainness = { plain: true };
    for (const item of parseBatch(batch, problems, plainness)) {
      if (!('quad' in item)) continue;
      quads++;
      if (!defaultGraph && item.quad.graph.termType === 'DefaultGraph')
        return { quads, inDefaultGraph: item.line };
    }
    onBatch(index++, plainness.plain && problems.length === before);
  }
  return { quads };
}

/**
 * The lines of `file` a batch at a time (the last one possibly empty), numbered; a line that is not UTF-8 becomes
 * a problem instead. The bytes up to the last newline of each chunk read are checked and decoded together (a
 * newline byte is never part of a longer character), and line by line only when they are not all UTF-8.
 */
async function* batchesOf(file: string, problems: LineProblem[]): AsyncGenerator<Line[]> {
  let batch: Line[] = [];
  let number = 0;
  // The start of a line the chunks read so far have not ended, in pieces (joined once it ends).
  let pieces: Buffer[] = [];
  const add = (text: string): void => {
    batch.push({ number: ++number, text });
  };
  const addBytes = (bytes: Buffer): void => {
    if (isUtf8(bytes)) add(bytes.toString('utf8'));
    else problems.push({ line: ++number, reason: 'is not valid UTF-8' });
  };
  // The batches gathered so far, of BATCH_LINES exactly: the scan and the read number them alike.
  function* full(): Generator<Line[]> {
    while (batch.length >= BATCH_LINES) {
      yield batch.slice(0, BATCH_LINES);
      batch = batch.slice(BATCH_LINES);
    }
  }
  // Whole lines, the newline after the last one left out.
  const addLines = (bytes: Buffer): void => {
    if (isUtf8(bytes)) {
      for (const text of bytes.toString('utf8').split('\n')) add(text);
      return;
    }
    let start = 0;
    for (let at = bytes.indexOf(NEWLINE); at >= 0; at = bytes.indexOf(NEWLINE, start)) {
      addBytes(bytes.subarray(start, at));
      start = at + 1;
    }
    addBytes(bytes.subarray(start));
  };
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    const end = chunk.lastIndexOf(NEWLINE);
    if (end < 0) {
      pieces.push(chunk);
      continue;
    }
    let start = 0;
    if (pieces.length > 0) {
      const first = chunk.indexOf(NEWLINE);
      addBytes(Buffer.concat([...pieces, chunk.subarray(0, first)]));
      start = first + 1;
    }
    if (start <= end) addLines(chunk.subarray(start, end));
    // Copied, so that the chunk it came from is not kept for a few bytes.
    pieces = end + 1 < chunk.length ? [Buffer.from(chunk.subarray(end + 1))] : [];
    yield* full();
  }
  if (pieces.length > 0) addBytes(Buffer.concat(pieces));
  yield* full();
  yield batch;
}

const HASH = 0x23;
const SPACE = 0x20;
const TAB = 0x09;
const RETURN = 0x0d;

/**
 * Counts the statement lines of `file` (lines neither blank nor comments), reading its bytes once without
 * parsing: the quads a restore of a well-formed file reads, known before it starts.
 */
export async function countStatements(file: string): Promise<number> {
  let count = 0;
  // Whether the current line has shown a byte other than white space yet, and whether that was a `#`.
  let started = false;
  let comment = false;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    for (let at = 0; at < chunk.length; at++) {
      const byte = chunk[at];
      if (byte === NEWLINE) {
        if (started && !comment) count++;
        started = false;
        comment = false;
      } else if (!started && byte !== SPACE && byte !== TAB && byte !== RETURN) {
        started = true;
        comment = byte === HASH;
      }
    }
  }
  return started && !comment ? count + 1 : count;
}

function isStatement(text: string): boolean {
  const trimmed = text.trim();
  return trimmed !== '' && !trimmed.startsWith('#');
}

const parser = () => new N3.Parser({ format: 'N-Quads', blankNodePrefix: '' });

/**
 * The quads of each statement line of a batch (or why the line cannot be read), then everything in line order.
 * With `plainness`, whether every statement line is plain (see `scanNQuadsFile`) is noted in it.
 */
function parseBatch(
  batch: readonly Line[],
  problems: LineProblem[],
  plainness?: { plain: boolean },
): Parsed[] {
  const statements = batch.filter((line) => isStatement(line.text));
  const byLine = new Map<number, Quad[] | string>();
  let quads: Quad[] | undefined;
  try {
    quads = parser().parse(statements.map((line) => line.text).join('\n'));
  } catch {
    quads = undefined;
  }
  if (quads !== undefined && quads.length === statements.length) {
    statements.forEach((line, index) => byLine.set(line.number, [quads[index] as Quad]));
  } else {
    // A syntax error somewhere, or a line holding two statements: read each line alone to tell them apart.
    for (const line of statements) byLine.set(line.number, parseLine(line.text));
  }
  const out: Parsed[] = [];
  for (const line of batch) {
    const text = line.text.trim();
    if (text.startsWith('#')) {
      const marker = parseRecordMarker(text.slice(1));
      if (marker !== undefined) out.push({ marker });
      continue;
    }
    const parsed = byLine.get(line.number);
    if (parsed === undefined) continue;
    const problem =
      typeof parsed === 'string' ? parsed : parsed.map(quadProblem).find((p) => p !== undefined);
    if (problem !== undefined) problems.push({ line: line.number, reason: problem });
    else if (typeof parsed !== 'string') for (const quad of parsed) out.push({ quad, line: line.number });
    if (plainness?.plain === true && (typeof parsed === 'string' || !isPlain(parsed, text)))
      plainness.plain = false;
  }
  return out;
}

/** Whether a line's quads are one quad written as the store writes it, in a named graph, without blank nodes. */
function isPlain(quads: readonly Quad[], text: string): boolean {
  const [quad] = quads;
  return (
    quads.length === 1 &&
    quad !== undefined &&
    quad.graph.termType === 'NamedNode' &&
    quad.subject.termType === 'NamedNode' &&
    quad.object.termType !== 'BlankNode' &&
    quadToLine(quad) === text
  );
}

/**
 * The statements of a batch the scan found plain, taken from the text of its lines: each is canonical and ends
 * with its graph (`<s> <p> o <g> .`), whose IRI holds neither space nor `<`.
 */
function plainBatch(batch: readonly Line[]): Parsed[] {
  const out: Parsed[] = [];
  for (const { text } of batch) {
    const line = text.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const marker = parseRecordMarker(line.slice(1));
      if (marker !== undefined) out.push({ marker });
      continue;
    }
    const subject = line.slice(1, line.indexOf('>'));
    const graph = line.slice(line.lastIndexOf(' <') + 2, line.length - '> .'.length);
    out.push({ statement: { line, subject, graph } });
  }
  return out;
}

function parseLine(text: string): Quad[] | string {
  try {
    return parser().parse(text);
  } catch (error) {
    return (error as Error).message.replace(/ on line \d+\.?$/, '');
  }
}

const ROLES = ['subject', 'predicate', 'object', 'graph'] as const;

/** Why a parsed quad cannot be stored: an IRI the index would refuse, or a literal that is not text. */
function quadProblem(quad: Quad): string | undefined {
  for (const role of ROLES) {
    const problem = termProblem(quad[role]);
    if (problem !== undefined) return `the ${role} ${problem}`;
  }
  return undefined;
}

/** IRIs found good lately: predicates, graphs, datatypes and a record's subject recur line after line. */
const goodIris = new Set<string>();
const GOOD_IRIS_KEPT = 10_000;

function checkedIriProblem(iri: string): string | undefined {
  if (goodIris.has(iri)) return undefined;
  const problem = iriProblem(iri);
  if (problem === undefined) {
    if (goodIris.size >= GOOD_IRIS_KEPT) goodIris.clear();
    goodIris.add(iri);
  }
  return problem;
}

function termProblem(term: RDF.Term): string | undefined {
  switch (term.termType) {
    case 'NamedNode': {
      const problem = checkedIriProblem(term.value);
      return problem === undefined ? undefined : `${JSON.stringify(term.value)} ${problem}`;
    }
    case 'Literal': {
      if (SURROGATE.test(term.value)) return 'holds a lone surrogate, which is not text';
      const problem = checkedIriProblem(term.datatype.value);
      return problem === undefined
        ? undefined
        : `has the datatype ${JSON.stringify(term.datatype.value)}, which ${problem}`;
    }
    case 'Quad':
      return 'is a quoted triple, which the registry does not store';
    default:
      return undefined;
  }
}

/** Lines named in a refusal; the count covers the rest. */
const MAX_NAMED_LINES = 20;

/**
 * Refuses the whole file when any line could not be read or holds what the store cannot keep (a malformed line,
 * bytes that are not UTF-8, an IRI that is not one): a restore is all or nothing, and a partial one would leave
 * records without what the file said of them.
 */
export function refuseProblems(file: string, problems: readonly LineProblem[]): void {
  if (problems.length === 0) return;
  const named = [...problems]
    .sort((a, b) => a.line - b.line)
    .slice(0, MAX_NAMED_LINES)
    .map(({ line, reason }) => ({
      field: `line ${line}`,
      message: `${file}:${line}: ${reason}`,
    }));
  const more = problems.length > named.length ? `; and ${problems.length - named.length} more` : '';
  const count = problems.length === 1 ? '1 line' : `${problems.length} lines`;
  throw new MalformedInputError(
    `${count} of ${file} cannot be restored: ${named.map((problem) => problem.message).join('; ')}${more}; nothing was restored`,
    { errors: named, extra: { bad_lines: problems.length } },
  );
}
