import type { Hono } from 'hono';
import type { AppEnv } from './env.js';

/** A route's path pattern as a regular expression over a request path. */
function patternOf(path: string): RegExp {
  let source = '';
  for (const part of path.split(/(:[A-Za-z_][A-Za-z0-9_]*(?:\{[^}]*\})?|\*)/)) {
    if (part === '*') source += '.*';
    else if (part.startsWith(':')) {
      const custom = /\{(.*)\}$/.exec(part)?.[1];
      source += custom === undefined ? '[^/]+' : `(?:${custom})`;
    } else source += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}/?$`);
}

/**
 * The methods the application's routes answer on a path, for a 405 answer with `Allow` when a request's method
 * is not among them. Handlers registered for every method (middleware) are not counted; a path only they match is
 * not a resource. GET implies HEAD.
 */
export function allowedMethods(app: Hono<AppEnv>): (path: string) => string[] {
  const routes = app.routes
    .filter((route) => route.method !== 'ALL')
    .map((route) => ({ method: route.method.toUpperCase(), pattern: patternOf(route.path) }));
  return (path) => {
    const methods = new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}
