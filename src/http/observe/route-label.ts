import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../env.js';

/** The route label of a request no route answers (a path the API does not know, a page of the web application). */
export const UNMATCHED_ROUTE = '(unmatched)';

/**
 * The route template of a request (`/api/v1/software/:id`), never its concrete path, so that labels stay few. A
 * request refused by a middleware (a bad credential, a rate limit, a body too large) is labelled with the route
 * that would have answered it; a request no route takes is labelled `(unmatched)`.
 */
export function routeTemplate(c: Context<AppEnv>): string {
  const routes = matchedRoutes(c);
  const from = Math.max(c.req.routeIndex, 0);
  for (let at = from; at < routes.length; at++) {
    const route = routes[at];
    // Middlewares take (context, next); handlers take the context alone.
    if (route !== undefined && route.handler.length < 2 && !isCatchAll(route.path)) return route.path;
  }
  return UNMATCHED_ROUTE;
}

/** Paths every request matches: the web application's pages and middlewares mounted everywhere. */
function isCatchAll(path: string): boolean {
  return path === '/*' || path === '*';
}

/** `2xx`, `4xx`...: the status class the latency histograms are split by. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/** What kind of caller made the request, never who: the access log and traces carry this, not the subject. */
export function principalKind(c: Context<AppEnv>): string {
  const principal = c.get('principal') as AppEnv['Variables']['principal'] | undefined;
  if (principal === undefined)
    return c.req.header('authorization') === undefined ? 'anonymous' : 'unverified';
  switch (principal.credential) {
    case 'none':
      return 'anonymous';
    case 'root-token':
      return 'root';
    default:
      return principal.credential;
  }
}
