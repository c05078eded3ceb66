import { Hono } from 'hono';
import { whoami } from '../../core/access/whoami.js';
import type { AppEnv } from '../env.js';

/** `GET /api/v1/whoami`: who the presented credential is; reachable whatever REG_PUBLIC_READ says. */
export function whoamiRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/api/v1/whoami', async (c) => c.json(await whoami(c.get('core'), c.get('principal'))));
  return app;
}
