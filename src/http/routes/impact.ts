import { Hono } from 'hono';
import { impact, impactOptions } from '../../core/insight/impact.js';
import { observedCapability, observedDays } from '../../core/insight/observed.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';

/**
 * `GET /api/v1/impact?of=…` (what an artifact, a release, a content identifier or an image digest affected) and
 * the observed capability of a software and of a deployment (`GET /api/v1/software/{id}/observed-capability`,
 * `GET /api/v1/instances/{id}/observed-capability`).
 */
export function impactRoutes(): Mounts {
  const answer = new Hono<AppEnv>();
  const software = new Hono<AppEnv>();
  const instances = new Hono<AppEnv>();
  answer.get('/', async (c) => {
    const options = impactOptions({
      depth: c.req.query('depth'),
      max_nodes: c.req.query('max_nodes'),
      max_edges: c.req.query('max_edges'),
      time_budget_ms: c.req.query('time_budget_ms'),
      as_of: c.req.query('as_of'),
      cursor: c.req.query('cursor'),
    });
    return c.json(await impact(c.get('core'), c.get('principal'), c.req.query('of'), options));
  });
  software.get('/:id/observed-capability', async (c) =>
    c.json(
      await observedCapability(
        c.get('core'),
        'software',
        c.req.param('id'),
        observedDays(c.req.query('days')),
      ),
    ),
  );
  instances.get('/:id/observed-capability', async (c) =>
    c.json(
      await observedCapability(
        c.get('core'),
        'instance',
        c.req.param('id'),
        observedDays(c.req.query('days')),
      ),
    ),
  );
  return [
    ['/api/v1/impact', answer],
    ['/api/v1/software', software],
    ['/api/v1/instances', instances],
  ];
}
