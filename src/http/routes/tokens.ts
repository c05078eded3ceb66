import { Hono, type Context } from 'hono';
import {
  listInstanceTokens,
  listSoftwareTokens,
  mintInstanceToken,
  mintSoftwareToken,
  revokeInstanceToken,
  revokeSoftwareToken,
} from '../../core/access/tokens.js';
import type { AppEnv } from '../env.js';
import { readOptionalJson } from '../body.js';

/** `/api/v1/{instances,software}/{id}/tokens`: issue, list and revoke registry API tokens. */
export function tokenRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const who = (c: Context<AppEnv>) => [c.get('core'), c.get('principal'), c.req.param('id') ?? ''] as const;
  const options = (c: Context<AppEnv>) => ({ requestId: c.get('requestId') });

  app.post('/api/v1/instances/:id/tokens', async (c) =>
    c.json(await mintInstanceToken(...who(c), await readOptionalJson(c), options(c)), 201),
  );
  app.get('/api/v1/instances/:id/tokens', async (c) => c.json(await listInstanceTokens(...who(c))));
  app.delete('/api/v1/instances/:id/tokens/:tid', async (c) => {
    await revokeInstanceToken(...who(c), c.req.param('tid'), options(c));
    return c.body(null, 204);
  });

  app.post('/api/v1/software/:id/tokens', async (c) =>
    c.json(await mintSoftwareToken(...who(c), await readOptionalJson(c), options(c)), 201),
  );
  app.get('/api/v1/software/:id/tokens', async (c) => c.json(await listSoftwareTokens(...who(c))));
  app.delete('/api/v1/software/:id/tokens/:tid', async (c) => {
    await revokeSoftwareToken(...who(c), c.req.param('tid'), options(c));
    return c.body(null, 204);
  });
  return app;
}
