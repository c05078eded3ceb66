/**
 * The registry-to-registry propagation envelope of federated search (`fed_id`, `fed_hops`, `fed_budget_ms`,
 * `fed_origin`, `fed_path`), the reading of a peer's answer (every value a peer sends is checked and cut to size
 * before it is passed on, and its hits and statuses are re-expressed from this registry's point of view), and the
 * merge of the answers by IRI.
 */
import { BadRequestError } from '../errors.js';
import { idOf } from '../records/ids.js';
import { isObject } from '../records/json.js';
import type { JsonObject } from '../records/mapper.js';
import { SEARCH_KINDS, type SearchKind } from '../records/kind-registry.js';
import { normaliseBaseIri, peerText } from './peer-http.js';

/** Fixed limits of federation (contract §6.1): per peer and in total. */
export const FEDERATION_LIMITS = {
  /** Time kept back at each hop for the answer to travel back. */
  hopMarginMs: 600,
  /** Below this much time left, no peer is asked. */
  minimumBudgetMs: 200,
  hitsPerPeer: 100,
  bytesPerPeer: 2 * 1024 * 1024,
  statusesPerPeer: 32,
  totalHits: 500,
  maxPath: 16,
} as const;

/** The envelope parameters as sent. */
export interface EnvelopeParams {
  readonly fed_id?: string | undefined;
  readonly fed_hops?: string | undefined;
  readonly fed_budget_ms?: string | undefined;
  readonly fed_origin?: string | undefined;
  readonly fed_path?: readonly string[] | undefined;
}

/** A relayed leg's envelope, checked. */
export interface Envelope {
  readonly id: string;
  readonly hops: number;
  readonly budgetMs: number | undefined;
  readonly origin: string | undefined;
  readonly path: string[];
}

/** How far a hit or a status is from this registry. */
export type Reach = 'local' | 'direct' | 'indirect';

/** A federated hit (contract §3.12). */
export interface FederatedHit {
  readonly iri: string;
  readonly id: string;
  readonly entity_type: SearchKind;
  readonly title: string;
  readonly snippet?: string;
  readonly origin: JsonObject;
  readonly score: number;
  readonly reach: Reach;
  readonly hops: number;
  /** Registries between this one and the hit's home, nearest first. */
  readonly via: string[];
  also_from?: string[];
}

/** How one peer answered (contract §3.12). */
export interface PeerStatus {
  readonly peer_id?: string;
  readonly base_iri: string;
  readonly title?: string;
  readonly status: 'ok' | 'timeout' | 'error' | 'already_handled' | 'skipped';
  readonly hits: number;
  readonly error?: string;
  readonly reach: Exclude<Reach, 'local'>;
  readonly hops: number;
  readonly via: string[];
  readonly note?: string;
}

const STATUSES: readonly PeerStatus['status'][] = ['ok', 'timeout', 'error', 'already_handled', 'skipped'];
const ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** Whether any envelope parameter is present. */
export function hasEnvelope(params: EnvelopeParams): boolean {
  return (
    params.fed_id !== undefined ||
    params.fed_hops !== undefined ||
    params.fed_budget_ms !== undefined ||
    params.fed_origin !== undefined ||
    (params.fed_path?.length ?? 0) > 0
  );
}

function wholeNumber(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,9}$/.test(raw)) throw new BadRequestError(`${name} must be a whole number ≥ 0, got "${raw}"`);
  return Number(raw);
}

function baseIri(raw: string, name: string): string {
  const base = normaliseBaseIri(raw);
  if (base === undefined) throw new BadRequestError(`${name} must hold http(s) base IRIs, got "${raw}"`);
  return base;
}

/** Reads the envelope of a relayed leg; any malformed part is a 400, and `fed_id` is required with the others. */
export function readEnvelope(params: EnvelopeParams): Envelope {
  const id = params.fed_id;
  if (id === undefined) throw new BadRequestError('fed_id is required with the other fed_ parameters');
  if (!ID.test(id))
    throw new BadRequestError('fed_id must be 1–100 characters of A–Z, a–z, 0–9, ".", "_", ":" or "-"');
  const path = (params.fed_path ?? [])
    .flatMap((value) => value.split(/\s+/))
    .filter((value) => value !== '')
    .map((value) => baseIri(value, 'fed_path'));
  if (path.length > FEDERATION_LIMITS.maxPath)
    throw new BadRequestError(`fed_path may name at most ${FEDERATION_LIMITS.maxPath} registries`);
  return {
    id,
    hops: wholeNumber(params.fed_hops, 'fed_hops') ?? 0,
    budgetMs: wholeNumber(params.fed_budget_ms, 'fed_budget_ms'),
    origin:
      params.fed_origin === undefined || params.fed_origin === ''
        ? undefined
        : baseIri(params.fed_origin, 'fed_origin'),
    path,
  };
}

/** Names a registry by base IRI, with this registry's id and title for it when it is a peer. */
export type PeerLookup = (base: string) => { id: string; title: string | null } | undefined;

const strings = (value: unknown, max: number): string[] =>
  Array.isArray(value)
    ? value
        .flatMap((item) => {
          const base = normaliseBaseIri(item);
          return base === undefined ? [] : [base];
        })
        .slice(0, max)
    : [];

