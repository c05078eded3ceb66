import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { INSTANCE_KEY_HEADER } from '../core/access/acting-deployment.js';
import { resolveCredential } from '../core/access/credentials.js';
import { requireReader } from '../core/access/policy.js';
import type { Core } from '../core/core.js';
import { PayloadTooLargeError, UnauthorizedError } from '../core/errors.js';
import { actOf } from '../core/stored/write-path.js';
import type { AppEnv } from './env.js';
import type { WebPage } from './web.js';

/** Paths anyone may read even when REG_PUBLIC_READ is false. */
const ALWAYS_PUBLIC = [
  /^\/healthz$/,
  /^\/readyz$/,
  /^\/metrics$/,
  /^\/sparql$/,
  /^\/\.well-known\//,
  /^\/api\/v1\/whoami$/,
  /^\/api\/v1\/registry$/,
];

/** Gives each request an id (the caller's `x-request-id` when it is sane) and echoes it back. */
export function requestId(core: Core): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const given = c.req.header('x-request-id');
    const id = given !== undefined && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID();
    c.set('core', core);
    c.set('requestId', id);
    c.header('x-request-id', id);
    await next();
  };
}

/**
 * Refuses bodies above REG_MAX_PAYLOAD_BYTES (413) before any handler parses them. A body of declared length
 * is judged by its header alone, which leaves the handler to read it straight from the socket; only a chunked
 * body, whose size is known once it is read, is counted as it streams in.
 */
export function payloadLimit(core: Core): MiddlewareHandler<AppEnv> {
  const limit = core.config.maxPayloadBytes;
  const refuse = (): never => {
    throw new PayloadTooLargeError(limit);
  };
  const counted = bodyLimit({ maxSize: limit, onError: refuse });
  return async (c, next) => {
    if (c.req.header('transfer-encoding') !== undefined) return counted(c, next);
    const length = c.req.header('content-length');
    if (length !== undefined && !(Number(length) <= limit)) refuse();
    await next();
  };
}

/**
 * Resolves the bearer credential once into a principal (with the `instance_key` sent in X-Reg-Instance-Key,
 * which picks one of the deployments a shared credential registered), and applies the public-read switch. A
 * browser asking a private registry for a page without a credential gets the web page's shell, which holds no
 * records and asks it to sign in (browsers send no bearer on navigation; the page sends it with each API
 * request). A credential refused (401) is reported to `failed`, which counts it against the client's address.
 */
export function authenticate(
  core: Core,
  web?: WebPage,
  failed?: (c: Context<AppEnv>) => void,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // A dry run writes nothing, not even the deployment a trusted publisher registers at a token's first use.
    const principal = await resolveCredential(
      core,
      c.req.header('authorization'),
      c.req.header(INSTANCE_KEY_HEADER),
      c.req.query('dry_run') !== 'true',
    ).catch((error: unknown) => {
      if (error instanceof UnauthorizedError) failed?.(c);
      throw error;
    });
    c.set('principal', principal);
    const reading = c.req.method === 'GET' || c.req.method === 'HEAD';
    if (reading && !core.config.publicRead && !ALWAYS_PUBLIC.some((re) => re.test(c.req.path))) {
      if (!principal.authenticated && web?.serves(c) === true) return web.respond(c, 200);
      requireReader(principal);
    }
    await next();
  };
}

/**
 * Makes an authenticated request one act of its caller, for the write services: the principal, the request id
 * and the instant the request got this far, which the records it writes are dated with.
 */
export function stampAct(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('act', actOf(c.get('principal'), c.get('requestId')));
    await next();
  };
}
