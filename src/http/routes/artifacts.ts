import { Hono, type Context } from 'hono';
import type { Core } from '../../core/core.js';
import { idOf } from '../../core/records/ids.js';
import { listArtifacts, type ArtifactListParams } from '../../core/services/artifact-list.js';
import { artifactIri, getArtifact } from '../../core/services/artifact-view.js';
import { identify } from '../../core/services/identify.js';
import { lineage, lineageOptions } from '../../core/services/lineage.js';
import { readRecordQuads, type RecordKind } from '../../core/services/representations.js';
import { linkHeader, signpostingLinks } from '../../core/services/signposting.js';
import type { AppEnv } from '../env.js';
import { readJson } from '../body.js';

const LIST_PARAMS = [
  'q',
  'conforms_to',
  'license',
  'availability',
  'keyword',
  'instance',
  'software',
  'run',
  'content',
  'registry',
  'limit',
  'cursor',
] as const;

/**
 * The Signposting `Link` header of a record, the same one its IRI answers with; none for a record of another
 * registry read from a peer's cache (its links are its home registry's to give).
 */
export async function recordLink(core: Core, kind: RecordKind, iri: string): Promise<Record<string, string>> {
  if (!iri.startsWith(`${core.config.baseIri}/`)) return {};
  return {
    link: linkHeader(signpostingLinks(core.config.baseIri, await readRecordQuads(core, kind, idOf(iri)))),
  };
}

/**
 * Reading artifacts: the filtered list, one artifact (with Signposting), its lineage, and content identifiers
 * from digests. `POST /api/v1/artifacts` (registering one) belongs to the advertising routes.
 */
export function artifactRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Before `/:id`, so that `identify` is never read as an artifact id.
  app.get('/api/v1/artifacts/identify', (c) =>
    c.json(identify(c.get('core'), c.get('principal'), c.req.query())),
  );
  app.post('/api/v1/artifacts/identify', async (c: Context<AppEnv>) => {
    const body = await readJson(c);
    const input = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};
    return c.json(identify(c.get('core'), c.get('principal'), input as Record<string, unknown>));
  });
  app.get('/api/v1/artifacts', async (c) => {
    const params: ArtifactListParams = {};
    for (const name of LIST_PARAMS) {
      const value = c.req.query(name);
      if (value !== undefined) params[name] = value;
    }
    return c.json(await listArtifacts(c.get('core'), params));
  });
  app.get('/api/v1/artifacts/:id', async (c) => {
    const core = c.get('core');
    const record = await getArtifact(core, c.req.param('id'));
    return c.json(record, 200, await recordLink(core, 'artifact', artifactIri(core, c.req.param('id'))));
  });
  app.get('/api/v1/artifacts/:id/lineage', async (c) => {
    const options = lineageOptions(c.req.query('direction'), c.req.query('depth'));
    return c.json(await lineage(c.get('core'), c.req.param('id'), options));
  });
  return app;
}