/**
 * A hit from peer `from` re-expressed here: its home (the registry that holds it as its own), how far that is and
 * through whom; undefined when the hit is malformed. The home is the peer itself for its own hits, else what the
 * peer says.
 */
export function hitFromPeer(raw: unknown, from: string, lookup: PeerLookup): FederatedHit | undefined {
  if (
    !isObject(raw) ||
    typeof raw.iri !== 'string' ||
    !/^https?:\/\/\S+$/.test(raw.iri) ||
    raw.iri.length > 2000
  )
    return undefined;
  if (typeof raw.entity_type !== 'string' || !(SEARCH_KINDS as readonly string[]).includes(raw.entity_type))
    return undefined;
  const title = peerText(raw.title, 500) ?? idOf(raw.iri);
  const score =
    typeof raw.score === 'number' && Number.isFinite(raw.score) ? Math.min(1, Math.max(0, raw.score)) : 0;
  const origin = isObject(raw.origin) ? raw.origin : {};
  const relayed = raw.reach === 'direct' || raw.reach === 'indirect';
  const home = (origin.kind === 'peer' ? normaliseBaseIri(origin.peer_base_iri) : undefined) ?? from;
  const theirHops = typeof raw.hops === 'number' && Number.isInteger(raw.hops) ? raw.hops : 1;
  const known = lookup(home);
  const snippet = peerText(raw.snippet, 400);
  return {
    iri: raw.iri,
    id: idOf(raw.iri),
    entity_type: raw.entity_type as SearchKind,
    title,
    ...(snippet === undefined ? {} : { snippet }),
    origin: {
      kind: 'peer',
      ...(known === undefined ? {} : { peer_id: known.id }),
      ...(known === undefined || known.title === null ? {} : { peer_title: known.title }),
      peer_base_iri: home,
      resolve_status: 'live',
    },
    score,
    reach: relayed ? 'indirect' : 'direct',
    hops: relayed ? Math.min(theirHops, 64) + 1 : 1,
    via: relayed ? [from, ...strings(raw.via, FEDERATION_LIMITS.maxPath)] : [],
  };
}

/** A status a peer reports about its own peers, re-expressed here; undefined when malformed. */
export function statusFromPeer(raw: unknown, from: string, lookup: PeerLookup): PeerStatus | undefined {
  if (!isObject(raw)) return undefined;
  const base = normaliseBaseIri(raw.base_iri);
  if (base === undefined || typeof raw.status !== 'string') return undefined;
  if (!(STATUSES as readonly string[]).includes(raw.status)) return undefined;
  const known = lookup(base);
  const title = peerText(raw.title) ?? known?.title ?? undefined;
  const error = peerText(raw.error, 300);
  const note = peerText(raw.note, 300);
  const theirHops = typeof raw.hops === 'number' && Number.isInteger(raw.hops) ? raw.hops : 1;
  return {
    ...(known === undefined ? {} : { peer_id: known.id }),
    base_iri: base,
    ...(title === undefined ? {} : { title }),
    status: raw.status as PeerStatus['status'],
    hits: typeof raw.hits === 'number' && Number.isInteger(raw.hits) ? Math.max(0, raw.hits) : 0,
    ...(error === undefined ? {} : { error }),
    reach: 'indirect',
    hops: Math.min(theirHops, 64) + 1,
    via: [from, ...strings(raw.via, FEDERATION_LIMITS.maxPath)],
    ...(note === undefined ? {} : { note }),
  };
}

const REACH_RANK = { local: 0, direct: 1, indirect: 2 } as const;

/** The registry a hit is held by as its own. */
const homeOf = (hit: FederatedHit, self: string): string =>
  hit.reach === 'local' ? self : typeof hit.origin.peer_base_iri === 'string' ? hit.origin.peer_base_iri : '';

/**
 * One hit per IRI: the copy whose home registry is the one that minted the IRI wins (this registry's own first),
 * then the nearer one; the others' homes are listed in `also_from`. Best score first.
 */
export function mergeHits(hits: readonly FederatedHit[], self: string): FederatedHit[] {
  const byIri = new Map<string, FederatedHit[]>();
  for (const hit of hits) byIri.set(hit.iri, [...(byIri.get(hit.iri) ?? []), hit]);
  const merged: FederatedHit[] = [];
  for (const [iri, copies] of byIri) {
    const home = (hit: FederatedHit): number => (iri.startsWith(`${homeOf(hit, self)}/`) ? 0 : 1);
    const [first, ...rest] = [...copies].sort((a, b) => home(a) - home(b) || a.hops - b.hops);
    if (first === undefined) continue;
    const winner = { ...first };
    const others = new Set(rest.map((hit) => homeOf(hit, self)));
    others.delete('');
    others.delete(homeOf(winner, self));
    if (others.size > 0) winner.also_from = [...others];
    merged.push(winner);
  }
  return merged.sort(
    (a, b) =>
      b.score - a.score ||
      REACH_RANK[a.reach] - REACH_RANK[b.reach] ||
      (a.title < b.title ? -1 : a.title > b.title ? 1 : 0) ||
      (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0),
  );
}
