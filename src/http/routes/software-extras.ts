import { Hono } from 'hono';
import { fetchApiDoc } from '../../core/catalogue/api-doc.js';
import { exportCatalogue } from '../../core/catalogue/export-catalogue.js';
import { syncSoftware } from '../../core/forge/forge-sync.js';
import { softwareDeployments } from '../../core/deployment/deployments-view.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';

/**
 * `/api/v1/software/:id/api-doc` (one declared API description, fetched by the registry and passed through
 * with its upstream content type), `/api/v1/software/:id/export/catalogue` (the tool catalogue shape) and
 * `POST /api/v1/software/:id/sync` (a forge sync now; the record with the run's outcome in `sync`).
 */
export function softwareExtraRoutes(): Mounts {
  const software = new Hono<AppEnv>();
  software.get('/:id/api-doc', async (c) => {
    const doc = await fetchApiDoc(c.get('core'), c.req.param('id'), c.req.query('n'));
    // The bytes come from another origin: never let a browser run them as this registry's page.
    return c.body(new Uint8Array(doc.body), 200, {
      'content-type': doc.content_type,
      'content-security-policy': "sandbox; default-src 'none'",
      'x-content-type-options': 'nosniff',
      link: `<${doc.final_url}>; rel="via"`,
    });
  });
  software.get('/:id/export/catalogue', async (c) =>
    c.json(await exportCatalogue(c.get('core'), c.req.param('id'))),
  );
  software.post('/:id/sync', async (c) =>
    c.json(await syncSoftware(c.get('core'), c.get('act'), c.req.param('id'))),
  );
  software.get('/:id/deployments', async (c) =>
    c.json(await softwareDeployments(c.get('core'), c.req.param('id'))),
  );
  return [['/api/v1/software', software]];
}
