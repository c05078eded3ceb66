import { Hono } from 'hono';
import { advertise, registerArtifact } from '../../core/provenance/advertise.js';
import { BadRequestError } from '../../core/errors.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';
import { readJson } from '../body.js';

/** Advertising runs and artifacts, and registering an artifact without a run. */
export function advertiseRoutes(): Mounts {
  const advertiseApi = new Hono<AppEnv>();
  const artifacts = new Hono<AppEnv>();
  for (const role of ['produced', 'consumed'] as const) {
    advertiseApi.post(`/${role}`, async (c) => {
      // `?dry_run=true` checks and maps the call as a real one would, and answers 200 having written nothing.
      const dryRun = c.req.query('dry_run');
      if (dryRun !== undefined && dryRun !== 'true' && dryRun !== 'false')
        throw new BadRequestError('dry_run must be true or false');
      const result = await advertise(c.get('core'), c.get('act'), role, await readJson(c), {
        dryRun: dryRun === 'true',
      });
      return c.json(result, result.created && dryRun !== 'true' ? 201 : 200);
    });
  }
  artifacts.post('/', async (c) =>
    c.json(await registerArtifact(c.get('core'), c.get('act'), await readJson(c)), 201),
  );
  return [
    ['/api/v1/advertise', advertiseApi],
    ['/api/v1/artifacts', artifacts],
  ];
}
