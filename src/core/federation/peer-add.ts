/**
 * Adding a peer: the registry at the given base IRI is asked for its well-known description first, which must
 * name that same base IRI; its own peers become suggestions for review; and, unless told not to, it is told
 * about this registry in turn (it records a suggestion on its side).
 */
import { requireAdmin } from '../access/policy.js';
import { BadRequestError, ConflictError, InternalError } from '../errors.js';
import { isObject } from '../records/json.js';
import { appendAudit } from '../store/audit.js';
import { activatePeer, findPeer, findPeerByBase, insertPeer, rearmUnder } from '../store/peers.js';
import type { Core } from '../core.js';
import { normaliseBaseIri, peerText, PeerRequestError, requestPeer } from './peer-http.js';
import { registryTitle } from '../ops/status.js';
import { isOwnBase, mintPeerId, presentPeer, suggestPeer } from './peers.js';
import { commitAct, type Act } from '../stored/write-path.js';
import type { AddedPeer, AnnounceOutcome, PeerPreview } from '../../api/operations.js';

/** The path of the description every registry serves. */
export const WELL_KNOWN_PATH = '/.well-known/reg-registry';

/** A description larger than this is not read. */
const DESCRIPTION_BYTES = 256 * 1024;

/** What a peer's well-known description says, as far as a peer reads it. */
export interface PeerDescription {
  readonly base_iri: string;
  readonly title: string | undefined;
  readonly operator: string | undefined;
  readonly software_version: string | undefined;
  /** The registries it lists as its own peers. */
  readonly peers: readonly { readonly base_iri: string; readonly title: string | undefined }[];
}

/**
 * The answer to `preview: true` (what adding the peer would record, with nothing stored), how announcing this
 * registry to a new peer went, and a peer just added with that outcome: declared in `src/api`.
 */
export type { AddedPeer, AnnounceOutcome, PeerPreview };

/** Fetches and reads a registry's well-known description; a PeerRequestError says why it could not. */
export async function describePeer(core: Core, baseIri: string): Promise<PeerDescription> {
  const answer = await requestPeer(`${baseIri}${WELL_KNOWN_PATH}`, {
    accept: 'application/json, application/ld+json;q=0.9',
    timeoutMs: core.config.peers.timeoutMs,
    maxBytes: DESCRIPTION_BYTES,
    userAgent: `reg/${core.version}`,
  });
  if (answer.status !== 200)
    throw new PeerRequestError('status', `answered ${answer.status} for its description`, answer.status);
  let doc: unknown;
  try {
    doc = JSON.parse(answer.body);
  } catch {
    throw new PeerRequestError('garbage', 'answered a description that is not JSON');
  }
  const base = isObject(doc) ? normaliseBaseIri(doc.base_iri) : undefined;
  if (!isObject(doc) || base === undefined)
    throw new PeerRequestError('garbage', 'answered a description without a base_iri');
  const listed = Array.isArray(doc.peers) ? doc.peers.slice(0, 1000) : [];
  const peers = listed.flatMap((entry) => {
    const peer = isObject(entry) ? normaliseBaseIri(entry.base_iri) : undefined;
    return peer === undefined
      ? []
      : [{ base_iri: peer, title: isObject(entry) ? peerText(entry.title) : undefined }];
  });
  return {
    base_iri: base,
    title: peerText(doc.title),
    operator: peerText(doc.operator),
    software_version: peerText(doc.software_version, 100),
    peers,
  };
}

