import fs from 'node:fs';
import { MalformedInputError } from '../../core/errors.js';
import { ApiError } from './errors.js';
import type { HttpClient, JsonObject } from './http.js';
import { readStdin } from './input.js';

/** The path OpenLineage events are posted to. */
const ENDPOINT = '/api/v1/openlineage';

/** Most events the registry takes in one batch request. */
export const MAX_BATCH = 1000;

/** One event read from a file, with where it was read. */
export interface LineageEvent {
  readonly event: JsonObject;
  readonly file: string;
  /** The line the event starts on (JSON Lines, or a file holding one event). */
  readonly line?: number;
  /** Its place in a JSON array, from 1. */
  readonly item?: number;
}

/** What became of one event. */
export interface EventOutcome {
  readonly file: string;
  readonly line?: number;
  readonly item?: number;
  readonly status: number;
  readonly accepted: boolean;
  /** The registry's answer to an accepted event (run, produced, consumed, replayed …). */
  readonly answer?: JsonObject;
  /** Why an event was refused: the problem's code and detail. */
  readonly code?: string;
  readonly reason?: string;
}

/** What `reg openlineage send` prints under --json. */
export interface SendSummary {
  readonly sent: number;
  readonly accepted: number;
  readonly refused: number;
  readonly events: readonly EventOutcome[];
}

/** Where an event came from, as messages name it: `file:line`, or `file item n`. */
export function placeOf(source: { file: string; line?: number; item?: number }): string {
  if (source.line !== undefined) return `${source.file}:${source.line}`;
  if (source.item !== undefined) return `${source.file} item ${source.item}`;
  return source.file;
}

/**
 * Reads the events of a file (or of standard input for `-`): one JSON event, a JSON array of events, or JSON
 * Lines (one event per line, blank lines skipped). A file that is none of these is refused with its name and
 * the line at fault.
 */
export async function readEventFile(file: string): Promise<LineageEvent[]> {
  const name = file === '-' ? 'standard input' : file;
  let text: string;
  try {
    text = file === '-' ? await readStdin() : fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new MalformedInputError(`${name} cannot be read: ${firstLine(error)}`);
  }
  if (text.trim() === '') throw new MalformedInputError(`${name} holds no events`);
  const whole = tryParse(text);
  if (whole.ok) {
    if (Array.isArray(whole.value)) {
      if (whole.value.length === 0) throw new MalformedInputError(`${name} holds an empty array`);
      return whole.value.map((event, at) => {
        if (!isObject(event)) {
          throw new MalformedInputError(`${name} item ${at + 1}: an event must be a JSON object`);
        }
        return { event, file: name, item: at + 1 };
      });
    }
    if (!isObject(whole.value)) {
      throw new MalformedInputError(`${name} line ${firstContentLine(text)}: an event must be a JSON object`);
    }
    return [{ event: whole.value, file: name, line: firstContentLine(text) }];
  }
  const lines = text.split('\n');
  const first = lines.findIndex((line) => line.trim() !== '');
  // JSON Lines when the first line is a value of its own; otherwise the file is one broken JSON text.
  if (first < 0 || !tryParse(lines[first] ?? '').ok) {
    throw new MalformedInputError(`${name} line ${lineAt(text, whole.position)}: not JSON: ${whole.reason}`);
  }
  const events: LineageEvent[] = [];
  lines.forEach((line, at) => {
    if (line.trim() === '') return;
    const parsed = tryParse(line);
    if (!parsed.ok) throw new MalformedInputError(`${name} line ${at + 1}: not JSON: ${parsed.reason}`);
    if (!isObject(parsed.value)) {
      throw new MalformedInputError(`${name} line ${at + 1}: an event must be a JSON object`);
    }
    events.push({ event: parsed.value, file: name, line: at + 1 });
  });
  return events;
}

