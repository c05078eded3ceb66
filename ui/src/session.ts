/**
 * Who is signed in. The bearer (a pasted API token, or an access token from the identity provider) is kept
 * for this browser tab only (sessionStorage), never in localStorage or a cookie; a refresh token, when the
 * provider gives one, lives in memory only. `whoami` tells the page what the credential may do.
 */
import { useEffect, useState } from 'preact/hooks';

const TOKEN_KEY = 'reg.bearer';
const KIND_KEY = 'reg.bearer.kind';

/** `GET /api/v1/whoami`. */
export interface Principal {
  readonly authenticated: boolean;
  readonly credential: 'none' | 'local-token' | 'oidc-workload' | 'oidc-human' | 'root-token';
  readonly subject: string;
  readonly display_name?: string | null;
  readonly instance?: string | null;
  readonly may_register_deployments_of?: string | null;
  readonly issuer?: string | null;
  readonly scopes: readonly string[];
  readonly roles: readonly string[];
  readonly is_curator: boolean;
  readonly is_admin: boolean;
}

/** How the bearer was obtained. */
export type BearerKind = 'pasted' | 'oidc';

const ANONYMOUS: Principal = {
  authenticated: false,
  credential: 'none',
  subject: 'anonymous',
  scopes: [],
  roles: [],
  is_curator: false,
  is_admin: false,
};

type Listener = () => void;
const listeners = new Set<Listener>();
let bearer: string | undefined = read(TOKEN_KEY);
let kind: BearerKind | undefined = read(KIND_KEY) as BearerKind | undefined;
let principal: Principal = ANONYMOUS;
let principalLoaded = false;
let refreshToken: string | undefined;
let expiredFlag = false;

function read(key: string): string | undefined {
  try {
    return sessionStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Re-renders the calling component whenever the session changes. */
function useSessionChanges(): void {
  const [, setTick] = useState(0);
  useEffect(() => subscribe(() => setTick((n) => n + 1)), []);
}

async function loadPrincipal(): Promise<void> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
  try {
    const response = await fetch('/api/v1/whoami', { headers });
    principal = response.ok ? ((await response.json()) as Principal) : ANONYMOUS;
    if (response.status === 401 && bearer !== undefined) expiredFlag = true;
  } catch {
    principal = ANONYMOUS;
  }
  principalLoaded = true;
  notify();
}

export const session = {
  /** The bearer to send, if any. */
  token: (): string | undefined => bearer,
  kind: (): BearerKind | undefined => kind,
  principal: (): Principal => principal,
  /** True once whoami has answered for the current bearer. */
  loaded: (): boolean => principalLoaded,
  /** True when the registry refused the stored bearer (expired or revoked): the page offers sign-in again. */
  isExpired: (): boolean => expiredFlag,
  refreshToken: (): string | undefined => refreshToken,

  /** Signs in with a bearer and reads who it is. */
  async signIn(token: string, how: BearerKind, refresh?: string): Promise<Principal> {
    bearer = token;
    kind = how;
    refreshToken = refresh;
    expiredFlag = false;
    try {
      sessionStorage.setItem(TOKEN_KEY, token);
      sessionStorage.setItem(KIND_KEY, how);
    } catch {
      // Storage refused (private mode): the sign-in lasts until the page is reloaded.
    }
    principalLoaded = false;
    notify();
    await loadPrincipal();
    return principal;
  },

  /** Forgets the bearer. */
  signOut(): void {
    bearer = undefined;
    kind = undefined;
    refreshToken = undefined;
    expiredFlag = false;
    try {
      sessionStorage.removeItem(TOKEN_KEY);
      sessionStorage.removeItem(KIND_KEY);
    } catch {
      // nothing stored
    }
    principal = ANONYMOUS;
    principalLoaded = true;
    notify();
  },

  /** Called when the registry answers 401 to the stored bearer. */
  expired(): void {
    if (expiredFlag) return;
    expiredFlag = true;
    notify();
  },

  /** Reads whoami for the stored bearer (once, at start). */
  start(): Promise<void> {
    return loadPrincipal();
  },

  /** Re-renders the component when the bearer changes; returns it. */
  useToken(): string | undefined {
    useSessionChanges();
    return bearer;
  },

  /** Re-renders the component when the principal changes; returns it. */
  usePrincipal(): Principal {
    useSessionChanges();
    return principal;
  },
};
