import { Hono, type Context } from 'hono';
import type { Core } from '../../core/core.js';
import { NotFoundError } from '../../core/errors.js';
import type { JsonObject } from '../../core/records/mapper.js';
import { createRelease, getRelease, listReleases, withdrawRelease } from '../../core/catalogue/releases.js';

import type { AppEnv } from '../env.js';
import { replyJson } from '../reply.js';
import type { Mounts } from '../mounts.js';
import { readJson } from '../body.js';
import { conditionalEdit } from '../record-conditions.js';
import { iriOf } from '../../core/stored/records.js';

/**
 * `/api/v1/software/{id}/releases`: list, register, read (with Signposting, from `signpostedReads`) and withdraw
 * the releases of a software.
 */
export function releaseRoutes(): Mounts {
  const software = new Hono<AppEnv>();
  software.get('/:id/releases', async (c) =>
    replyJson(c, await listReleases(c.get('core'), c.req.param('id'))),
  );
  software.post('/:id/releases', async (c) =>
    c.json(await createRelease(c.get('core'), c.get('act'), c.req.param('id'), await readJson(c)), 201),
  );
  software.get('/:id/releases/:release_id', async (c) =>
    c.json(await releaseOf(c.get('core'), c.req.param('id'), c.req.param('release_id'))),
  );
  const named = (c: Context<AppEnv>) => iriOf(c.get('core'), 'release', c.req.param('release_id') ?? '');
  software.delete('/:id/releases/:release_id', conditionalEdit(named), async (c) => {
    await withdrawRelease(c.get('core'), c.get('act'), c.req.param('id'), c.req.param('release_id'));
    return c.body(null, 204);
  });
  return [['/api/v1/software', software]];
}

/** One release read through its own software; a release of another software is a 404, as when withdrawing. */
async function releaseOf(core: Core, softwareId: string, releaseId: string): Promise<JsonObject> {
  const release = await getRelease(core, releaseId);
  const software = iriOf(core, 'software', softwareId);
  if (release.software !== software)
    throw new NotFoundError(`no release ${releaseId} of software ${software}`);
  return release;
}
