import { Hono } from 'hono';
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
  instances.post('/:id/tokens', async (c) =>
    c.json(
      await mintInstanceToken(c.get('core'), c.get('act'), c.req.param('id'), await readOptionalJson(c)),
      201,
    ),
  );
  instances.get('/:id/tokens', async (c) =>
    c.json(await listInstanceTokens(c.get('core'), c.get('principal'), c.req.param('id'))),
  );
  instances.delete('/:id/tokens/:tid', async (c) => {
    await revokeInstanceToken(c.get('core'), c.get('act'), c.req.param('id'), c.req.param('tid'));
    return c.body(null, 204);
  });

  software.post('/:id/tokens', async (c) =>
    c.json(
      await mintSoftwareToken(c.get('core'), c.get('act'), c.req.param('id'), await readOptionalJson(c)),
      201,
    ),
  );
  software.get('/:id/tokens', async (c) =>
    c.json(await listSoftwareTokens(c.get('core'), c.get('principal'), c.req.param('id'))),
  );
  software.delete('/:id/tokens/:tid', async (c) => {
    await revokeSoftwareToken(c.get('core'), c.get('act'), c.req.param('id'), c.req.param('tid'));
    return c.body(null, 204);
  });
  return [
    ['/api/v1/instances', instances],
    ['/api/v1/software', software],
  ];
}
