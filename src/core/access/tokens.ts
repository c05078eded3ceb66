import { v7 as uuidv7 } from 'uuid';
import { generateApiToken, scopesOf } from './api-tokens.js';
import { requireAdmin, requireCurator, requireCuratorOrRecordKeeper } from './policy.js';
import type { Principal } from './principal.js';
import { ForbiddenError, NotFoundError, RegError } from '../errors.js';
import { isObject } from '../records/json.js';
import { INSTANCE, SOFTWARE } from '../records/specs.js';
import {
  apiTokenPrefixTaken,
  countLiveApiTokens,
  findOwnedApiToken,
  insertApiToken,
  listApiTokens,
  revokeApiToken,
  type ApiTokenRow,
  type TokenOwner,
  type TokenSubjectKind,
} from '../store/api-tokens.js';
import { appendAudit } from '../store/audit.js';
import type { Core } from '../core.js';

import { iriOf, readStored } from '../stored/records.js';
import type { Act } from '../stored/write-path.js';

import { parseTokenRequest, type TokenRequest } from './token-request.js';
import type { MintedToken, TokenList, TokenRecord } from '../../api/operations.js';

/** A token as the API shows it, a mint's answer and a token list: declared in `src/api` (contract §3.4). */
export type { MintedToken, TokenList, TokenRecord };

/** Scopes a deployment token carries when the request names none. */
export const DEFAULT_INSTANCE_SCOPES: readonly string[] = ['advertise:produce', 'advertise:consume'];

/** Scopes a software token carries when the request names none: enough to self-register, then advertise. */
export const DEFAULT_SOFTWARE_SCOPES: readonly string[] = [
  'register:instance',
  'advertise:produce',
  'advertise:consume',
];

/** The API form of a token row. */
export function presentToken(row: ApiTokenRow): TokenRecord {
  return {
    id: row.id,
    prefix: row.prefix,
    instance_iri: row.instance_iri,
    software_iri: row.software_iri,
    subject_kind: row.subject_kind,
    scopes: scopesOf(row),
    label: row.label,
    created_at: row.created_at,
    created_by: row.created_by,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
  };
}

/** The deployment or software a request names; 404 when unknown, and when withdrawn if `live`. */
async function resolveOwner(
  core: Core,
  kind: TokenSubjectKind,
  id: string,
  live: boolean,
): Promise<TokenOwner & { readonly allowed: readonly string[] }> {
  const spec = kind === 'instance' ? INSTANCE : SOFTWARE;
  const iri = kind === 'instance' ? iriOf(core, 'instance', id) : iriOf(core, 'software', id);
  const stored = await readStored(core, spec, iri);
  if (stored === undefined) throw new NotFoundError(`no ${spec.kind} ${iri}`);
  if (live && stored.tombstoned)
    throw new NotFoundError(`${spec.kind} ${iri} is withdrawn, so no token can be issued for it`);
  const allowed = kind === 'instance' ? stored.json.allowed_scopes : undefined;
  return { kind, iri, allowed: Array.isArray(allowed) ? allowed.filter((s) => typeof s === 'string') : [] };
}

/**
 * The scopes of a new deployment token, held to the deployment's `allowed_scopes` when it lists any (spec §5.6):
 * named scopes outside them are refused, naming each; the defaults are narrowed to them.
 */
function scopesWithin(iri: string, request: TokenRequest, named: boolean, allowed: readonly string[]) {
  if (allowed.length === 0) return request.scopes;
  const outside = request.scopes.filter((scope) => !allowed.includes(scope));
  if (named && outside.length > 0) {
    const message = `scope ${outside.join(', ')} is outside the allowed_scopes of the deployment ${iri} (${allowed.join(', ')}); a curator may widen allowed_scopes first`;
    throw new RegError('scope-not-allowed', message, {
      errors: [{ field: 'scopes', message }],
    });
  }
  const narrowed = request.scopes.filter((scope) => allowed.includes(scope));
  if (narrowed.length === 0) {
    const message = `the deployment ${iri} allows none of the default scopes (${request.scopes.join(', ')}); name the scopes to issue, from its allowed_scopes: ${allowed.join(', ')}`;
    throw new RegError('scope-not-allowed', message, {
      errors: [{ field: 'scopes', message }],
    });
  }
  return narrowed;
}

/** Generates a token whose prefix no other token has (48 random bits: a clash is rare, but it is checked). */
function uniqueToken(core: Core): ReturnType<typeof generateApiToken> {
  for (;;) {
    const generated = generateApiToken();
    if (!apiTokenPrefixTaken(core.db, generated.prefix)) return generated;
  }
}

