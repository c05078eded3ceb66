import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { sharedJson } from '../core/stored/memoised.js';
import type { AppEnv } from './env.js';

/**
 * Answers with `value` as JSON, like `c.json`, but a memoised answer (a record or a list page read since the
 * last write) is serialised once and its text reused for every later reader, which on a busy list is most of
 * what answering costs.
 */
export function replyJson(c: Context<AppEnv>, value: unknown, status: ContentfulStatusCode = 200): Response {
  const text = sharedJson(value);
  if (text === undefined) return c.json(value, status);
  c.header('content-type', 'application/json');
  return c.body(text, status);
}
