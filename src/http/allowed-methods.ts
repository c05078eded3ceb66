import type { Hono } from 'hono';
import type { AppEnv } from './env.js';

/** A Hono route path read once: its OpenAPI path template, its parameter names and a pattern over request paths. */
export interface RoutePath {
  /** `/api/v1/software/{id}` for `/api/v1/software/:id{[^/]+}`. */
  readonly template: string;
  readonly params: readonly string[];
  /** Matches the request paths the route answers (a trailing slash allowed). */
  readonly pattern: RegExp;
}

/**
 * Reads a Hono route path: `:name` and `:name{regex}` are parameters (the regex, when given, is what the value
 * must match), `*` matches anything. The one reading of route paths the 405 answers, the OpenAPI description and
 * its test share.
 */
export function routePath(path: string): RoutePath {
  const params: string[] = [];
  let template = '';
  let source = '';
  // With a capturing separator, the odd parts are the parameters and wildcards, the even ones literal text.
  path.split(/(:[A-Za-z_][A-Za-z0-9_]*(?:\{[^}]*\})?|\*)/).forEach((part, index) => {
    if (index % 2 === 0) {
      template += part;
      source += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    } else if (part === '*') {
      template += part;
      source += '.*';
    } else {
      const name = /^:([A-Za-z_][A-Za-z0-9_]*)/.exec(part)?.[1] ?? '';
      const custom = /\{(.*)\}$/.exec(part)?.[1];
      params.push(name);
      template += `{${name}}`;
      source += custom === undefined ? '[^/]+' : `(?:${custom})`;
    }
  });
  return { template, params, pattern: new RegExp(`^${source}/?$`) };
}

/**
 * The methods the application's routes answer on a path, for a 405 answer with `Allow` when a request's method
 * is not among them. Handlers registered for every method (middleware) are not counted; a path only they match is
 * not a resource. GET implies HEAD.
 */
export function allowedMethods(app: Hono<AppEnv>): (path: string) => string[] {
  const routes = app.routes
    .filter((route) => route.method !== 'ALL')
    .map((route) => ({ method: route.method.toUpperCase(), pattern: routePath(route.path).pattern }));
  return (path) => {
    const methods = new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}
