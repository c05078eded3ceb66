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
import type { Mounts } from '../mounts.js';
import { readOptionalJson } from '../body.js';

/** `/api/v1/{instances,software}/{id}/tokens`: issue, list and revoke registry API tokens. */
export function tokenRoutes(): Mounts {
  const instances = new Hono<AppEnv>();
  const software = new Hono<AppEnv>();
  const who = (c: Context<AppEnv>) => [c.get('core'), c.get('principal'), c.req.param('id') ?? ''] as const;
  const options = (c: Context<AppEnv>) => ({ requestId: c.get('requestId') });

  instances.post('/:id/tokens', async (c) =>
    c.json(await mintInstanceToken(...who(c), await readOptionalJson(c), options(c)), 201),
  );
  instances.get('/:id/tokens', async (c) => c.json(await listInstanceTokens(...who(c))));
  instances.delete('/:id/tokens/:tid', async (c) => {
    await revokeInstanceToken(...who(c), c.req.param('tid'), options(c));
    return c.body(null, 204);
  });

  software.post('/:id/tokens', async (c) =>
    c.json(await mintSoftwareToken(...who(c), await readOptionalJson(c), options(c)), 201),
  );
  software.get('/:id/tokens', async (c) => c.json(await listSoftwareTokens(...who(c))));
  software.delete('/:id/tokens/:tid', async (c) => {
    await revokeSoftwareToken(...who(c), c.req.param('tid'), options(c));
    return c.body(null, 204);
  });
  return [
    ['/api/v1/instances', instances],
    ['/api/v1/software', software],
  ];
}