function mint(
  core: Core,
  act: Act,
  owner: TokenOwner & { readonly allowed: readonly string[] },
  body: unknown,
  defaults: readonly string[],
): { token: string; record: TokenRecord } {
  const { principal } = act;
  const parsed = parseTokenRequest(body, defaults, new Date(act.now));
  const named = isObject(body) && body.scopes !== undefined && body.scopes !== null;
  const request = { ...parsed, scopes: scopesWithin(owner.iri, parsed, named, owner.allowed) };
  if (request.scopes.includes('admin:*') && !principal.roles.includes('admin'))
    throw new ForbiddenError('only an administrator may issue a token with the admin:* scope');
  const { token, prefix, digest } = uniqueToken(core);
  const row: ApiTokenRow = {
    id: uuidv7(),
    prefix,
    digest,
    instance_iri: owner.kind === 'instance' ? owner.iri : null,
    software_iri: owner.kind === 'software' ? owner.iri : null,
    subject_kind: owner.kind,
    scopes: JSON.stringify(request.scopes),
    label: request.label,
    created_at: act.now,
    created_by: principal.subject,
    expires_at: request.expiresAt,
    last_used_at: null,
    revoked_at: null,
  };
  core.db.transaction(() => {
    insertApiToken(core.db, row);
    appendAudit(core.db, {
      actor: principal.subject,
      actorKind: principal.actorKind,
      action: owner.kind === 'instance' ? 'token.mint' : 'token.mint.software',
      target: owner.iri,
      detail: `token ${row.id} (${request.scopes.join(' ') || 'no scopes'})`,
      at: row.created_at,
      requestId: act.requestId ?? null,
    });
  });
  return { token, record: presentToken(row) };
}

/** Issues a per-deployment token (admin); the token is in this answer only. */
export async function mintInstanceToken(
  core: Core,
  act: Act,
  id: string,
  body: unknown,
): Promise<MintedToken> {
  requireAdmin(act.principal);
  const owner = await resolveOwner(core, 'instance', id, true);
  return { ...mint(core, act, owner, body, DEFAULT_INSTANCE_SCOPES), shown_once: true };
}

/** Issues a per-software token (curator), shared by the deployments of that software to register themselves. */
export async function mintSoftwareToken(
  core: Core,
  act: Act,
  id: string,
  body: unknown,
): Promise<MintedToken> {
  requireCurator(act.principal);
  const owner = await resolveOwner(core, 'software', id, true);
  const minted = mint(core, act, owner, body, DEFAULT_SOFTWARE_SCOPES);
  return {
    ...minted,
    shown_once: true,
    usage: `PUT ${core.config.baseIri}/api/v1/instances/self with this token as the bearer credential: each deployment of ${owner.iri} registers itself on its first call and updates its own record on later calls (send instance_key to tell replicas apart)`,
  };
}

function listOf(core: Core, owner: TokenOwner): TokenList {
  const items = listApiTokens(core.db, owner).map(presentToken);
  return { items, total: items.length };
}

/** The tokens of a deployment (admin, curator or the deployment keeping its own record), newest first. */
export async function listInstanceTokens(core: Core, principal: Principal, id: string): Promise<TokenList> {
  requireCuratorOrRecordKeeper(principal, iriOf(core, 'instance', id));
  return listOf(core, await resolveOwner(core, 'instance', id, false));
}

/** The tokens of a software (curator or admin), newest first. */
export async function listSoftwareTokens(core: Core, principal: Principal, id: string): Promise<TokenList> {
  requireCurator(principal);
  return listOf(core, await resolveOwner(core, 'software', id, false));
}

function revoke(core: Core, act: Act, owner: TokenOwner, tokenId: string): void {
  const row = findOwnedApiToken(core.db, owner, tokenId);
  if (row === undefined) throw new NotFoundError(`no token ${tokenId} of the ${owner.kind} ${owner.iri}`);
  const { principal, now: at } = act;
  core.db.transaction(() => {
    // Revoking twice is not an error, but only the first revocation is recorded.
    if (!revokeApiToken(core.db, row.id, at)) return;
    appendAudit(core.db, {
      actor: principal.subject,
      actorKind: principal.actorKind,
      action: 'token.revoke',
      target: owner.iri,
      detail: `token ${row.id}`,
      at,
      requestId: act.requestId ?? null,
    });
  });
}

/** Revokes one token of a deployment (admin, curator or the deployment keeping its own record), at once. */
export async function revokeInstanceToken(core: Core, act: Act, id: string, tokenId: string): Promise<void> {
  requireCuratorOrRecordKeeper(act.principal, iriOf(core, 'instance', id));
  revoke(core, act, await resolveOwner(core, 'instance', id, false), tokenId);
}

/** Revokes one token of a software (curator or admin); it stops working at once. */
export async function revokeSoftwareToken(core: Core, act: Act, id: string, tokenId: string): Promise<void> {
  requireCurator(act.principal);
  revoke(core, act, await resolveOwner(core, 'software', id, false), tokenId);
}

/** How many tokens of a deployment work now (neither revoked nor expired): the record's `token_count`. */
export function liveTokenCount(core: Core, instance: string, now = new Date()): number {
  return countLiveApiTokens(core.db, instance, now.toISOString());
}
