import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context } from 'hono';
import {
  BadRequestError,
  InvalidEncodingError,
  InvalidTextError,
  PayloadTooLargeError,
  TooDeepError,
  UnsupportedMediaTypeError,
  type FieldError,
} from '../core/errors.js';
import type { AppEnv } from './env.js';

/**
 * Reads a JSON request body strictly: bytes that are not UTF-8 are a 400 (`invalid-utf8`) instead of being
 * replaced by U+FFFD, nesting past `REG_MAX_JSON_DEPTH` is a 400 (`too-deep`) found before parsing, so no later
 * step recurses that deep, and a lone surrogate (a `\ud800` escape) in any member name or string is a 422
 * (`invalid-text`) naming where it is. A missing or malformed body is a 400, another media type a 415.
 */
export async function readJson(c: Context<AppEnv>, options: ReadJsonOptions = {}): Promise<unknown> {
  requireJsonType(c);
  if (options.oneLargeWrite === undefined) return parseJson(c, await readUtf8(c, true));
  const text = await readUtf8(c, false);
  const value = parseJson(c, text);
  if (options.oneLargeWrite(value)) await c.get('largeWrites')?.take(c, Buffer.byteLength(text));
  return value;
}

/** How a JSON body is read. */
export interface ReadJsonOptions {
  /**
   * Whether a large body is written as one large write (which takes its turn with the others, see
   * `LargeWriteTurns`): asked after parsing, so that a body of many small writes, each committed on its own
   * (a batch of OpenLineage events), can go without a turn. Absent: every large body takes a turn.
   */
  readonly oneLargeWrite?: (value: unknown) => boolean;
}

/** Reads a JSON body that may be absent: an empty body is `{}`, anything else as `readJson` reads it. */
export async function readOptionalJson(c: Context<AppEnv>): Promise<unknown> {
  const text = await readUtf8(c, true);
  if (text.trim() === '') return {};
  requireJsonType(c);
  return parseJson(c, text);
}

/** A body sent as another media type than JSON is a 415. */
function requireJsonType(c: Context<AppEnv>): void {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
    throw new UnsupportedMediaTypeError(`send the body as application/json, not ${type}`);
  }
}

/** The body's text parsed as `readJson` describes. */
function parseJson(c: Context<AppEnv>, text: string): unknown {
  if (text.trim() === '') throw new BadRequestError('the request body is empty: send a JSON object');
  const limit = c.get('core').config.maxJsonDepth;
  if (jsonDepth(text) > limit) throw new TooDeepError(limit);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new BadRequestError(`the request body is not valid JSON: ${(error as Error).message}`);
  }
  const broken = brokenText(value);
  if (broken.length > 0) throw new InvalidTextError(broken);
  return value;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

const DECOMPRESS: Readonly<Record<string, (bytes: Buffer, options: zlib.ZlibOptions) => Promise<Buffer>>> = {
  gzip: promisify(zlib.gunzip),
  'x-gzip': promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

/**
 * The body's bytes, decompressed when it was sent with `Content-Encoding` gzip, deflate or br (as the OpenLineage
 * clients' HTTP transport may). The decompressed size is held to REG_MAX_PAYLOAD_BYTES like a plain body (413),
 * so a small compressed body cannot expand without bound; another encoding is a 415, a corrupt one a 400.
 */
async function readBytes(c: Context<AppEnv>): Promise<ArrayBuffer | Buffer> {
  const bytes = await c.req.arrayBuffer();
  const encoding = (c.req.header('content-encoding') ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return bytes;
  const decompress = DECOMPRESS[encoding];
  if (decompress === undefined) {
    throw new UnsupportedMediaTypeError(
      `the request body is encoded as ${encoding}; send it as gzip, deflate, br or without Content-Encoding`,
    );
  }
  const limit = c.get('core').config.maxPayloadBytes;
  try {
    return await decompress(Buffer.from(bytes), { maxOutputLength: limit });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new PayloadTooLargeError(limit);
    throw new BadRequestError(`the request body is not valid ${encoding}: ${(error as Error).message}`);
  }
}

/** The body as text; a 400 when its bytes are not UTF-8. */
async function readUtf8(c: Context<AppEnv>, turn: boolean): Promise<string> {
  const bytes = await readBytes(c);
  if (turn) await c.get('largeWrites')?.take(c, bytes.byteLength);
  try {
    return decoder.decode(bytes);
  } catch {
    throw new InvalidEncodingError('the request body is not valid UTF-8');
  }
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The deepest nesting of objects and lists in JSON text, counted in one pass without parsing it. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === BACKSLASH) at++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) deepest = Math.max(deepest, ++depth);
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
  }
  return deepest;
}

/** Most places named in one refusal; a body full of broken text is not echoed back whole. */
const MAX_NAMED = 20;
const SURROGATE = /\p{Cs}/u;

/** Where a parsed body holds a lone surrogate, in a member name or a string, as JSON paths. */
export function brokenText(value: unknown): FieldError[] {
  const found: FieldError[] = [];
  const visit = (item: unknown, path: string): void => {
    if (found.length >= MAX_NAMED) return;
    if (typeof item === 'string') {
      if (SURROGATE.test(item))
        found.push({
          field: path || '(body)',
          message: `${path || 'the body'} holds a lone surrogate, which is not text`,
        });
    } else if (Array.isArray(item)) {
      item.forEach((inner, index) => visit(inner, `${path}[${index}]`));
    } else if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) {
        // JSON.stringify writes a lone surrogate as an escape, so the name can be quoted back safely.
        const at = `${path === '' ? '' : `${path}.`}${JSON.stringify(key).slice(1, -1)}`;
        if (SURROGATE.test(key))
          found.push({
            field: at,
            message: `the member name ${at} holds a lone surrogate, which is not text`,
          });
        visit(inner, at);
      }
    }
  };
  visit(value, '');
  return found;
}
