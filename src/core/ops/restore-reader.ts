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
import { parseRecordMarker, type Quad } from '../store/nquads.js';

/** What the reader yields, in file order: checked quads, and the record markers a full dump writes. */
export type Parsed =
  { readonly quad: Quad } | { readonly marker: { readonly subject: string; readonly graph: string } };

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

/** Yields the checked contents of `file`; each refused line is appended to `problems`. */
export async function* readNQuadsFile(file: string, problems: LineProblem[]): AsyncGenerator<Parsed> {
  let batch: Line[] = [];
  for await (const line of linesOf(file, problems)) {
    batch.push(line);
    if (batch.length >= BATCH_LINES) {
      yield* parseBatch(batch, problems);
      batch = [];
    }
  }
  yield* parseBatch(batch, problems);
}

/** The file's lines as text, numbered; a line that is not UTF-8 becomes a problem instead. */
async function* linesOf(file: string, problems: LineProblem[]): AsyncGenerator<Line> {
  let pieces: Buffer[] = [];
  let number = 0;
  const finish = (bytes: Buffer): Line | undefined => {
    number++;
    if (isUtf8(bytes)) return { number, text: bytes.toString('utf8') };
    problems.push({ line: number, reason: 'is not valid UTF-8' });
    return undefined;
  };
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let at = chunk.indexOf(NEWLINE); at >= 0; at = chunk.indexOf(NEWLINE, start)) {
      pieces.push(chunk.subarray(start, at));
      const line = finish(Buffer.concat(pieces));
      pieces = [];
      start = at + 1;
      if (line !== undefined) yield line;
    }
    if (start < chunk.length) pieces.push(chunk.subarray(start));
  }
  if (pieces.length > 0) {
    const line = finish(Buffer.concat(pieces));
    if (line !== undefined) yield line;
  }
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

/** The quads of each statement line of a batch (or why the line cannot be read), then everything in line order. */
function parseBatch(batch: readonly Line[], problems: LineProblem[]): Parsed[] {
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
    else if (typeof parsed !== 'string') for (const quad of parsed) out.push({ quad });
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

function termProblem(term: RDF.Term): string | undefined {
  switch (term.termType) {
    case 'NamedNode': {
      const problem = iriProblem(term.value);
      return problem === undefined ? undefined : `${JSON.stringify(term.value)} ${problem}`;
    }
    case 'Literal': {
      if (SURROGATE.test(term.value)) return 'holds a lone surrogate, which is not text';
      const problem = iriProblem(term.datatype.value);
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
