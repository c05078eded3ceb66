import { Hono, type Context } from 'hono';
import {
  createSoftware,
  declareSoftwareCapability,
  getSoftware,
  listSoftware,
  updateSoftware,
  withdrawSoftware,
} from '../../core/catalogue/software.js';
import type { AppEnv } from '../env.js';
import { replyJson } from '../reply.js';
import type { Mounts } from '../mounts.js';
import { readJson } from '../body.js';
import { conditionalEdit } from '../record-conditions.js';
import { iriOf } from '../../core/stored/records.js';
import { listQuery } from '../list-query.js';

/**
 * `/api/v1/software`: register, read, list, edit and withdraw software, and declare its capability. Edits honour
 * `If-Match` with the ETag of a read of the software.
 */
export function softwareRoutes(): Mounts {
  const software = new Hono<AppEnv>();
  const named = (c: Context<AppEnv>) => iriOf(c.get('core'), 'software', c.req.param('id') ?? '');
  software.get('/', async (c) => {
    return replyJson(c, await listSoftware(c.get('core'), listQuery(c, 'software')));
  });
  software.post('/', async (c) =>
    c.json(await createSoftware(c.get('core'), c.get('act'), await readJson(c)), 201),
  );
  software.get('/:id', async (c) => replyJson(c, await getSoftware(c.get('core'), c.req.param('id'))));
  software.patch('/:id', conditionalEdit(named, true), async (c) =>
    c.json(await updateSoftware(c.get('core'), c.get('act'), c.req.param('id'), await readJson(c))),
  );
  software.delete('/:id', conditionalEdit(named), async (c) => {
    await withdrawSoftware(c.get('core'), c.get('act'), c.req.param('id'));
    return c.body(null, 204);
  });
  software.put('/:id/capability', conditionalEdit(named), async (c) =>
    c.json(
      await declareSoftwareCapability(c.get('core'), c.get('act'), c.req.param('id'), await readJson(c)),
    ),
  );
  return [['/api/v1/software', software]];
}
