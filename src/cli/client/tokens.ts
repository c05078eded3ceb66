import { Flags } from '@oclif/core';
import type { HttpClient, JsonObject } from './http.js';
import type { NameResolver } from './resolve.js';
import type { Column } from './table.js';
import type { MintedToken, TokenList, TokenRecord, Whoami } from '../../api/index.js';

/** What `reg tokens revoke` prints under --json: the API answers 204, so the command reports what it did. */
export interface RevokeResult {
  readonly id: string;
  readonly revoked: true;
}

/** The record a token belongs to: a deployment or a software, by id or IRI. */
export interface TokenOwnerRef {
  readonly collection: 'instances' | 'software';
  readonly id: string;
}

/** The `--instance` / `--software` pair every tokens command takes; exactly one is required. */
export const tokenOwnerFlags = {
  instance: Flags.string({
    aliases: ['deployment'],
    description: 'the deployment (instance) the tokens belong to, by id, IRI or label',
    exactlyOne: ['instance', 'software'],
  }),
  software: Flags.string({
    description: 'the software the tokens belong to, by id, IRI or name',
    exactlyOne: ['instance', 'software'],
  }),
};

/** The owner the parsed `--instance` / `--software` flags name, names and labels turned into ids. */
export async function ownerOf(
  flags: { instance?: string | undefined; software?: string | undefined },
  names: NameResolver,
): Promise<TokenOwnerRef> {
  return flags.instance !== undefined
    ? { collection: 'instances', id: await names.deployment(flags.instance) }
    : { collection: 'software', id: await names.software(flags.software ?? '') };
}

/** The API path of a token owner's record. */
export const ownerPath = (owner: TokenOwnerRef): string =>
  `/api/v1/${owner.collection}/${encodeURIComponent(owner.id)}`;

/** Whether a token works now, was revoked or has expired. */
export function tokenState(record: TokenRecord, now = Date.now()): 'active' | 'revoked' | 'expired' {
  if (record.revoked_at !== null) return 'revoked';
  if (record.expires_at !== null && Date.parse(record.expires_at) <= now) return 'expired';
  return 'active';
}

/** Columns of `reg tokens list`: the label first, the id last. */
export const TOKEN_COLUMNS: readonly Column<TokenRecord>[] = [
  { header: 'LABEL', value: (row) => row.label ?? undefined, min: 10, priority: 0 },
  { header: 'PREFIX', value: (row) => row.prefix, priority: 2 },
  { header: 'STATE', value: (row) => tokenState(row), kind: 'status', priority: 0 },
  { header: 'SCOPES', value: (row) => row.scopes.join(','), min: 12, priority: 3 },
  { header: 'CREATED', value: (row) => row.created_at, priority: 4 },
  { header: 'EXPIRES', value: (row) => row.expires_at ?? 'never', priority: 3 },
  { header: 'LAST USED', value: (row) => row.last_used_at ?? 'never', priority: 4 },
  { header: 'ID', value: (row) => row.id, kind: 'id', priority: 1 },
];

/** Registry API tokens and the caller's identity, over HTTP. */
export class TokenClient {
  constructor(readonly http: HttpClient) {}

  private path(owner: TokenOwnerRef, tokenId?: string): string {
    const base = `/api/v1/${owner.collection}/${encodeURIComponent(owner.id)}/tokens`;
    return tokenId === undefined ? base : `${base}/${encodeURIComponent(tokenId)}`;
  }

  /** Issues a token; the answer is the only time its value is shown. */
  mint(owner: TokenOwnerRef, body: JsonObject): Promise<MintedToken> {
    return this.http.request<MintedToken>('POST', this.path(owner), { body });
  }

  /** Lists the tokens of a deployment or a software, revoked ones included. */
  list(owner: TokenOwnerRef): Promise<TokenList> {
    return this.http.request<TokenList>('GET', this.path(owner));
  }

  /** Revokes a token; it stops working at once. */
  async revoke(owner: TokenOwnerRef, tokenId: string): Promise<RevokeResult> {
    await this.http.request('DELETE', this.path(owner, tokenId));
    return { id: tokenId, revoked: true };
  }

  /** Who the presented credential is. */
  whoami(): Promise<Whoami> {
    return this.http.request<Whoami>('GET', '/api/v1/whoami');
  }
}
