/**
 * Sign-in with the registry's identity provider: the authorization code flow with PKCE (RFC 7636) through
 * oauth4webapi, asking for an access token for the registry (RFC 8707 `resource` = the base IRI). The state and
 * the code verifier wait in sessionStorage during the round trip; the refresh token, when the provider gives one,
 * stays in memory (in `session`) and renews the access token shortly before it expires.
 */
import * as oauth from 'oauth4webapi';
import type { RegistryDescription } from '../api';
import { session, type Principal } from '../session';
import { refusalOf } from './refusal';
import { safeNext } from './next';

const PENDING_KEY = 'reg.oidc.pending';
/** Renew this long before expiry (at most a fifth of the token's lifetime). */
const REFRESH_MARGIN_S = 60;

/** The identity provider settings the registry publishes for people signing in. */
export interface OidcSettings {
  readonly issuer: string;
  readonly clientId: string;
  /** The registry's base IRI: the resource (and audience) access tokens must be for. */
  readonly resource: string;
}

/** What went wrong while signing in, so the page can say it plainly. */
export type SignInFailure = 'no-pending' | 'state' | 'provider' | 'exchange' | 'refused' | 'discovery';

export class SignInError extends Error {
  constructor(
    readonly failure: SignInFailure,
    message: string,
    /** Where to go after a retry. */
    readonly next = '/',
  ) {
    super(message);
    this.name = 'SignInError';
  }
}

interface Pending extends OidcSettings {
  readonly state: string;
  readonly verifier: string;
  readonly next: string;
  readonly redirectUri: string;
}

/** The provider settings when the registry offers people sign-in, otherwise undefined. */
export function oidcSettings(info: RegistryDescription | undefined): OidcSettings | undefined {
  const oidc = info?.auth.oidc;
  if (oidc?.human_signin !== true || !oidc.issuer || !oidc.client_id) return undefined;
  return {
    issuer: oidc.issuer,
    clientId: oidc.client_id,
    resource: oidc.audience ?? info?.base_iri ?? location.origin,
  };
}

/** The host name shown on the sign-in button. */
export function issuerHost(issuer: string): string {
  try {
    return new URL(issuer).host;
  } catch {
    return issuer;
  }
}

const discovered = new Map<string, Promise<oauth.AuthorizationServer>>();

/** Plain-HTTP issuers (a provider on the loopback during development and tests) are allowed as configured. */
function httpOptions(issuer: string): { [oauth.allowInsecureRequests]?: boolean } {
  return new URL(issuer).protocol === 'http:' ? { [oauth.allowInsecureRequests]: true } : {};
}

/** The provider's discovery document, fetched once per page load. */
function discover(issuer: string): Promise<oauth.AuthorizationServer> {
  let found = discovered.get(issuer);
  if (found === undefined) {
    const url = new URL(issuer);
    found = oauth
      .discoveryRequest(url, { algorithm: 'oidc', ...httpOptions(issuer) })
      .then((response) => oauth.processDiscoveryResponse(url, response));
    found.catch(() => discovered.delete(issuer));
    discovered.set(issuer, found);
  }
  return found;
}

/** Starts the code flow: remembers state and verifier for this tab, then leaves for the provider's login page. */
export async function beginSignIn(settings: OidcSettings, next: string): Promise<void> {
  let as: oauth.AuthorizationServer;
  try {
    as = await discover(settings.issuer);
  } catch (error) {
    throw new SignInError(
      'discovery',
      `The identity provider at ${settings.issuer} could not be reached (${messageOf(error)}).`,
      next,
    );
  }
  if (as.authorization_endpoint === undefined) {
    throw new SignInError(
      'discovery',
      `The identity provider at ${settings.issuer} names no authorization endpoint.`,
      next,
    );
  }
  const verifier = oauth.generateRandomCodeVerifier();
  const pending: Pending = {
    ...settings,
    state: oauth.generateRandomState(),
    verifier,
    next: safeNext(next),
    redirectUri: `${location.origin}/auth/callback`,
  };
  const url = new URL(as.authorization_endpoint);
  const scope = as.scopes_supported?.includes('offline_access') === true ? 'openid offline_access' : 'openid';
  url.search = new URLSearchParams({
    client_id: settings.clientId,
    response_type: 'code',
    redirect_uri: pending.redirectUri,
    scope,
    state: pending.state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    resource: settings.resource,
  }).toString();
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  location.assign(url.href);
}

