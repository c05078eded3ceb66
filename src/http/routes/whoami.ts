import { Hono } from 'hono';
import { whoami } from '../../core/access/whoami.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';

/** `GET /api/v1/whoami`: who the presented credential is; reachable whatever REG_PUBLIC_READ says. */
export function whoamiRoutes(): Mounts {
  const whoamiApi = new Hono<AppEnv>();
  whoamiApi.get('/', async (c) => c.json(await whoami(c.get('core'), c.get('principal'))));
  return [['/api/v1/whoami', whoamiApi]];
}
