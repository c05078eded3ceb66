import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context } from 'hono';
import {
  BadRequestError,
  InvalidEncodingError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from '../core/errors.js';
import { parseLimitedJson } from '../core/records/json.js';
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
  return parseLimitedJson(
    text,
    c.get('core').config.maxJsonDepth,
    (message) => new BadRequestError(`the request body is not valid JSON: ${message}`),
  );
}

/**
 * The bytes of a JSON body, for a reader that keeps them as sent and parses them itself (with
 * `parseLimitedJson`): sent as JSON (else 415), decompressed and bounded as `readJson` does, and a large one takes
 * its turn.
 */
export async function readJsonBytes(c: Context<AppEnv>): Promise<Buffer> {
  requireJsonType(c);
  const bytes = await readBytes(c);
  await c.get('largeWrites')?.take(c, bytes.byteLength);
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
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
