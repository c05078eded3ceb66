/** The registry's scopes, in words, for token and deployment forms. */
import type { CredentialScope } from '../api';
import type { Principal } from '../session';

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  'register:software': 'register software',
  'register:instance': 'register deployments (and announce itself)',
  'advertise:produce': 'advertise produced artifacts',
  'advertise:consume': 'advertise consumed artifacts',
  'read:private': 'read a private registry',
  'subscribe:artifacts': "manage its deployment's subscriptions",
  'admin:*': 'everything an administrator may do',
} satisfies Record<CredentialScope, string>;

export const KNOWN_SCOPES = Object.keys(DESCRIPTIONS);

/** A scope with what it allows: `advertise:produce — advertise produced artifacts`. */
export function scopeLabel(scope: string): string {
  const description = DESCRIPTIONS[scope];
  return description === undefined ? scope : `${scope} — ${description}`;
}

/** The scopes a person may put on a token: every scope, without `admin:*` unless they are an admin. */
export function mintableScopes(principal: Principal): string[] {
  return KNOWN_SCOPES.filter((scope) => scope !== 'admin:*' || principal.is_admin);
}
