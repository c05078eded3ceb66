/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1 for tests: client_credentials grants give JWT access
 * tokens for the registry's audience, signed with a locally generated RSA key. Tests may also sign tokens the
 * provider would never issue (no audience, expired, another issuer) with the same key.
 *
 * For the web page it can also hold a public browser client (authorization code with PKCE, refresh tokens, CORS
 * for the client's origin) and accounts with registry roles: the development login form names the account, the
 * consent step is skipped, and the access token carries the account's roles in `realm_access.roles`.
 *
 * With `deviceFlow` it offers the OAuth 2.0 device authorization grant (RFC 8628) to clients marked `device`:
 * `approveDevice` then plays the person who enters the user code on the provider's page and signs in.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import type { Page } from 'playwright-core';
// @ts-expect-error oidc-provider ships no type declarations; the little used here is typed below.
import Provider from 'oidc-provider';

/** The part of oidc-provider's API these tests use. */
type ProviderClass = new (
  issuer: string,
  configuration: Record<string, unknown>,
) => {
  callback(): http.RequestListener;
};

/** A grant as oidc-provider's `loadExistingGrant` works with it. */
interface ProviderGrant {
  addOIDCScope(scope: string): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}

/** The request context oidc-provider hands to its helpers, reduced to what is read here. */
interface ProviderContext {
  readonly oidc: {
    readonly client?: { readonly clientId: string };
    readonly session?: { readonly accountId?: string; grantIdFor(clientId: string): string | undefined };
    readonly result?: { readonly consent?: { readonly grantId?: string } };
    readonly provider: {
      readonly Grant: {
        new (init: { clientId: string; accountId: string }): ProviderGrant;
        find(id: string): Promise<ProviderGrant | undefined>;
      };
    };
  };
}

/** A client registered at the test provider. */
export interface TestClient {
  readonly id: string;
  /** Defaults to `<id>-secret`. Public clients have none. */
  readonly secret?: string;
  /** Space-separated scopes the client may ask for; a grant that asks for none gets a token without `scope`. */
  readonly scopes?: string;
  /** Extra claims put into every access token of this client, such as `roles`. */
  readonly claims?: Record<string, unknown>;
  /**
   * A public browser client (a single-page application): authorization code with PKCE and refresh tokens, no
   * client secret, CORS for the origins of its redirect URIs. Without it the client uses client_credentials.
   */
  readonly public?: boolean;
  /** Where a public client may be sent back to after sign-in. */
  readonly redirectUris?: readonly string[];
  /**
   * A public client of the device authorization grant (a command line), with refresh tokens and no client
   * secret; needs the provider's `deviceFlow`.
   */
  readonly device?: boolean;
}

/** Options of `startProvider`. */
export interface ProviderOptions {
  /** The audience (resource) access tokens are issued for: the registry's base IRI. */
  readonly audience: string;
  readonly clients: readonly TestClient[];
  /** The key id of the first signing key; later keys get `<kid>-<n>`. */
  readonly kid?: string;
  /**
   * People who can sign in through the login form, by login name, with the registry roles their access tokens
   * carry in `realm_access.roles` (for example `{ curator: ['curator'], reader: ['reader'] }`).
   */
  readonly accounts?: Readonly<Record<string, readonly string[]>>;
  /** Lifetime of the access tokens the provider issues, in seconds (default 300). */
  readonly accessTokenTtl?: number;
  /** Offers the device authorization grant (RFC 8628) at `/device/auth`, with its user page at `/device`. */
  readonly deviceFlow?: boolean;
}

/** A running test provider. */
export interface TestProvider {
  /** The issuer identifier, `http://127.0.0.1:<port>`. */
  readonly issuer: string;
  /** The private signing key in use, with its `kid`. */
  readonly privateJwk: JWK;
  /** Runs a real client_credentials grant over HTTP and returns the access token. */
  clientToken(clientId: string, scope?: string): Promise<string>;
  /**
   * Signs claims with the provider's current key. `iss`, `aud` (the audience), `iat` and `exp` (five minutes
   * on) are filled in unless given; a claim given as `undefined` is left out.
   */
  signToken(claims: Record<string, unknown>): Promise<string>;
  /** How many requests the provider has answered for a path, such as `/jwks`. */
  requests(path: string): number;
  /** Restarts the provider on the same issuer with a new signing key (and a new `kid`). */
  rotateKey(): Promise<void>;
  /**
   * Restarts the provider on the same issuer and key with some options changed, such as the audience and a
   * browser client's redirect URIs once the registry's address is known. Sessions and tokens issued before are
   * forgotten (the signing key is kept, so their JWTs still verify).
   */
  reconfigure(changes: Partial<Omit<ProviderOptions, 'kid'>>): void;
  stop(): Promise<void>;
  /**
   * Completes the person's side of a device authorization over HTTP, as a browser would: opens the provider's
   * user code page, enters `userCode`, confirms it and signs in as `login`. Resolves once the provider shows
   * its success page; rejects with the page's text when it does not.
   */
  approveDevice(userCode: string, login: string): Promise<void>;
}

/**
 * Fills in the provider's development login form in a browser page that is showing it: the login name picks the
 * account (any password will do). The page then goes on to wherever the sign-in leads.
 */
export async function loginAtProvider(page: Page, login: string): Promise<void> {
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

/** The path a provider's discovery document is served at. */
export const DISCOVERY_PATH = '/.well-known/openid-configuration';
const ProviderCtor = Provider as ProviderClass;
const DEFAULT_TTL_S = 300;

/** Starts a provider on a random loopback port. */
export async function startProvider(initial: ProviderOptions): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const counts = new Map<string, number>();
  const baseKid = initial.kid ?? 'test-key';
  let options = initial;
  let generation = 0;
  let privateJwk = await newKey(baseKid);
  let handler = provide(issuer, options, privateJwk);
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const path = new URL(request.url ?? '/', issuer).pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    handler(request, response);
  });
  return {
    issuer,
    get privateJwk() {
      return privateJwk;
    },
    async clientToken(clientId, scope) {
      const client = options.clients.find((candidate) => candidate.id === clientId);
      if (client === undefined) throw new Error(`no test client ${clientId}`);
      const basic = Buffer.from(`${client.id}:${secretOf(client)}`).toString('base64');
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          ...(scope === undefined ? {} : { scope }),
        }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (response.status !== 200 || body.access_token === undefined) {
        throw new Error(`token request for ${clientId} failed: ${response.status} ${JSON.stringify(body)}`);
      }
      return body.access_token;
    },
    async signToken(claims) {
      const now = Math.floor(Date.now() / 1000);
      const payload = Object.fromEntries(
        Object.entries({ iss: issuer, aud: options.audience, iat: now, exp: now + 300, ...claims }).filter(
          ([, value]) => value !== undefined,
        ),
      );
      const key = await importJWK(privateJwk, 'RS256');
      return new SignJWT(payload)
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: privateJwk.kid! })
        .sign(key);
    },
    requests: (path) => counts.get(path) ?? 0,
    async rotateKey() {
      generation += 1;
      privateJwk = await newKey(`${baseKid}-${generation}`);
      handler = provide(issuer, options, privateJwk);
    },
    reconfigure(changes) {
      options = { ...options, ...changes };
      handler = provide(issuer, options, privateJwk);
    },
    approveDevice: (userCode, login) => approveDevice(issuer, userCode, login),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}

