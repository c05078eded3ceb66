/**
 * `GET /api/v1/resolve?iri=&refresh=`: what the registry holds of a foreign IRI. A cached stub is answered as
 * Turtle; otherwise (or with `refresh=true`) the IRI is fetched from the peer that covers it now. An IRI no peer
 * covers, or one whose fetch failed, is a 400 that says why and where its resolution stands.
 */
import { BadRequestError } from '../errors.js';
import { isAbsoluteIri, type JsonObject } from '../records/mapper.js';
import { parseNQuads } from '../store/nquads.js';
import { findResolveRow, type PeerRow, type ResolveRow } from '../store/peers.js';
import type { Core } from '../core.js';
import { resolveIri } from './peer-resolver.js';
import { cachedRecord, NO_PEER_REASON, peerCovering } from './peers.js';
import { originOf } from '../stored/records.js';
import { recordTurtle } from '../discovery/representations.js';

/** The answer for a cached IRI (contract §3.14), with where and when it was cached. */
export interface CachedResolution {
  readonly iri: string;
  readonly cached: true;
  readonly graph: string;
  readonly turtle: string;
  readonly peer: PeerRef;
  readonly origin: JsonObject;
}

/** The answer for an IRI just fetched (contract §3.14). */
export interface FetchedResolution {
  readonly iri: string;
  readonly cached: false;
  readonly graph: string;
  readonly triples: number;
  readonly peer: PeerRef;
}

/** A peer as a resolution names it. */
export interface PeerRef {
  readonly id: string;
  readonly base_iri: string;
  readonly title: string | null;
}

const peerRef = (row: PeerRow): PeerRef => ({ id: row.id, base_iri: row.base_iri, title: row.title });

/** Where the queue says an IRI's resolution stands, for a refusal to report. */
function queueState(row: ResolveRow | undefined): JsonObject {
  if (row === undefined) return { queued: false };
  return {
    queued: true,
    status: row.status,
    attempts: row.attempts,
    ...(row.next_attempt_at === null ? {} : { next_attempt_at: row.next_attempt_at }),
    ...(row.last_attempt_at === null ? {} : { last_attempt_at: row.last_attempt_at }),
    ...(row.last_error === null ? {} : { last_error: row.last_error }),
  };
}

/** Answers `GET /api/v1/resolve`; `refresh` is `true`/`false` (default false). */
export async function resolveForCaller(
  core: Core,
  params: { iri?: string | undefined; refresh?: string | undefined },
): Promise<CachedResolution | FetchedResolution> {
  const iri = params.iri?.trim() ?? '';
  if (iri === '' || !isAbsoluteIri(iri) || !/^https?:\/\//.test(iri))
    throw new BadRequestError('iri must be an absolute http(s) IRI of a record at another registry');
  const refresh = params.refresh ?? 'false';
  if (!['true', 'false', '1', '0', ''].includes(refresh))
    throw new BadRequestError(`refresh must be true or false, got "${refresh}"`);
  if (iri.startsWith(`${core.config.baseIri}/`))
    throw new BadRequestError(`${iri} is this registry's own IRI: read it directly, nothing needs resolving`);
  const cached = await cachedRecord(core, iri);
  if (cached !== undefined && refresh !== 'true' && refresh !== '1') {
    return {
      iri,
      cached: true,
      graph: cached.graph,
      turtle: recordTurtle(parseNQuads(cached.nquads)),
      peer: peerRef(cached.peer),
      origin: originOf(cached.graph, core, iri),
    };
  }
  const queued = findResolveRow(core.db, iri);
  if (peerCovering(core, iri) === undefined)
    throw new BadRequestError(`${iri} cannot be resolved: ${NO_PEER_REASON}`, {
      extra: { iri, resolve_status: 'unresolved', reason: 'no-peer', ...queueState(queued) },
    });
  const outcome = await resolveIri(core, iri, new Date(), queued?.attempts ?? 0);
  if (!outcome.ok)
    throw new BadRequestError(`${iri} could not be resolved: ${outcome.reason}`, {
      extra: {
        iri,
        resolve_status: 'error',
        reason: outcome.reason,
        ...(outcome.peer === undefined ? {} : { peer: peerRef(outcome.peer) }),
        ...queueState(findResolveRow(core.db, iri)),
      },
    });
  return { iri, cached: false, graph: outcome.graph, triples: outcome.triples, peer: peerRef(outcome.peer) };
}