/**
 * Sends events one request each, or `batch` to a request as a JSON array, and reports what became of each. A
 * refusal of the whole request for its credential, a registry failure or an unreachable registry stops the
 * sending (by throwing); a refusal of events is reported and the others go on.
 */
export async function sendEvents(
  http: HttpClient,
  events: readonly LineageEvent[],
  batch: number | undefined,
  progress: (done: number) => void,
): Promise<SendSummary> {
  const outcomes: EventOutcome[] = [];
  const size = batch ?? 1;
  for (let start = 0; start < events.length; start += size) {
    const group = events.slice(start, start + size);
    outcomes.push(...(batch === undefined ? [await sendOne(http, group[0]!)] : await sendBatch(http, group)));
    progress(outcomes.length);
  }
  const accepted = outcomes.filter((outcome) => outcome.accepted).length;
  return { sent: outcomes.length, accepted, refused: outcomes.length - accepted, events: outcomes };
}

async function sendOne(http: HttpClient, source: LineageEvent): Promise<EventOutcome> {
  try {
    const answer = await http.request<JsonObject>('POST', ENDPOINT, { body: source.event });
    return { ...where(source), status: 202, accepted: true, answer };
  } catch (error) {
    const refusal = eventRefusal(error);
    if (refusal === undefined) throw error;
    return { ...where(source), accepted: false, ...refusal };
  }
}

async function sendBatch(http: HttpClient, group: readonly LineageEvent[]): Promise<EventOutcome[]> {
  let answer: { events?: unknown };
  try {
    answer = await http.request('POST', ENDPOINT, { body: group.map((source) => source.event) });
  } catch (error) {
    const refusal = eventRefusal(error);
    if (refusal === undefined) throw error;
    return group.map((source) => ({ ...where(source), accepted: false, ...refusal }));
  }
  const answers = Array.isArray(answer.events) ? (answer.events as unknown[]) : [];
  return group.map((source, index) => {
    const entry = answers.find((item) => isObject(item) && item.index === index);
    if (!isObject(entry)) {
      return {
        ...where(source),
        status: 0,
        accepted: false,
        code: 'no-answer',
        reason: 'the registry said nothing of this event',
      };
    }
    const { index: _index, status, problem, ...result } = entry;
    const code = typeof status === 'number' ? status : 0;
    if (code === 202) return { ...where(source), status: code, accepted: true, answer: result };
    const detail = isObject(problem) ? problem : {};
    return {
      ...where(source),
      status: code,
      accepted: false,
      code: typeof detail.code === 'string' ? detail.code : `http-${code}`,
      reason:
        typeof detail.detail === 'string'
          ? detail.detail
          : typeof detail.title === 'string'
            ? detail.title
            : 'refused',
    };
  });
}

/** The refusal of events an error stands for, or undefined when it concerns the whole sending. */
function eventRefusal(error: unknown): { status: number; code: string; reason: string } | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 401 || error.status === 403 || error.status === 429 || error.status >= 500)
    return undefined;
  return { status: error.status, code: error.code, reason: error.detail === '' ? error.title : error.detail };
}

function where(source: LineageEvent): { file: string; line?: number; item?: number } {
  return {
    file: source.file,
    ...(source.line === undefined ? {} : { line: source.line }),
    ...(source.item === undefined ? {} : { item: source.item }),
  };
}

type Parsed = { ok: true; value: unknown } | { ok: false; reason: string; position: number | undefined };

function tryParse(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const reason = firstLine(error);
    const position = /position (\d+)/.exec(reason)?.[1];
    return { ok: false, reason, position: position === undefined ? undefined : Number(position) };
  }
}

/** The line (from 1) of a character position; the last line when the position is unknown (text cut short). */
function lineAt(text: string, position: number | undefined): number {
  const end = position ?? text.trimEnd().length;
  return text.slice(0, end).split('\n').length;
}

function firstContentLine(text: string): number {
  return text.slice(0, text.length - text.trimStart().length).split('\n').length;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
