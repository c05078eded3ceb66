import { Hono } from 'hono';
import { getRun, listRuns, runIri, type RunListParams } from '../../core/services/runs.js';
import type { AppEnv } from '../env.js';
import { recordLink } from './artifacts.js';

const LIST_PARAMS = ['q', 'instance', 'software', 'status', 'registry', 'limit', 'cursor'] as const;

/** Reading runs: the filtered list, and one run with what it used and generated (with Signposting). */
export function runRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/api/v1/runs', async (c) => {
    const params: RunListParams = {};
    for (const name of LIST_PARAMS) {
      const value = c.req.query(name);
      if (value !== undefined) params[name] = value;
    }
    return c.json(await listRuns(c.get('core'), params));
  });
  app.get('/api/v1/runs/:id', async (c) => {
    const core = c.get('core');
    const record = await getRun(core, c.req.param('id'));
    return c.json(record, 200, await recordLink(core, 'run', runIri(core, c.req.param('id'))));
  });
  return app;
}
