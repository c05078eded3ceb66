import { Hono } from 'hono';
import { checkReadiness, describeRegistry, renderMetrics, summariseRegistry } from '../../core/ops/status.js';
import type { AppEnv } from '../env.js';

/** Liveness, readiness and metrics: reachable without a credential whatever REG_PUBLIC_READ says. */
export function probeRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => c.json(await checkReadiness(c.get('core'))));
  app.get('/metrics', async (c) => {
    c.header('content-type', 'text/plain; version=0.0.4; charset=utf-8');
    return c.body(await renderMetrics(c.get('core')));
  });
  return app;
}

/** The registry's public self-description, and its summary with the counts of what it holds. */
export function wellKnownRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/.well-known/reg-registry', (c) => c.json(describeRegistry(c.get('core'))));
  app.get('/api/v1/registry', async (c) =>
    c.json(await summariseRegistry(c.get('core'), c.get('principal'))),
  );
  return app;
}
