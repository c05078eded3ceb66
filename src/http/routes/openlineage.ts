import { Hono } from 'hono';
import { ingestOpenLineage } from '../../core/provenance/openlineage.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';
import { readJson } from '../body.js';

/** Native OpenLineage RunEvents, mapped onto runs and artifacts of the calling deployment. */
export function openLineageRoutes(): Mounts {
  const openlineage = new Hono<AppEnv>();
  openlineage.post('/', async (c) =>
    c.json(await ingestOpenLineage(c.get('core'), c.get('act'), await readJson(c)), 202),
  );
  return [['/api/v1/openlineage', openlineage]];
}
