import { Hono } from 'hono';
import type { AppEnv } from '../env.js';

/** Routes of this area; filled in by the record API. */
export function recordRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