/** The request handler of a provider instance that signs with `jwk`; clients live in its static config. */
function provide(issuer: string, options: ProviderOptions, jwk: JWK): http.RequestListener {
  const scopes = [...new Set(options.clients.flatMap((client) => (client.scopes ?? '').split(' ')))].filter(
    (scope) => scope !== '',
  );
  const claims = new Map(options.clients.map((client) => [client.id, client.claims ?? {}]));
  const accounts = new Map(Object.entries(options.accounts ?? {}));
  const browser = options.clients.some((client) => client.public === true);
  const device = options.deviceFlow === true;
  const ttl = options.accessTokenTtl ?? DEFAULT_TTL_S;
  const provider = new ProviderCtor(issuer, {
    clients: options.clients.map(clientMetadata),
    // A browser client signs people in with `openid`, and may ask for `offline_access` (refresh tokens).
    scopes: browser || device ? [...scopes, 'openid', 'offline_access'] : scopes,
    jwks: { keys: [jwk] },
    adapter: MemoryAdapter,
    // Lifetimes of what the code flow stores, set so the provider does not warn about its defaults.
    ttl: {
      ClientCredentials: 300,
      AccessToken: ttl,
      AuthorizationCode: 60,
      IdToken: ttl,
      RefreshToken: 3600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      DeviceCode: 600,
    },
    cookies: { keys: ['reg-test-provider-cookie-key'] },
    findAccount: (_ctx: unknown, id: string) =>
      accounts.has(id) ? { accountId: id, claims: () => ({ sub: id, preferred_username: id }) } : undefined,
    extraTokenClaims: (_ctx: unknown, token: { clientId?: string; accountId?: string }) => {
      const roles = token.accountId === undefined ? undefined : accounts.get(token.accountId);
      return {
        ...(claims.get(token.clientId ?? '') ?? {}),
        ...(roles === undefined
          ? {}
          : { realm_access: { roles: [...roles] }, preferred_username: token.accountId }),
      };
    },
    // A browser client gets a refresh token whether or not it asked for offline_access (as Keycloak does).
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    clientBasedCORS: (_ctx: unknown, origin: string, client: { redirectUris: readonly string[] }) =>
      client.redirectUris.some((uri) => originOf(uri) === origin),
    // First-party sign-in: no consent screen; the grant covers sign-in and the registry as the resource.
    loadExistingGrant: async (ctx: ProviderContext) => {
      const { client, session, result, provider: self } = ctx.oidc;
      if (client === undefined || session === undefined) return undefined;
      const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId !== undefined) return self.Grant.find(grantId);
      if (session.accountId === undefined) return undefined;
      const grant = new self.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid offline_access');
      grant.addResourceScope(options.audience, scopes.join(' '));
      await grant.save();
      return grant;
    },
    features: {
      devInteractions: { enabled: browser || device },
      clientCredentials: { enabled: true },
      deviceFlow: {
        enabled: device,
        // Plain pages around the provider's own forms, which `approveDevice` fills in.
        userCodeInputSource: (ctx: { body: string }, form: string) =>
          void (ctx.body = page(
            'Sign-in',
            `${form}<button type="submit" form="op.deviceInputForm">Continue</button>`,
          )),
        userCodeConfirmSource: (ctx: { body: string }, form: string) =>
          void (ctx.body = page(
            'Confirm Device',
            `${form}<button type="submit" form="op.deviceConfirmForm">Continue</button>`,
          )),
        successSource: (ctx: { body: string }) => void (ctx.body = page('Sign-in Success', '')),
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.audience,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: scopes.join(' '),
          audience: options.audience,
          accessTokenFormat: 'jwt',
          accessTokenTTL: ttl,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  return provider.callback();
}

/** The registration of one client: a confidential client_credentials client, or a public browser client. */
function clientMetadata(client: TestClient): Record<string, unknown> {
  const scope = client.scopes === undefined || client.scopes === '' ? {} : { scope: client.scopes };
  if (client.device === true) {
    return {
      client_id: client.id,
      grant_types: [DEVICE_GRANT, 'refresh_token', ...(client.public === true ? ['authorization_code'] : [])],
      response_types: client.public === true ? ['code'] : [],
      redirect_uris: [...(client.redirectUris ?? [])],
      token_endpoint_auth_method: 'none',
      ...scope,
    };
  }
  if (client.public === true) {
    return {
      client_id: client.id,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [...(client.redirectUris ?? [])],
      token_endpoint_auth_method: 'none',
      ...scope,
    };
  }
  return {
    client_id: client.id,
    client_secret: secretOf(client),
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
    ...scope,
  };
}

interface Entry {
  readonly payload: Record<string, unknown>;
  /** Milliseconds since the epoch after which the entry is gone; none for entries that do not expire. */
  readonly expiresAt?: number;
}

/**
 * A per-model store for the provider, so it does not warn about its development-only default adapter. It keeps
 * what the authorization code flow needs: sessions and interactions by uid, consumption, revocation by grant.
 */
class MemoryAdapter {
  private readonly entries = new Map<string, Entry>();

  find(id: string): Promise<Record<string, unknown> | undefined> {
    return Promise.resolve(this.live(id)?.payload);
  }

  upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> {
    this.entries.set(
      id,
      expiresIn === undefined || expiresIn <= 0
        ? { payload }
        : { payload, expiresAt: Date.now() + expiresIn * 1000 },
    );
    return Promise.resolve();
  }

  consume(id: string): Promise<void> {
    const entry = this.live(id);
    if (entry !== undefined) entry.payload.consumed = Math.floor(Date.now() / 1000);
    return Promise.resolve();
  }

  destroy(id: string): Promise<void> {
    this.entries.delete(id);
    return Promise.resolve();
  }

  findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
    for (const id of this.entries.keys()) {
      const entry = this.live(id);
      if (entry?.payload.uid === uid) return Promise.resolve(entry.payload);
    }
    return Promise.resolve(undefined);
  }

  findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined> {
    for (const id of this.entries.keys()) {
      const entry = this.live(id);
      if (entry?.payload.userCode === userCode) return Promise.resolve(entry.payload);
    }
    return Promise.resolve(undefined);
  }

  revokeByGrantId(grantId: string): Promise<void> {
    for (const [id, entry] of this.entries) {
      if (entry.payload.grantId === grantId) this.entries.delete(id);
    }
    return Promise.resolve();
  }

  /** The entry under `id` unless it has expired (an expired one is dropped). */
  private live(id: string): Entry | undefined {
    const entry = this.entries.get(id);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return entry;
  }
}

/** A minimal HTML page for the device flow's steps. */
const page = (title: string, body: string): string =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

/** The grant type of the device authorization grant's token requests. */
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * The person's side of a device authorization, over plain HTTP with a cookie jar: each page's form is filled
 * in and posted (user code, confirmation, login, consent) and redirects are followed, until the success page.
 */
async function approveDevice(issuer: string, userCode: string, login: string): Promise<void> {
  const cookies = new Map<string, string>();
  const send = async (url: string, form?: Record<string, string>): Promise<Response> => {
    const response = await fetch(url, {
      method: form === undefined ? 'GET' : 'POST',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(form === undefined ? {} : { body: new URLSearchParams(form).toString() }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  };
  let response = await send(`${issuer}/device`);
  let url = `${issuer}/device`;
  for (let step = 0; step < 20; step++) {
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      url = new URL(location, url).href;
      response = await send(url);
      continue;
    }
    const page = await response.text();
    if (page.includes('Sign-in Success')) return;
    const action = new URL(/<form[^>]*action="([^"]+)"/.exec(page)?.[1] ?? url, url).href;
    const hidden = Object.fromEntries(
      [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)].map((match) => [
        match[1] ?? '',
        match[2] ?? '',
      ]),
    );
    if (page.includes('name="user_code"') && hidden.user_code === undefined) {
      response = await send(action, { ...hidden, user_code: userCode });
    } else if (page.includes('name="login"')) {
      response = await send(action, { ...hidden, login, password: 'any password' });
    } else if (Object.keys(hidden).length > 0) {
      response = await send(action, hidden);
    } else {
      throw new Error(
        `the device sign-in stopped at ${url} (${response.status}): ${page
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, 300)}`,
      );
    }
    url = action;
  }
  throw new Error('the device sign-in did not end in 20 steps');
}

async function newKey(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
}

function originOf(uri: string): string | undefined {
  try {
    return new URL(uri).origin;
  } catch {
    return undefined;
  }
}

function secretOf(client: TestClient): string {
  return client.secret ?? `${client.id}-secret`;
}

/** The CI systems whose genuine ID token claims are kept in test/fixtures/oidc-claims. */
export type CiSystem = 'github-actions' | 'gitlab-ci';

/**
 * The claims of a genuine ID token of a CI system (test/fixtures/oidc-claims) without its issuer, audience and
 * times, which `signToken` fills in, with `changes` applied; a change to `undefined` removes the claim.
 */
export function ciClaims(system: CiSystem, changes: Record<string, unknown> = {}): Record<string, unknown> {
  const file = new URL(`../fixtures/oidc-claims/${system}.json`, import.meta.url);
  const {
    iss: _iss,
    aud: _aud,
    iat: _iat,
    nbf: _nbf,
    exp: _exp,
    ...claims
  } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return { ...claims, ...changes };
}
