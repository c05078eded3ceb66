import { Hono } from 'hono';
import { addPeer } from '../../core/federation/peer-add.js';
import { announcePeer } from '../../core/federation/peer-announce.js';
import { listPeers, listSuggestedPeers, removePeer } from '../../core/federation/peers.js';
import { resolveForCaller } from '../../core/federation/resolution.js';
import { readJson } from '../body.js';
import { clientAddress } from '../client-address.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';

/**
 * Federation: peer administration (`/api/v1/peers`, administrators only), announcements from other registries
 * (`POST /api/v1/peers/announce`, no credential needed) and resolution of foreign IRIs (`/api/v1/resolve`).
 */
export function peerRoutes(): Mounts {
  const peers = new Hono<AppEnv>();
  const resolve = new Hono<AppEnv>();
  peers.get('/', async (c) =>
    c.json(await listPeers(c.get('core'), c.get('principal'), c.req.query('state'))),
  );
  peers.get('/suggested', async (c) => c.json(await listSuggestedPeers(c.get('core'), c.get('principal'))));
  peers.post('/', async (c) => {
    const added = await addPeer(c.get('core'), c.get('act'), await readJson(c));
    return c.json(added.body, added.status);
  });
  peers.post('/announce', async (c) => {
    const core = c.get('core');
    const from = clientAddress(c, core.config.trustedProxies);
    return c.json(await announcePeer(core, c.get('act'), await readJson(c), { from }));
  });
  peers.delete('/:id', async (c) => {
    await removePeer(c.get('core'), c.get('act'), c.req.param('id'));
    return c.body(null, 204);
  });
  resolve.get('/', async (c) =>
    c.json(
      await resolveForCaller(c.get('core'), { iri: c.req.query('iri'), refresh: c.req.query('refresh') }),
    ),
  );
  return [
    ['/api/v1/peers', peers],
    ['/api/v1/resolve', resolve],
  ];
}
