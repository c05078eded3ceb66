/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1 for tests: client_credentials grants give JWT access
 * tokens for the registry's audience, signed with a locally generated RSA key. Tests may also sign tokens the
 * provider would never issue (no audience, expired, another issuer) with the same key.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
// @ts-expect-error oidc-provider ships no type declarations; the little used here is typed below.
import Provider from 'oidc-provider';

/** The part of oidc-provider's API these tests use. */
type ProviderClass = new (
  issuer: string,
  configuration: Record<string, unknown>,
) => {
  callback(): http.RequestListener;
};

/** A client registered at the test provider. */
export interface TestClient {
  readonly id: string;
  /** Defaults to `<id>-secret`. */
  readonly secret?: string;
  /** Space-separated scopes the client may ask for; a grant that asks for none gets a token without `scope`. */
  readonly scopes?: string;
  /** Extra claims put into every access token of this client, such as `roles`. */
  readonly claims?: Record<string, unknown>;
}

/** Options of `startProvider`. */
export interface ProviderOptions {
  /** The audience (resource) access tokens are issued for: the registry's base IRI. */
  readonly audience: string;
  readonly clients: readonly TestClient[];
  /** The key id of the first signing key; later keys get `<kid>-<n>`. */
  readonly kid?: string;
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
  stop(): Promise<void>;
}

/** The path a provider's discovery document is served at. */
export const DISCOVERY_PATH = '/.well-known/openid-configuration';
const ProviderCtor = Provider as ProviderClass;

/** Starts a provider on a random loopback port. */
export async function startProvider(options: ProviderOptions): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const counts = new Map<string, number>();
  const baseKid = options.kid ?? 'test-key';
  let generation = 0;
  let privateJwk = await newKey(baseKid);
  let handler = provide(issuer, options, privateJwk);
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const path = new URL(request.url ?? '/', issuer).pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    handler(request, response);
  });
  const clients = new Map(options.clients.map((client) => [client.id, client]));
  return {
    issuer,
    get privateJwk() {
      return privateJwk;
    },
    async clientToken(clientId, scope) {
      const client = clients.get(clientId);
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
  const provider = new ProviderCtor(issuer, {
    clients: options.clients.map((client) => ({
      client_id: client.id,
      client_secret: secretOf(client),
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      ...(client.scopes === undefined || client.scopes === '' ? {} : { scope: client.scopes }),
    })),
    scopes,
    jwks: { keys: [jwk] },
    adapter: MemoryAdapter,
    ttl: { ClientCredentials: 300 },
    extraTokenClaims: (_ctx: unknown, token: { clientId?: string }) => claims.get(token.clientId ?? '') ?? {},
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.audience,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: scopes.join(' '),
          audience: options.audience,
          accessTokenFormat: 'jwt',
          accessTokenTTL: 300,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  return provider.callback();
}

/** A per-model store for the provider, so it does not warn about its development-only default adapter. */
class MemoryAdapter {
  private readonly entries = new Map<string, Record<string, unknown>>();

  find(id: string): Promise<Record<string, unknown> | undefined> {
    return Promise.resolve(this.entries.get(id));
  }

  upsert(id: string, payload: Record<string, unknown>): Promise<void> {
    this.entries.set(id, payload);
    return Promise.resolve();
  }

  consume(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (entry !== undefined) entry.consumed = Math.floor(Date.now() / 1000);
    return Promise.resolve();
  }

  destroy(id: string): Promise<void> {
    this.entries.delete(id);
    return Promise.resolve();
  }

  findByUid(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  findByUserCode(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  revokeByGrantId(): Promise<void> {
    return Promise.resolve();
  }
}

async function newKey(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
}

function secretOf(client: TestClient): string {
  return client.secret ?? `${client.id}-secret`;
}
