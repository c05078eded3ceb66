import { Hono } from 'hono';
import { getRun, listRuns } from '../../core/provenance/runs.js';
import type { AppEnv } from '../env.js';
import { replyJson } from '../reply.js';
import type { Mounts } from '../mounts.js';
import { listQuery } from '../list-query.js';

/**
 * Reading runs: the filtered list, and one run with what it used and generated (Signposting comes from
 * `signpostedReads`).
 */
export function runRoutes(): Mounts {
  const runs = new Hono<AppEnv>();
  runs.get('/', async (c) => {
    return replyJson(c, await listRuns(c.get('core'), listQuery(c, 'run')));
  });
  runs.get('/:id', async (c) => replyJson(c, await getRun(c.get('core'), c.req.param('id'))));
  return [['/api/v1/runs', runs]];
}
