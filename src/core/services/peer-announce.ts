/**
 * Announcements from other registries: `POST /api/v1/peers/announce` needs no credential, fetches nothing and
 * trusts nothing; it only records a suggestion that an administrator may review and add.
 */
import { BadRequestError } from '../errors.js';
import { appendAudit } from '../store/audit.js';
import { findPeerByBase, type PeerState } from '../store/peers.js';
import type { Core } from '../core.js';
import { normaliseBaseIri, peerText } from './peer-http.js';
import { isOwnBase, MAX_SUGGESTIONS, suggestPeer } from './peers.js';

/** What an announcement is answered with (contract §3.3). */
export interface AnnounceAnswer {
  readonly accepted: boolean;
  readonly state?: PeerState;
  readonly note?: string;
  readonly reason?: string;
}

/**
 * `POST /api/v1/peers/announce` (no credential needed): another registry says it exists. Nothing is fetched and
 * nothing is trusted: the announcement only becomes a suggestion that an administrator may review and add.
 */
export async function announcePeer(
  core: Core,
  body: unknown,
  options: { requestId?: string | undefined } = {},
): Promise<AnnounceAnswer> {
  const input =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  const base = normaliseBaseIri(input.base_iri);
  if (base === undefined)
    throw new BadRequestError('base_iri must be the http(s) base IRI of the announcing registry', {
      errors: [{ field: 'base_iri', message: 'base_iri must be an http(s) URL without query or fragment' }],
    });
  if (isOwnBase(core, base)) return { accepted: false, reason: 'that is the base IRI of this registry' };
  const known = findPeerByBase(core.db, base);
  if (known !== undefined) return { accepted: true, state: known.state, note: 'already known' };
  const at = new Date().toISOString();
  const added = await core.graph.commit([], () => {
    const done = suggestPeer(
      core,
      { base_iri: base, title: peerText(input.title), operator: peerText(input.operator) },
      base,
      at,
    );
    if (done)
      appendAudit(core.db, {
        actor: null,
        actorKind: 'anonymous',
        action: 'peer.announce',
        target: base,
        detail: 'suggested for review',
        requestId: options.requestId ?? null,
      });
    return done;
  });
  if (!added) return { accepted: false, reason: `${MAX_SUGGESTIONS} suggestions already await review` };
  return { accepted: true, state: 'suggested', note: 'queued for admin review' };
}
