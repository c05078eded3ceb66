/**
 * Resolution of foreign IRIs: an IRI queued by advertising (or asked for on `GET /api/v1/resolve`) is fetched
 * from the active peer whose base IRI prefixes it, by content negotiation, and kept as a stub in that peer's graph
 * (record, owned fragments, queue row and peer contact in one commit). Failures are retried with exponential
 * backoff; resolved IRIs are refreshed after `REG_PEER_RESOLVE_TTL`; IRIs no peer covers wait, visibly
 * unresolved, until an administrator adds a peer that does. Nothing here ever runs inside a write.
 */
import { ownerOf } from '../store/nquads.js';
import {
  dueIris,
  markFailed,
  markNoPeer,
  markResolved,
  recordPeerFailure,
  recordPeerSuccess,
  type PeerRow,
} from '../store/peers.js';
import type { Core } from '../core.js';
import { PeerRequestError, requestPeer } from './peer-http.js';
import { parseRecordDocument, RECORD_ACCEPT, stubOf } from './peer-stubs.js';
import { NO_PEER_REASON, peerCovering, peerGraph } from './peers.js';
import { refreshPeerDescriptions } from './peer-refresh.js';
import { commitAct } from '../stored/write-path.js';
import { coreMetrics } from '../ops/metrics.js';

/** The largest record document read from a peer. */
const RECORD_BYTES = 2 * 1024 * 1024;
/** IRIs attempted per resolver pass, and at once. */
const PASS = { batch: 20, parallel: 4 } as const;
/** Retry delay after `attempts` earlier failures: 60 s × 2^attempts, the exponent capped at 10 (about 17 h). */
export function retryDelayMs(attempts: number): number {
  return 60_000 * 2 ** Math.min(Math.max(attempts, 0), 10);
}

/** How resolving one IRI went. */
export type ResolveOutcome =
  | {
      readonly ok: true;
      readonly iri: string;
      readonly peer: PeerRow;
      readonly graph: string;
      readonly triples: number;
    }
  | {
      readonly ok: false;
      readonly iri: string;
      readonly status: 'no-peer' | 'failed';
      readonly reason: string;
      readonly peer?: PeerRow;
    };

/**
 * Fetches one foreign IRI from the peer that covers it and stores its stub; records the outcome on the queue
 * row and on the peer. `previousAttempts` sets the backoff of a failure. Never throws for a peer's failure.
 */
export async function resolveIri(
  core: Core,
  iri: string,
  now: Date = new Date(),
  previousAttempts = 0,
): Promise<ResolveOutcome> {
  const at = now.toISOString();
  const peer = peerCovering(core, iri);
  // Outcomes that write no stub still go through a commit, so cached reads showing the IRI's status are renewed.
  if (peer === undefined) {
    await commitAct(core, [], () => markNoPeer(core.db, iri, at, NO_PEER_REASON));
    coreMetrics(core).resolved('no_peer');
    return { ok: false, iri, status: 'no-peer', reason: NO_PEER_REASON };
  }
  const record = ownerOf(iri);
  return core.locks.run(`resolve\n${record}`, async () => {
    const graph = peerGraph(peer.id);
    try {
      const answer = await requestPeer(record, {
        accept: RECORD_ACCEPT,
        timeoutMs: core.config.peers.timeoutMs,
        maxBytes: RECORD_BYTES,
        userAgent: `reg/${core.version}`,
      });
      if (answer.status !== 200)
        throw new PeerRequestError('status', `answered ${answer.status} for <${record}>`, answer.status);
      const stub = stubOf(record, parseRecordDocument(answer.body, answer.contentType, answer.url), graph);
      if (stub.quads.length === 0)
        throw new PeerRequestError('garbage', `answered nothing about <${record}>`);
      const refreshAt = new Date(now.getTime() + core.config.peers.resolveTtlMs).toISOString();
      await commitAct(core, [{ graph, subject: record, quads: stub.quads, kind: stub.kind }], () => {
        markResolved(core.db, iri, peer.id, at, refreshAt);
        if (record !== iri) markResolved(core.db, record, peer.id, at, refreshAt);
        recordPeerSuccess(core.db, peer.id, at);
      });
      core.log.debug('resolved a foreign IRI', { iri, peer: peer.id, triples: stub.quads.length });
      coreMetrics(core).resolved('resolved');
      return { ok: true, iri, peer, graph, triples: stub.quads.length };
    } catch (error) {
      if (!(error instanceof PeerRequestError)) throw error;
      const reason = `${peer.base_iri} ${error.message}`;
      const retryAt = new Date(now.getTime() + retryDelayMs(previousAttempts)).toISOString();
      await commitAct(core, [], () => {
        markFailed(core.db, iri, peer.id, at, retryAt, reason);
        // A peer that answered "no such record" is still reachable; anything else counts against it.
        if (error.failure === 'status' && error.status !== undefined && error.status < 500)
          recordPeerSuccess(core.db, peer.id, at);
        else recordPeerFailure(core.db, peer.id, at, error.message);
      });
      core.log.info('could not resolve a foreign IRI', { iri, peer: peer.id, reason: error.message });
      coreMetrics(core).resolved('failed');
      return { ok: false, iri, status: 'failed', reason, peer };
    }
  });
}

/** What one resolver pass did. */
export interface ResolvePass {
  readonly resolved: number;
  readonly failed: number;
  readonly unresolved: number;
  /** Peers whose description was read again. */
  readonly described: number;
}

/**
 * One pass of the resolver: reads the descriptions of peers due for it (their own peers become suggestions),
 * then attempts the queued IRIs that are due (at most 20, four at a time). Exported for tests, which call it with
 * their own clock instead of waiting for the timer.
 */
export async function resolveDue(core: Core, now: Date = new Date()): Promise<ResolvePass> {
  const described = await refreshPeerDescriptions(core, now);
  const due = dueIris(core.db, now.toISOString(), PASS.batch);
  const outcomes: ResolveOutcome[] = [];
  for (let start = 0; start < due.length; start += PASS.parallel) {
    const slice = due.slice(start, start + PASS.parallel);
    outcomes.push(...(await Promise.all(slice.map((row) => resolveIri(core, row.iri, now, row.attempts)))));
  }
  return {
    resolved: outcomes.filter((outcome) => outcome.ok).length,
    failed: outcomes.filter((outcome) => !outcome.ok && outcome.status === 'failed').length,
    unresolved: outcomes.filter((outcome) => !outcome.ok && outcome.status === 'no-peer').length,
    described,
  };
}
