import { Hono } from 'hono';
import { checkReadiness, describeRegistry, renderMetrics, summariseRegistry } from '../../core/ops/status.js';
import { agentPointers } from '../../core/discovery/llms-txt.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';

/**
 * Liveness, readiness and metrics: reachable without a credential whatever REG_PUBLIC_READ says. `moreMetrics`
 * gives lines the HTTP layer counts itself (the rate limiter's refusals).
 */
export function probeRoutes(moreMetrics: () => string = () => ''): Mounts {
  const healthz = new Hono<AppEnv>();
  const readyz = new Hono<AppEnv>();
  const metrics = new Hono<AppEnv>();
  healthz.get('/', (c) => c.json({ status: 'ok' }));
  readyz.get('/', async (c) => c.json(await checkReadiness(c.get('core'))));
  metrics.get('/', async (c) => {
    c.header('content-type', 'text/plain; version=0.0.4; charset=utf-8');
    return c.body(`${await renderMetrics(c.get('core'))}${moreMetrics()}`);
  });
  return [
    ['/healthz', healthz],
    ['/readyz', readyz],
    ['/metrics', metrics],
  ];
}

/** The registry's public self-description, and its summary with the counts of what it holds. */
export function wellKnownRoutes(): Mounts {
  const wellKnown = new Hono<AppEnv>();
  const registry = new Hono<AppEnv>();
  // The MCP endpoint is named beside the API, so that an agent finds it from the registry's description.
  wellKnown.get('/reg-registry', (c) =>
    c.json({
      ...describeRegistry(c.get('core')),
      mcp_url: `${c.get('core').config.baseIri}/mcp`,
      ...agentPointers(c.get('core').config.baseIri),
    }),
  );
  registry.get('/', async (c) => c.json(await summariseRegistry(c.get('core'), c.get('principal'))));
  return [
    ['/.well-known', wellKnown],
    ['/api/v1/registry', registry],
  ];
}
