import {
  createRemoteJWKSet,
  customFetch,
  errors,
  type FetchImplementation,
  type JWTVerifyGetKey,
} from 'jose';
import { UnavailableError } from '../errors.js';
import type { Logger } from '../log.js';
import { CONNECT_TIMEOUT_MS, httpRequest, HttpTimeoutError } from '../net/http-client.js';

const HOUR_MS = 3_600_000;

type RemoteKeySet = ReturnType<typeof createRemoteJWKSet>;

/** What is kept per trusted issuer: where its keys are published and the key set fetched from there. */
interface IssuerKeys {
  readonly jwksUri: string;
  readonly keySet: RemoteKeySet;
  /** `Date.now()` when the discovery document was read. */
  readonly discoveredAt: number;
}

/**
 * The discovery documents and signing keys of the trusted identity providers, one entry per issuer, and the
 * clock tokens are checked against. Created once per core; nothing here is module-level.
 */
export class OidcKeyCache {
  /** The time a token's `exp` and `nbf` are checked against; tests freeze it. */
  now: () => Date = () => new Date();
  /** How long a discovery document and a fetched key set are reused. */
  maxAgeMs = HOUR_MS;
  /**
   * The least time between two key set fetches prompted by an unknown `kid`; read when an issuer's key set is
   * first created, so a flood of made-up key ids cannot hammer the identity provider.
   */
  cooldownMs = 30_000;
  /** Time limit of one fetch of a discovery document or key set. */
  timeoutMs = 5_000;

  private readonly issuers = new Map<string, IssuerKeys>();
  private readonly pending = new Map<string, Promise<IssuerKeys>>();

  constructor(private readonly log: Logger) {}

  /**
   * The key resolver for tokens of `issuer`, reading `<issuer>/.well-known/openid-configuration` when it is not
   * cached or older than `maxAgeMs`. An unreachable or inconsistent provider is a 503 naming the issuer; a
   * stale entry keeps serving while a refresh fails.
   */
  async keysFor(issuer: string): Promise<JWTVerifyGetKey> {
    const cached = this.issuers.get(issuer);
    if (cached !== undefined && Date.now() - cached.discoveredAt < this.maxAgeMs) {
      return this.resolver(issuer, cached.keySet);
    }
    let pending = this.pending.get(issuer);
    if (pending === undefined) {
      pending = this.discover(issuer, cached).finally(() => this.pending.delete(issuer));
      this.pending.set(issuer, pending);
    }
    try {
      const fresh = await pending;
      this.issuers.set(issuer, fresh);
      return this.resolver(issuer, fresh.keySet);
    } catch (error) {
      if (cached === undefined) throw error;
      this.log.warn('identity provider discovery failed; using the cached keys', {
        issuer,
        detail: (error as Error).message,
      });
      return this.resolver(issuer, cached.keySet);
    }
  }

  private async discover(issuer: string, previous: IssuerKeys | undefined): Promise<IssuerKeys> {
    const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const unavailable = (why: string, cause?: unknown): UnavailableError =>
      new UnavailableError(`identity provider ${issuer} is unavailable: ${why}`, { cause });
    let document: unknown;
    try {
      const response = await httpRequest(url, {
        headers: { accept: 'application/json' },
        addresses: 'any',
        timeoutMs: this.timeoutMs,
        connectTimeoutMs: CONNECT_TIMEOUT_MS,
        maxBytes: Number.POSITIVE_INFINITY,
        read: (status) => status === 200,
        // As a browser follows them: to any http(s) address, twenty at most.
        redirects: { max: 20, allow: () => true },
        decompress: true,
      });
      if (response.status !== 200) throw unavailable(`${url} answered ${response.status}`);
      document = JSON.parse(response.text());
    } catch (error) {
      if (error instanceof UnavailableError) throw error;
      throw unavailable(`${url} could not be read (${(error as Error).message})`, error);
    }
    const { issuer: named, jwks_uri: jwksUri } = (document ?? {}) as Record<string, unknown>;
    if (named !== issuer) {
      throw unavailable(`its discovery document names the issuer ${JSON.stringify(named)}`);
    }
    if (typeof jwksUri !== 'string' || !/^https?:\/\//.test(jwksUri)) {
      throw unavailable('its discovery document has no http(s) jwks_uri');
    }
    // Keep the fetched keys when the document still points at the same key set.
    const keySet =
      previous?.jwksUri === jwksUri
        ? previous.keySet
        : createRemoteJWKSet(new URL(jwksUri), {
            cacheMaxAge: this.maxAgeMs,
            cooldownDuration: this.cooldownMs,
            timeoutDuration: this.timeoutMs,
            [customFetch]: (url, init) => this.fetchKeys(url, init),
          });
    return { jwksUri, keySet, discoveredAt: Date.now() };
  }

  /**
   * How jose fetches a key set: through the registry's HTTP client, with jose's own headers, time limit and
   * abort signal, and no redirects. A non-200 answer is handed over without its body (jose refuses it by status).
   */
  private async fetchKeys(
    url: string,
    { headers, signal }: Parameters<FetchImplementation>[1],
  ): Promise<Response> {
    try {
      const response = await httpRequest(url, {
        headers: Object.fromEntries(headers),
        addresses: 'any',
        timeoutMs: this.timeoutMs,
        connectTimeoutMs: CONNECT_TIMEOUT_MS,
        maxBytes: Number.POSITIVE_INFINITY,
        read: (status) => status === 200,
        decompress: true,
        signal,
      });
      return response.status === 200
        ? new Response(response.body, { status: 200, headers: response.headers })
        : new Response(null, {
            status: response.status >= 200 && response.status <= 599 ? response.status : 502,
          });
    } catch (error) {
      // jose reports a time-out by this name.
      if (error instanceof HttpTimeoutError) throw new DOMException(error.message, 'TimeoutError');
      throw error;
    }
  }

  /** Wraps a key set so that failing to fetch keys is a 503 naming the issuer, not a refused token. */
  private resolver(issuer: string, keySet: RemoteKeySet): JWTVerifyGetKey {
    return async (header, token) => {
      try {
        return await keySet(header, token);
      } catch (error) {
        if (
          error instanceof errors.JWKSNoMatchingKey ||
          error instanceof errors.JWKSMultipleMatchingKeys ||
          error instanceof errors.JOSENotSupported
        ) {
          throw error;
        }
        throw new UnavailableError(
          `identity provider ${issuer} is unavailable: its signing keys could not be fetched (${(error as Error).message})`,
          { cause: error },
        );
      }
    };
  }
}