/** Reads `preview` and `announce`: booleans when present. */
function flag(input: Record<string, unknown>, name: string, fallback: boolean): boolean {
  const value = input[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw new BadRequestError(`${name} must be true or false`);
  return value;
}

/**
 * `POST /api/v1/peers` (administrators) with `{ base_iri, preview?, announce? }`. The description at the base
 * IRI is read first: unreachable or unreadable is a 400, a description naming another base IRI a 409, this
 * registry's own base a 400. `preview: true` answers what would be recorded and stores nothing. Otherwise the
 * peer becomes active (a suggestion is promoted, keeping its id), its peers become suggestions, IRIs waiting for
 * it are queued again, and with `announce` (default true) it is told about this registry.
 */
export async function addPeer(
  core: Core,
  act: Act,
  body: unknown,
): Promise<{ status: 200; body: PeerPreview } | { status: 201; body: AddedPeer }> {
  requireAdmin(act.principal);
  const input = isObject(body) ? body : {};
  const base = normaliseBaseIri(input.base_iri);
  if (base === undefined)
    throw new BadRequestError('base_iri must be the http(s) base IRI of the peer registry', {
      errors: [{ field: 'base_iri', message: 'base_iri must be an http(s) URL without query or fragment' }],
    });
  const preview = flag(input, 'preview', false);
  const announce = flag(input, 'announce', true);
  if (isOwnBase(core, base))
    throw new BadRequestError(`${base} is this registry: a registry cannot peer with itself`);
  const description = await describeOrRefuse(core, base);
  if (isOwnBase(core, description.base_iri))
    throw new BadRequestError(`${base} describes itself as this registry (${description.base_iri})`);
  if (description.base_iri !== base)
    throw new ConflictError(
      `the registry at ${base} says its base IRI is ${description.base_iri}; add it under that base IRI`,
      { extra: { declared_base_iri: description.base_iri } },
    );
  const peersOfPeer = description.peers
    .map((peer) => peer.base_iri)
    .filter((peer) => peer !== base && !isOwnBase(core, peer));
  if (preview)
    return {
      status: 200,
      body: {
        preview: true,
        base_iri: base,
        title: description.title ?? null,
        operator: description.operator ?? null,
        software_version: description.software_version ?? null,
        peers_of_peer: peersOfPeer,
      },
    };
  const known = findPeerByBase(core.db, base);
  if (known?.state === 'active')
    throw new ConflictError(`${base} is already a peer (${known.id})`, { extra: { peer_id: known.id } });
  const at = act.now;
  const id = await commitAct(core, [], () => {
    const fields = {
      title: description.title ?? null,
      operator: description.operator ?? null,
      software_version: description.software_version ?? null,
      described_at: at,
      last_seen_at: at,
    };
    const peerId = known?.id ?? mintPeerId(core.db, base);
    if (known === undefined)
      insertPeer(core.db, {
        id: peerId,
        base_iri: base,
        state: 'active',
        added_at: at,
        resolve_status: 'ok',
        last_error: null,
        suggested_by: null,
        last_contact_at: at,
        ...fields,
      });
    else activatePeer(core.db, peerId, fields);
    for (const peer of description.peers.filter((p) => p.base_iri !== base))
      suggestPeer(core, { base_iri: peer.base_iri, title: peer.title }, base, at);
    rearmUnder(core.db, base);
    appendAudit(core.db, {
      actor: act.principal.subject,
      actorKind: act.principal.actorKind,
      action: 'peer.add',
      target: base,
      detail: peerId,
      requestId: act.requestId ?? null,
    });
    return peerId;
  });
  const row = findPeer(core.db, id);
  if (row === undefined) throw new InternalError(`peer ${id} vanished after it was added`);
  const record = await presentPeer(core, row);
  return {
    status: 201,
    body: announce ? { ...record, announced: await announceTo(core, base) } : record,
  };
}

async function describeOrRefuse(core: Core, base: string): Promise<PeerDescription> {
  try {
    return await describePeer(core, base);
  } catch (error) {
    if (!(error instanceof PeerRequestError)) throw error;
    throw new BadRequestError(`the registry at ${base} ${error.message}`, {
      extra: {
        reason: error.failure,
        ...(error.status === undefined ? {} : { upstream_status: error.status }),
      },
      hints: [`check that ${base}${WELL_KNOWN_PATH} answers from this registry's host`],
    });
  }
}

/** Tells a peer about this registry (it records a suggestion); failures are reported, never thrown. */
async function announceTo(core: Core, base: string): Promise<AnnounceOutcome> {
  try {
    const answer = await requestPeer(`${base}/api/v1/peers/announce`, {
      method: 'POST',
      accept: 'application/json',
      timeoutMs: core.config.peers.timeoutMs,
      maxBytes: 16 * 1024,
      userAgent: `reg/${core.version}`,
      json: {
        base_iri: core.config.baseIri,
        title: registryTitle(core),
        ...(core.config.operator === undefined ? {} : { operator: core.config.operator }),
      },
    });
    const reply: unknown = answer.status === 200 ? JSON.parse(answer.body) : undefined;
    if (!isObject(reply)) return { accepted: false, error: `answered ${answer.status}` };
    return {
      accepted: reply.accepted === true,
      ...(typeof reply.state === 'string' ? { state: reply.state } : {}),
      ...(typeof reply.note === 'string' ? { note: reply.note } : {}),
      ...(typeof reply.reason === 'string' ? { error: reply.reason } : {}),
    };
  } catch (error) {
    return { accepted: false, error: error instanceof PeerRequestError ? error.message : 'request failed' };
  }
}
