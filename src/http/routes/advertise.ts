import { Hono } from 'hono';
import { advertise, registerArtifact } from '../../core/provenance/advertise.js';
import type { AppEnv } from '../env.js';
import { readJson } from '../body.js';

/** Advertising runs and artifacts, and registering an artifact without a run. */
export function advertiseRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (const role of ['produced', 'consumed'] as const) {
    app.post(`/api/v1/advertise/${role}`, async (c) => {
      const result = await advertise(c.get('core'), c.get('principal'), role, await readJson(c), {
        requestId: c.get('requestId'),
      });
      return c.json(result, result.created ? 201 : 200);
    });
  }
  app.post('/api/v1/artifacts', async (c) =>
    c.json(
      await registerArtifact(c.get('core'), c.get('principal'), await readJson(c), c.get('requestId')),
      201,
    ),
  );
  return app;
}
