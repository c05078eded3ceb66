/**
 * Announcements from other registries: `POST /api/v1/peers/announce` needs no credential, fetches nothing and
 * trusts nothing; it only records a suggestion that an administrator may review and add. Since anyone may
 * announce, what announcements leave behind is bounded (see `ANNOUNCE_BOUNDS`), and a newer announcement makes
 * way for itself, so junk cannot keep a real registry out of the review queue.
 */
import { BadRequestError } from '../errors.js';
import { clientNetwork } from '../net/client-network.js';
import { appendAudit } from '../store/audit.js';
import {
  announcedBy,
  expireSuggestions,
  markAnnounced,
  oldestOfBusiestAnnouncer,
  suggestedRows,
} from '../store/peer-suggestions.js';
import { countPeersIn, deletePeer, findPeerByBase, type PeerState } from '../store/peers.js';
import type { Core } from '../core.js';
import { normaliseBaseIri, peerText } from './peer-http.js';
import { isOwnBase, MAX_SUGGESTIONS, suggestPeer } from './peers.js';
import { commitAct, type Act } from '../stored/write-path.js';

/** What an announcement is answered with (contract §3.3). */
export interface AnnounceAnswer {
  readonly accepted: boolean;
  readonly state?: PeerState;
  readonly note?: string;
  readonly reason?: string;
}

/**
 * Bounds on what anonymous announcements leave for review. An announcer is a network: one IPv4 address, or one
 * IPv6 /64 (what one host is usually given); behind a reverse proxy, list it in REG_TRUSTED_PROXIES so that
 * each announcer is told apart by its X-Forwarded-For address rather than all counted as the proxy.
 */
export const ANNOUNCE_BOUNDS = {
  /** Unreviewed suggestions one announcer holds at most; its oldest makes way for its newest. */
  perAnnouncer: 10,
  /** Unreviewed suggestions of base IRIs on one host at most; the oldest announced one makes way. */
  perHost: 3,
  /** Days an unreviewed suggestion waits for review before it is forgotten. */
  ttlDays: 30,
} as const;

const DAY_MS = 86_400_000;

/**
 * `POST /api/v1/peers/announce` (no credential needed): another registry says it exists. Nothing is fetched and
 * nothing is trusted: the announcement only becomes a suggestion that an administrator may review and add.
 * `from` is the address the announcement came from.
 */
export async function announcePeer(
  core: Core,
  act: Act,
  body: unknown,
  options: { from?: string | undefined } = {},
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
  const now = new Date(act.now);
  const network = clientNetwork(options.from);
  return commitAct(core, [], (): AnnounceAnswer => {
    expireSuggestions(core.db, new Date(now.getTime() - ANNOUNCE_BOUNDS.ttlDays * DAY_MS).toISOString());
    const known = findPeerByBase(core.db, base);
    if (known !== undefined) return { accepted: true, state: known.state, note: 'already known' };
    const room = makeRoom(core, base, network);
    const at = act.now;
    const candidate = { base_iri: base, title: peerText(input.title), operator: peerText(input.operator) };
    if (typeof room === 'string' || !suggestPeer(core, candidate, base, at))
      return { accepted: false, reason: typeof room === 'string' ? room : 'the review queue is full' };
    markAnnounced(core.db, base, network);
    appendAudit(core.db, {
      actor: null,
      actorKind: 'anonymous',
      action: 'peer.announce',
      target: base,
      detail:
        room.length === 0
          ? `suggested for review (announced from ${network})`
          : `suggested for review (announced from ${network}); made way for it: ${room.join(', ')}`,
      requestId: act.requestId ?? null,
    });
    return { accepted: true, state: 'suggested', note: 'queued for admin review' };
  });
}

/**
 * Makes room in the review queue for one more suggestion from `network`: its own oldest beyond its bound, then
 * the oldest announced one of the same host beyond that bound, then (the queue full) the oldest of the busiest
 * announcer make way. Returns the base IRIs that made way, or the reason there is no room: the places are
 * taken by suggestions no announcement made (those of peers' own lists), which announcements never evict.
 */
function makeRoom(core: Core, base: string, network: string): string[] | string {
  const host = new URL(base).host;
  const onHost = () => suggestedRows(core.db).filter((row) => new URL(row.base_iri).host === host);
  if (onHost().filter((row) => row.announced_from === null).length >= ANNOUNCE_BOUNDS.perHost)
    return `${ANNOUNCE_BOUNDS.perHost} suggestions of registries on ${host} already await review`;
  const evicted: string[] = [];
  const evict = (row: { id: string; base_iri: string }): void => {
    deletePeer(core.db, row.id);
    evicted.push(row.base_iri);
  };
  const own = announcedBy(core.db, network);
  for (const row of own.slice(0, Math.max(0, own.length - ANNOUNCE_BOUNDS.perAnnouncer + 1))) evict(row);
  const sameHost = onHost();
  const announced = sameHost.filter((row) => row.announced_from !== null);
  for (const row of announced.slice(0, Math.max(0, sameHost.length - ANNOUNCE_BOUNDS.perHost + 1)))
    evict(row);
  if (countPeersIn(core.db, 'suggested') >= MAX_SUGGESTIONS) {
    const oldest = oldestOfBusiestAnnouncer(core.db);
    if (oldest === undefined) return `${MAX_SUGGESTIONS} suggestions already await review`;
    evict(oldest);
  }
  return evicted;
}
