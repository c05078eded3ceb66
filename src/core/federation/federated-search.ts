/**
 * Federated search: `GET /api/v1/search?federated=true` answers from this registry and asks its peers too, which
 * relay the query to theirs. Three brakes end it however the peers are wired: each registry claims the query id
 * once (a repeat is answered `already_handled`), each hop spends one of a hop budget clamped to this registry's
 * own maximum, and no registry on the path is asked again. Every peer is asked within the time left (one slow or
 * failing peer is a status, never a failure), and the origin de-duplicates hits by IRI (the home copy wins).
 */
import { randomUUID } from 'node:crypto';
import { recordPeerFailure, recordPeerSuccess, claimFederatedId, findPeerByBase } from '../store/peers.js';
import { isObject } from '../records/json.js';
import type { Core } from '../core.js';
import {
  FEDERATION_LIMITS,
  hasEnvelope,
  hitFromPeer,
  mergeHits,
  readEnvelope,
  statusFromPeer,
  type EnvelopeParams,
  type FederatedHit,
  type PeerLookup,
  type PeerStatus,
} from './federation-envelope.js';
import { normaliseBaseIri, PeerRequestError, requestPeer } from './peer-http.js';
import { activePeers } from './peers.js';
import { search, searchKinds, searchLimit, type SearchParams } from '../discovery/search.js';
import type { PeerRow } from '../store/peers.js';
import { coreMetrics } from '../ops/metrics.js';

/** Parameters of a federated search: the search's own and the propagation envelope. */
export type FederatedSearchParams = SearchParams & EnvelopeParams;

/** How a federated query was answered here (contract §3.12). */
export interface Federation {
  readonly query_id: string;
  readonly origin: string;
  readonly registry: string;
  readonly max_hops: number;
  readonly hops_granted: number;
  readonly hops_forwarded: number;
  readonly path: string[];
  readonly budget_exhausted: boolean;
  readonly first_seen_at?: string;
  readonly reason?: string;
}

/** The answer of a federated search. */
export interface FederatedResult {
  readonly query: string;
  readonly hits: FederatedHit[];
  readonly total: number;
  readonly partial: boolean;
  readonly peers: PeerStatus[];
  readonly already_handled?: true;
  readonly federation: Federation;
}

/** Whether a search request asks for federation: `federated=true`, or a relayed leg carrying the envelope. */
export function wantsFederation(params: FederatedSearchParams): boolean {
  return params.federated === 'true' || params.federated === '1' || hasEnvelope(params);
}

/** One leg of a federated query as this registry handles it. */
interface Leg {
  readonly self: string;
  readonly id: string;
  readonly origin: string;
  readonly path: string[];
  readonly hops: number;
  readonly deadline: number;
}

