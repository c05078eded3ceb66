/**
 * Peers are described again once per `REG_PEER_RESOLVE_TTL`: a new title, operator or version is taken over,
 * the registries a peer lists as its own peers become suggestions for review, and the contact counts towards the
 * peer's status (a peer that stopped answering shows as failing in the peer list and in `/metrics`).
 */
import { appendAudit } from '../store/audit.js';
import {
  markPeerDescribed,
  peersToDescribe,
  recordPeerDescription,
  recordPeerFailure,
  recordPeerSuccess,
} from '../store/peers.js';
import type { Core } from '../core.js';
import { describePeer } from './peer-add.js';
import { PeerRequestError } from './peer-http.js';
import { suggestPeer } from './peers.js';
import { commitAct } from '../stored/write-path.js';

/** Peers described per resolver pass. */
const PER_PASS = 2;

/** Reads the descriptions of the active peers due for it; returns how many were read. */
export async function refreshPeerDescriptions(core: Core, now: Date): Promise<number> {
  const before = new Date(now.getTime() - core.config.peers.resolveTtlMs).toISOString();
  const due = peersToDescribe(core.db, before, PER_PASS);
  const at = now.toISOString();
  let described = 0;
  for (const peer of due) {
    try {
      const description = await describePeer(core, peer.base_iri);
      if (description.base_iri !== peer.base_iri) {
        await failed(core, peer.id, at, `now describes itself as ${description.base_iri}`);
        continue;
      }
      await commitAct(core, [], () => {
        recordPeerDescription(
          core.db,
          peer.id,
          {
            title: description.title ?? peer.title,
            operator: description.operator ?? null,
            software_version: description.software_version ?? null,
          },
          at,
        );
        recordPeerSuccess(core.db, peer.id, at);
        const suggested = description.peers.filter((candidate) =>
          suggestPeer(core, candidate, peer.base_iri, at),
        ).length;
        if (suggested > 0)
          appendAudit(core.db, {
            actor: null,
            actorKind: 'system',
            action: 'peer.suggest',
            target: peer.base_iri,
            detail: `${suggested} of its peers suggested for review`,
          });
      });
      described++;
    } catch (error) {
      if (!(error instanceof PeerRequestError)) throw error;
      await failed(core, peer.id, at, `its description: ${error.message}`);
    }
  }
  return described;
}

/**
 * Records a failed description read. It goes through a commit so that cached reads are renewed: records cached
 * from the peer show its contact status and, after 90 days without contact, that it is stale.
 */
async function failed(core: Core, id: string, at: string, error: string): Promise<void> {
  await commitAct(core, [], () => {
    markPeerDescribed(core.db, id, at);
    recordPeerFailure(core.db, id, at, error);
  });
}
