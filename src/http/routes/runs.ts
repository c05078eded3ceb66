import { Hono } from 'hono';
import { getRun, listRuns, type RunListParams } from '../../core/provenance/runs.js';
import type { AppEnv } from '../env.js';
import { replyJson } from '../reply.js';
import type { Mounts } from '../mounts.js';

/** The query parameters the list reads. */
export const RUN_LIST_PARAMS = [
  'q',
  'instance',
  'software',
  'status',
  'registry',
  'limit',
  'cursor',
] as const;

/**
 * Reading runs: the filtered list, and one run with what it used and generated (Signposting comes from
 * `signpostedReads`).
 */
export function runRoutes(): Mounts {
  const runs = new Hono<AppEnv>();
  runs.get('/', async (c) => {
    const params: RunListParams = {};
    for (const name of RUN_LIST_PARAMS) {
      const value = c.req.query(name);
      if (value !== undefined) params[name] = value;
    }
    return replyJson(c, await listRuns(c.get('core'), params));
  });
  runs.get('/:id', async (c) => replyJson(c, await getRun(c.get('core'), c.req.param('id'))));
  return [['/api/v1/runs', runs]];
}