/** Answers a federated search here and, hops and time allowing, at the peers. */
export async function federatedSearch(core: Core, params: FederatedSearchParams): Promise<FederatedResult> {
  const started = Date.now();
  const settings = core.config.federation;
  // The local search first: it validates q, type and limit before anything is claimed or sent.
  const local = search(core, { q: params.q, type: params.type, limit: params.limit });
  const self = normaliseBaseIri(core.config.baseIri) ?? core.config.baseIri;
  const envelope = hasEnvelope(params) ? readEnvelope(params) : undefined;
  const budget = Math.min(envelope?.budgetMs ?? settings.budgetMs, settings.budgetMs);
  const leg: Leg = {
    self,
    id: envelope?.id ?? randomUUID(),
    origin: envelope?.origin ?? envelope?.path[0] ?? self,
    path: envelope?.path ?? [],
    hops: Math.min(envelope?.hops ?? settings.maxHops, settings.maxHops),
    deadline: started + budget,
  };
  const federation = (extra: Partial<Federation>): Federation => ({
    query_id: leg.id,
    origin: leg.origin,
    registry: self,
    max_hops: settings.maxHops,
    hops_granted: leg.hops,
    hops_forwarded: 0,
    path: [...leg.path, self],
    budget_exhausted: false,
    ...extra,
  });
  const onPath = leg.path.includes(self);
  const claim = onPath
    ? undefined
    : claimFederatedId(core.db, leg.id, leg.origin, leg.hops, new Date(started));
  if (onPath || claim?.claimed === false) {
    const reason = onPath
      ? 'this registry is already on the query path'
      : 'this query reached this registry before';
    core.log.info('federated query already handled', { fed_id: leg.id, origin: leg.origin, reason });
    return {
      query: local.query,
      hits: [],
      total: 0,
      partial: false,
      peers: [],
      already_handled: true,
      federation: federation({
        hops_granted: 0,
        reason,
        ...(claim === undefined ? {} : { first_seen_at: claim.firstSeenAt }),
      }),
    };
  }
  const mine: FederatedHit[] = local.hits.map((hit) => ({ ...hit, reach: 'local', hops: 0, via: [] }));
  if (local.query === '' || leg.hops === 0)
    return answer(
      local.query,
      mine,
      [],
      local.partial,
      federation({ reason: local.query === '' ? 'empty query' : 'no hops left' }),
    );
  const fanned = await fanOut(core, leg, params);
  const hits = mergeHits([...mine, ...fanned.hits], self);
  const failed = fanned.statuses.some((status) => status.status === 'timeout' || status.status === 'error');
  coreMetrics(core).federated(fanned.statuses, local.partial || failed || fanned.exhausted);
  return answer(
    local.query,
    hits,
    fanned.statuses,
    local.partial || failed || fanned.exhausted,
    federation({ hops_forwarded: fanned.asked > 0 ? leg.hops - 1 : 0, budget_exhausted: fanned.exhausted }),
  );
}

function answer(
  query: string,
  hits: FederatedHit[],
  peers: PeerStatus[],
  partial: boolean,
  federation: Federation,
): FederatedResult {
  const kept = hits.slice(0, FEDERATION_LIMITS.totalHits);
  return { query, hits: kept, total: kept.length, partial, peers, federation };
}

/** What asking the peers gave: their hits, a status per peer (and per peer of theirs), and whether time ran out. */
interface FanOut {
  readonly hits: FederatedHit[];
  readonly statuses: PeerStatus[];
  readonly asked: number;
  readonly exhausted: boolean;
}

async function fanOut(core: Core, leg: Leg, params: FederatedSearchParams): Promise<FanOut> {
  const statuses: PeerStatus[] = [];
  const direct = (
    peer: PeerRow,
    status: PeerStatus['status'],
    rest: Partial<PeerStatus> = {},
  ): PeerStatus => ({
    peer_id: peer.id,
    base_iri: peer.base_iri,
    ...(peer.title === null ? {} : { title: peer.title }),
    status,
    hits: 0,
    reach: 'direct',
    hops: 1,
    via: [],
    ...rest,
  });
  // Peers that answered last time first, so the cap drops the doubtful ones.
  const peers = activePeers(core).sort(
    (a, b) => Number(a.resolve_status === 'error') - Number(b.resolve_status === 'error'),
  );
  const ask: PeerRow[] = [];
  for (const peer of peers) {
    if (leg.path.includes(peer.base_iri))
      statuses.push(direct(peer, 'skipped', { note: 'already on the query path' }));
    else if (ask.length >= core.config.federation.maxPeers)
      statuses.push(
        direct(peer, 'skipped', {
          note: `over the limit of ${core.config.federation.maxPeers} peers per query`,
        }),
      );
    else ask.push(peer);
  }
  const remaining = leg.deadline - Date.now() - FEDERATION_LIMITS.hopMarginMs;
  if (remaining < FEDERATION_LIMITS.minimumBudgetMs) {
    statuses.push(...ask.map((peer) => direct(peer, 'skipped', { note: 'no time left in the budget' })));
    return { hits: [], statuses, asked: 0, exhausted: ask.length > 0 };
  }
  const timeoutMs = Math.min(core.config.federation.peerTimeoutMs, remaining);
  const lookup: PeerLookup = (base) => {
    const row = findPeerByBase(core.db, base);
    return row === undefined ? undefined : { id: row.id, title: row.title };
  };
  const hits: FederatedHit[] = [];
  const answers = await Promise.all(ask.map((peer) => askPeer(core, leg, params, peer, timeoutMs, lookup)));
  for (const [i, peer] of ask.entries()) {
    const reply = answers[i];
    if (reply === undefined) continue;
    hits.push(...reply.hits);
    statuses.push(direct(peer, reply.status, { hits: reply.hits.length, ...reply.extra }), ...reply.nested);
  }
  return { hits, statuses, asked: ask.length, exhausted: false };
}