/** Finishes the code flow on `/auth/callback`: checks the answer, exchanges the code and signs in. */
export async function completeSignIn(callback: URL): Promise<{ next: string; principal: Principal }> {
  const pending = takePending();
  if (pending === undefined) {
    throw new SignInError(
      'no-pending',
      'No sign-in was started in this tab, or it was already finished. Start again from the sign-in page.',
    );
  }
  const { next } = pending;
  if (callback.searchParams.get('state') !== pending.state) {
    throw new SignInError(
      'state',
      'The answer from the identity provider does not belong to the sign-in started here (state mismatch), so it was ignored.',
      next,
    );
  }
  const as = await discover(pending.issuer).catch((error: unknown) => {
    throw new SignInError(
      'discovery',
      `The identity provider could not be reached (${messageOf(error)}).`,
      next,
    );
  });
  const client: oauth.Client = { client_id: pending.clientId };
  let tokens: oauth.TokenEndpointResponse;
  try {
    const parameters = oauth.validateAuthResponse(as, client, callback, pending.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      parameters,
      pending.redirectUri,
      pending.verifier,
      { additionalParameters: { resource: pending.resource }, ...httpOptions(pending.issuer) },
    );
    tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      const described = error.error_description ? `: ${error.error_description}` : '';
      throw new SignInError(
        'provider',
        `The identity provider refused the sign-in (${error.error}${described}).`,
        next,
      );
    }
    throw new SignInError('exchange', `The sign-in could not be completed: ${messageOf(error)}.`, next);
  }
  const principal = await session.signIn(tokens.access_token, 'oidc', tokens.refresh_token);
  if (!principal.authenticated) {
    const reason = await refusalOf(tokens.access_token);
    session.signOut();
    throw new SignInError(
      'refused',
      `You signed in at the identity provider, but the registry refused its token${reason ? `: ${reason}` : ''}.`,
      next,
    );
  }
  keepFresh(pending, tokens.expires_in);
  return { next, principal };
}

function takePending(): Pending | undefined {
  try {
    const raw = sessionStorage.getItem(PENDING_KEY);
    sessionStorage.removeItem(PENDING_KEY);
    return raw === null ? undefined : (JSON.parse(raw) as Pending);
  } catch {
    return undefined;
  }
}

let timer: ReturnType<typeof setTimeout> | undefined;
let expiresAt = 0;
let settingsInUse: OidcSettings | undefined;

/** Renews the access token with the in-memory refresh token shortly before it expires, and again after that. */
function keepFresh(settings: OidcSettings, expiresIn: number | undefined): void {
  settingsInUse = settings;
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  if (expiresIn === undefined || session.refreshToken() === undefined) return;
  expiresAt = Date.now() + expiresIn * 1000;
  const margin = Math.min(REFRESH_MARGIN_S, expiresIn / 5);
  timer = setTimeout(() => void refreshNow(), Math.max(1, expiresIn - margin) * 1000);
}

/** One silent renewal; a failure leaves the current token to run out (the page then offers sign-in again). */
async function refreshNow(): Promise<void> {
  timer = undefined;
  const settings = settingsInUse;
  const refreshToken = session.refreshToken();
  if (settings === undefined || refreshToken === undefined || session.kind() !== 'oidc') return;
  const bearer = session.token();
  try {
    const as = await discover(settings.issuer);
    const client: oauth.Client = { client_id: settings.clientId };
    const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, {
      additionalParameters: { resource: settings.resource },
      ...httpOptions(settings.issuer),
    });
    const tokens = await oauth.processRefreshTokenResponse(as, client, response);
    // Signed out (or signed in afresh) while the request was under way: leave that alone.
    if (session.token() !== bearer) return;
    await session.signIn(tokens.access_token, 'oidc', tokens.refresh_token ?? refreshToken);
    keepFresh(settings, tokens.expires_in);
  } catch {
    const left = expiresAt - Date.now();
    if (left > 20_000) timer = setTimeout(() => void refreshNow(), 15_000);
  }
}

// Timers of background tabs are throttled: catch up when the tab is shown again.
if (typeof document !== 'undefined') {
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible' || timer === undefined) return;
    if (Date.now() > expiresAt - REFRESH_MARGIN_S * 1000) {
      clearTimeout(timer);
      void refreshNow();
    }
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
