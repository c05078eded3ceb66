import type { MiddlewareHandler } from 'hono';
import type { Core } from '../core/core.js';
import type { AppEnv } from './env.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Names, in a `warnings` list of a successful write's JSON answer, the members of the request that were ignored
 * because no record defines them. Older and newer clients keep working, and a typo is still seen.
 */
export function writeWarnings(core: Core): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!WRITES.has(c.req.method)) return next();
    const { warnings } = await core.warnings.collect(async () => {
      await next();
    });
    const type = c.res.headers.get('content-type') ?? '';
    if (warnings.length === 0 || !c.res.ok || !type.startsWith('application/json')) return;
    const body: unknown = await c.res.clone().json();
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
    // Hono carries the old answer's headers over to the new one: its length must not come along.
    c.res.headers.delete('content-length');
    c.res = new Response(JSON.stringify({ ...body, warnings }), {
      status: c.res.status,
      headers: c.res.headers,
    });
  };
}
