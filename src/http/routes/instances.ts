import { Hono, type Context } from 'hono';
import {
  createInstance,
  declareInstanceCapability,
  getInstanceFor,
  listInstanceArtifacts,
  listInstanceRuns,
  updateInstance,
  withdrawInstance,
} from '../../core/catalogue/instances.js';
import { listInstances } from '../../core/catalogue/instance-list.js';
import { announceInstance } from '../../core/catalogue/self-registration.js';
import type { AppEnv } from '../env.js';
import { replyJson } from '../reply.js';
import type { Mounts } from '../mounts.js';
import { readJson } from '../body.js';
import { conditionalEdit } from '../record-conditions.js';
import { iriOf } from '../../core/stored/records.js';
import { listQuery } from '../list-query.js';
import { listInstanceHistory } from '../../core/deployment/history.js';

/** `/api/v1/instances`: register, read, list, edit and withdraw deployments, and declare their capability. */
export function instanceRoutes(): Mounts {
  const instances = new Hono<AppEnv>();
  const named = (c: Context<AppEnv>) => iriOf(c.get('core'), 'instance', c.req.param('id') ?? '');
  // The deployment a credential announces is not named in the path: If-Match applies to the one it edits.
  instances.put(
    '/self',
    conditionalEdit(() => undefined, true),
    async (c) => {
      const result = await announceInstance(c.get('core'), c.get('act'), await readJson(c));
      return c.json(result.record, result.created ? 201 : 200);
    },
  );
  instances.get('/', async (c) => {
    return replyJson(c, await listInstances(c.get('core'), listQuery(c, 'instance')));
  });
  instances.post('/', async (c) =>
    c.json(await createInstance(c.get('core'), c.get('act'), await readJson(c)), 201),
  );
  instances.get('/:id', async (c) =>
    replyJson(c, await getInstanceFor(c.get('core'), c.get('principal'), c.req.param('id'))),
  );
  instances.patch('/:id', conditionalEdit(named, true), async (c) =>
    c.json(await updateInstance(c.get('core'), c.get('act'), c.req.param('id'), await readJson(c))),
  );
  instances.delete('/:id', conditionalEdit(named), async (c) => {
    await withdrawInstance(c.get('core'), c.get('act'), c.req.param('id'));
    return c.body(null, 204);
  });
  instances.put('/:id/capability', conditionalEdit(named), async (c) =>
    c.json(
      await declareInstanceCapability(c.get('core'), c.get('act'), c.req.param('id'), await readJson(c)),
    ),
  );
  instances.get('/:id/runs', async (c) =>
    c.json(await listInstanceRuns(c.get('core'), c.req.param('id'), pagingOf(c.req.query()))),
  );
  instances.get('/:id/artifacts', async (c) =>
    c.json(await listInstanceArtifacts(c.get('core'), c.req.param('id'), pagingOf(c.req.query()))),
  );
  instances.get('/:id/history', async (c) =>
    c.json(await listInstanceHistory(c.get('core'), c.req.param('id'), pagingOf(c.req.query()))),
  );
  return [['/api/v1/instances', instances]];
}

/** The paging parameters of a deployment's run and artifact lists (their other filters come from the path). */
function pagingOf(query: Record<string, string>): { limit?: string; cursor?: string } {
  return {
    ...(query.limit === undefined ? {} : { limit: query.limit }),
    ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
  };
}
