import { Hono, type Context } from 'hono';
import { createRelease, listReleases, withdrawRelease } from '../../core/services/releases.js';
import type { AppEnv } from '../env.js';
import { readJson } from '../body.js';

/** `/api/v1/software/{id}/releases`: list, register and withdraw the releases of a software. */
export function releaseRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const who = (c: Context<AppEnv>) => [c.get('core'), c.get('principal')] as const;
  app.get('/api/v1/software/:id/releases', async (c) =>
    c.json(await listReleases(c.get('core'), c.req.param('id'))),
  );
  app.post('/api/v1/software/:id/releases', async (c) =>
    c.json(await createRelease(...who(c), c.req.param('id'), await readJson(c), c.get('requestId')), 201),
  );
  app.delete('/api/v1/software/:id/releases/:release_id', async (c) => {
    await withdrawRelease(...who(c), c.req.param('id'), c.req.param('release_id'), c.get('requestId'));
    return c.body(null, 204);
  });
  return app;
}
