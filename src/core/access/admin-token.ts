import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Core } from '../core.js';
import { countAdminTokens, findAdminToken, insertAdminToken } from '../store/admin-tokens.js';
import { countApiTokens } from '../store/api-tokens.js';
import { appendAudit } from '../store/audit.js';

/** The shape of an administrator token: `reg_admin_` and 64 hex digits. */
export const ADMIN_TOKEN_PATTERN = /^reg_admin_[0-9a-f]{64}$/;

const digestOf = (token: string): Buffer => createHash('sha256').update(token).digest();

/**
 * Gives a registry that was never administered (a new data directory: no administrator token was ever created
 * and no API token issued) and has no REG_ROOT_TOKEN an administrator: an administrator token is created, only
 * its SHA-256 stored, and the token returned for the caller to show once. Returns undefined otherwise; a token
 * is never shown again (set REG_ROOT_TOKEN to administer a registry whose token was lost).
 */
export function firstAdminToken(core: Core): string | undefined {
  if (core.config.secrets.rootToken !== undefined) return undefined;
  return core.db.transaction(() => {
    if (countAdminTokens(core.db) > 0 || countApiTokens(core.db) > 0) return undefined;
    const token = `reg_admin_${randomBytes(32).toString('hex')}`;
    const id = randomUUID();
    insertAdminToken(core.db, {
      id,
      digest: digestOf(token),
      label: 'created at the first start',
      created_at: new Date().toISOString(),
    });
    appendAudit(core.db, {
      actor: null,
      actorKind: 'system',
      action: 'admin-token.create',
      target: `admin-token:${id}`,
    });
    return token;
  });
}

/** Whether `token` is a live administrator token. */
export function isAdminToken(core: Core, token: string): boolean {
  return ADMIN_TOKEN_PATTERN.test(token) && findAdminToken(core.db, digestOf(token)) !== undefined;
}

/** Whether an administrator token was ever created for this registry. */
export function hasAdminToken(core: Core): boolean {
  return countAdminTokens(core.db) > 0;
}
