import type { Context } from 'hono';
import { BadRequestError, UnsupportedMediaTypeError } from '../core/errors.js';
import type { AppEnv } from './env.js';

/** Reads a JSON request body; a missing or malformed body is a 400, another media type a 415. */
export async function readJson(c: Context<AppEnv>): Promise<unknown> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
    throw new UnsupportedMediaTypeError(`send the body as application/json, not ${type}`);
  }
  const text = await c.req.text();
  if (text.trim() === '') throw new BadRequestError('the request body is empty: send a JSON object');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BadRequestError(`the request body is not valid JSON: ${(error as Error).message}`);
  }
}
