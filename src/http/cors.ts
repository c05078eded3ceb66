import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.js';

/** Paths left alone: the probes and the web page's own assets, which no other page has reason to read. */
const UNSHARED = /^\/(?:healthz|readyz|metrics|assets\/.*)$/;
/** POSTs that only read (a query or a digest in the body), which pages of any origin may send anonymously. */
const READING_POSTS = /^\/(?:sparql|mcp|api\/v1\/artifacts\/identify)\/?$/;
/** Request headers that carry or pick a credential: asking for them makes a call credentialed. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'x-reg-instance-key']);
/** Every method the API answers, allowed to listed origins. */
const ALL_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** Response headers a page may read beyond the CORS-safelisted ones. */
const EXPOSED = [
  'Link',
  'Location',
  'ETag',
  'Content-Location',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'WWW-Authenticate',
  'Allow',
  'X-Request-Id',
].join(', ');
/** How long a browser may keep a preflight answer (seconds). */
const MAX_AGE = '600';

/**
 * Cross-origin access for pages of other sites. Anonymous reads are open to every origin (`*`, no credentials).
 * Calls with a credential and writes are open only to the origins of `REG_CORS_ORIGINS`, which are echoed with
 * `Access-Control-Allow-Credentials`; a preflight for them from any other origin gets no allow headers, so the
 * browser never sends the call. Preflights (OPTIONS with Access-Control-Request-Method) are answered here, before
 * authentication and rate limits; an OPTIONS request that is no preflight goes on (to its 405).
 */
export function cors(origins: readonly string[]): MiddlewareHandler<AppEnv> {
  const listed = new Set(origins);
  const varies = listed.size > 0;
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin === undefined || UNSHARED.test(c.req.path)) return next();
    const asked = c.req.header('access-control-request-method');
    if (c.req.method === 'OPTIONS' && asked !== undefined)
      return preflight(c, origin, asked.trim().toUpperCase());
    await next();
    if (listed.has(origin)) {
      decorate(
        c,
        { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true' },
        true,
      );
    } else if (!credentialed(c.req.method, c.req.path, c.req.header('authorization') !== undefined)) {
      decorate(c, { 'access-control-allow-origin': '*' }, varies);
    }
  };

  function preflight(c: Context<AppEnv>, origin: string, method: string): Response {
    const requested = (c.req.header('access-control-request-headers') ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== '');
    const headers = new Headers({
      vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    });
    const allow = (allowOrigin: string, methods: string): void => {
      headers.set('access-control-allow-origin', allowOrigin);
      headers.set('access-control-allow-methods', methods);
      if (requested.length > 0) headers.set('access-control-allow-headers', requested.join(', '));
      headers.set('access-control-max-age', MAX_AGE);
    };
    if (listed.has(origin)) {
      allow(origin, ALL_METHODS);
      headers.set('access-control-allow-credentials', 'true');
    } else if (
      !credentialed(
        method,
        c.req.path,
        requested.some((name) => CREDENTIAL_HEADERS.has(name)),
      )
    ) {
      allow('*', READING_POSTS.test(c.req.path) ? 'GET, HEAD, POST' : 'GET, HEAD');
    }
    headers.set('x-request-id', c.get('requestId'));
    return new Response(null, { status: 204, headers });
  }
}

/** Puts the CORS headers on an answer, in place when its headers may change (copying costs more). */
function decorate(c: Context<AppEnv>, allow: Record<string, string>, vary: boolean): void {
  const fields = { ...allow, 'access-control-expose-headers': EXPOSED };
  try {
    for (const [name, value] of Object.entries(fields)) c.res.headers.set(name, value);
    if (vary) c.res.headers.append('vary', 'Origin');
  } catch {
    // An answer whose headers are immutable is copied by Hono.
    for (const [name, value] of Object.entries(fields)) c.header(name, value);
    if (vary) c.header('vary', 'Origin', { append: true });
  }
}

/** Whether a call needs a listed origin: it carries a credential, or it writes. */
function credentialed(method: string, path: string, withCredential: boolean): boolean {
  if (withCredential) return true;
  if (method === 'GET' || method === 'HEAD') return false;
  return !(method === 'POST' && READING_POSTS.test(path));
}
