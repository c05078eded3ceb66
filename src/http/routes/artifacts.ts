import { Hono, type Context } from 'hono';
import { listArtifacts } from '../../core/provenance/artifact-list.js';
import { getArtifact } from '../../core/provenance/artifact-view.js';
import { identify, identifyContent } from '../../core/provenance/identify.js';
import { columnLineage } from '../../core/provenance/column-lineage.js';
import { lineage, lineageOptions } from '../../core/provenance/lineage.js';
import type { AppEnv } from '../env.js';
import { replyJson } from '../reply.js';
import type { Mounts } from '../mounts.js';
import { readJson } from '../body.js';
import { listQuery } from '../list-query.js';

/**
 * Reading artifacts: the filtered list, one artifact (Signposting comes from `signpostedReads`), its lineage, and content identifiers
 * from digests. `POST /api/v1/artifacts` (registering one) belongs to the advertising routes.
 */
export function artifactRoutes(): Mounts {
  const artifacts = new Hono<AppEnv>();
  // Before `/:id`, so that `identify` is never read as an artifact id.
  artifacts.get('/identify', (c) => c.json(identify(c.get('core'), c.get('principal'), c.req.query())));
  artifacts.post('/identify', async (c: Context<AppEnv>) => {
    const body = await readJson(c);
    const input = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};
    return c.json(identify(c.get('core'), c.get('principal'), input as Record<string, unknown>));
  });
  artifacts.get('/', async (c) => {
    return replyJson(c, await listArtifacts(c.get('core'), listQuery(c, 'artifact')));
  });
  artifacts.get('/:id', async (c) => replyJson(c, await getArtifact(c.get('core'), c.req.param('id'))));
  artifacts.get('/:id/column-lineage', async (c) =>
    c.json(await columnLineage(c.get('core'), c.req.param('id'))),
  );
  artifacts.get('/:id/lineage', async (c) => {
    const options = lineageOptions(c.req.query());
    return replyJson(c, await lineage(c.get('core'), c.req.param('id'), options));
  });
  // Any content name (ni:, hash://, hex, OCI digest, DigestSet, SWHID) to every record holding that content.
  const content = new Hono<AppEnv>();
  content.get('/', async (c) =>
    c.json(await identifyContent(c.get('core'), c.get('principal'), c.req.query())),
  );
  return [
    ['/api/v1/artifacts', artifacts],
    ['/api/v1/identify', content],
  ];
}
