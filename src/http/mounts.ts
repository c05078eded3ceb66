import type { Hono } from 'hono';
import type { AppEnv } from './env.js';

/**
 * A group of routes as the application mounts them: each resource's routes in a sub-application of their own,
 * with paths relative to the resource's prefix (`/api/v1/software`, `/sparql`, …).
 */
export type Mounts = readonly (readonly [prefix: string, routes: Hono<AppEnv>])[];

/** Mounts each sub-application at its prefix. */
export function mount(app: Hono<AppEnv>, ...groups: Mounts[]): void {
  for (const group of groups) for (const [prefix, routes] of group) app.route(prefix, routes);
}