/** One peer's reply, read. */
interface Reply {
  readonly status: PeerStatus['status'];
  readonly hits: FederatedHit[];
  readonly nested: PeerStatus[];
  readonly extra: Partial<PeerStatus>;
}

async function askPeer(
  core: Core,
  leg: Leg,
  params: FederatedSearchParams,
  peer: PeerRow,
  timeoutMs: number,
  lookup: PeerLookup,
): Promise<Reply> {
  const url = new URL(`${peer.base_iri}/api/v1/search`);
  url.searchParams.set('q', params.q?.trim() ?? '');
  url.searchParams.set('type', searchKinds(params.type).join(','));
  url.searchParams.set('limit', String(Math.min(searchLimit(params.limit), FEDERATION_LIMITS.hitsPerPeer)));
  url.searchParams.set('fed_id', leg.id);
  url.searchParams.set('fed_hops', String(leg.hops - 1));
  url.searchParams.set('fed_budget_ms', String(Math.max(0, timeoutMs - FEDERATION_LIMITS.hopMarginMs)));
  url.searchParams.set('fed_origin', leg.origin);
  for (const base of [...leg.path, leg.self]) url.searchParams.append('fed_path', base);
  const at = new Date().toISOString();
  const failed = (status: 'timeout' | 'error', error: string): Reply => {
    if (status === 'error') recordPeerFailure(core.db, peer.id, at, `federated search: ${error}`);
    return { status, hits: [], nested: [], extra: { error } };
  };
  let body: unknown;
  try {
    const reply = await requestPeer(url.href, {
      accept: 'application/json',
      timeoutMs,
      maxBytes: FEDERATION_LIMITS.bytesPerPeer,
      userAgent: `reg/${core.version}`,
    });
    if (reply.status !== 200) return failed('error', `answered ${reply.status}`);
    body = JSON.parse(reply.body);
  } catch (error) {
    if (error instanceof PeerRequestError)
      return failed(error.failure === 'timeout' ? 'timeout' : 'error', error.message);
    return failed('error', 'answered something that is not JSON');
  }
  if (!isObject(body) || !Array.isArray(body.hits))
    return failed('error', 'answered something that is not a search result');
  recordPeerSuccess(core.db, peer.id, at);
  if (body.already_handled === true) {
    const reason =
      isObject(body.federation) && typeof body.federation.reason === 'string'
        ? body.federation.reason
        : undefined;
    return {
      status: 'already_handled',
      hits: [],
      nested: [],
      extra: reason === undefined ? {} : { note: reason.slice(0, 300) },
    };
  }
  const hits = body.hits
    .slice(0, FEDERATION_LIMITS.hitsPerPeer)
    .map((raw) => hitFromPeer(raw, peer.base_iri, lookup))
    .filter((hit): hit is FederatedHit => hit !== undefined);
  const nested = (Array.isArray(body.peers) ? body.peers : [])
    .slice(0, FEDERATION_LIMITS.statusesPerPeer)
    .map((raw) => statusFromPeer(raw, peer.base_iri, lookup))
    .filter((status): status is PeerStatus => status !== undefined);
  return { status: 'ok', hits, nested, extra: {} };
}
