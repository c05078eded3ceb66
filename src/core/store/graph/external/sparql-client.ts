/**
 * A SPARQL 1.1 Protocol client for the external graph store: queries as GET (form-encoded POST when long),
 * updates as form-encoded POST, one time limit per request, and every failure turned into an error that names the
 * endpoint (never its credentials) instead of an empty result.
 */
import { normaliseBinding } from '../sparql-terms.js';
import fs from 'node:fs';
import { BadRequestError, InternalError, RegError, UnavailableError } from '../../../errors.js';
import {
  CONNECT_TIMEOUT_MS,
  connectionPools,
  HttpNetworkError,
  httpRequest,
  HttpTimeoutError,
  isRedirect,
  showEndpoint,
  type ConnectionPools,
  type HttpResponse,
} from '../../../net/http-client.js';
import { HttpAuthenticator, type EndpointCredential } from './http-auth.js';
import type { Binding } from '../types.js';

/** Where the external store answers, and how. */
export interface SparqlClientOptions {
  readonly queryEndpoint: string;
  readonly updateEndpoint: string;
  /** The SPARQL 1.1 Graph Store Protocol endpoint bulk inserts are posted to, if the server has one. */
  readonly graphStoreEndpoint?: string | undefined;
  readonly credential: EndpointCredential;
  /** Time limit of one request (`REG_SPARQL_TIMEOUT`). */
  readonly timeoutMs: number;
  /** Connections kept open to the server at most (`REG_SPARQL_MAX_CONNECTIONS`; default 8). */
  readonly maxConnections?: number | undefined;
  /** File each request is appended to, one JSON line each (`REG_SPARQL_LOG`). */
  readonly log?: string | undefined;
}

/** A SPARQL JSON results document. */
export interface SparqlJson {
  readonly head?: { readonly vars?: readonly string[] };
  readonly results?: { readonly bindings: Binding[] };
  readonly boolean?: boolean;
}

/** A time limit of one request other than the client's own, and the setting that gives it. */
export interface RequestTiming {
  readonly timeoutMs: number;
  readonly timeoutSetting: string;
}

/** A query's answer: its body, and the row limit the server says it applied, if it says so. */
export interface SparqlAnswer {
  readonly contentType: string;
  readonly body: string;
  readonly rowCap?: number;
}

/** Queries longer than this (URL-encoded) go as a form-encoded POST instead of a GET. */
const MAX_GET_QUERY = 2000;
/** Connections kept open to the server at most, unless `REG_SPARQL_MAX_CONNECTIONS` says otherwise. */
const DEFAULT_MAX_CONNECTIONS = 8;

/**
 * System errors of a connection the server closed before answering: the request is sent once more on a new
 * connection (every request the registry sends to the store can be repeated without changing the outcome).
 */
const CLOSED_UNDER_REQUEST = new Set(['ECONNRESET', 'EPIPE']);

/** Characters of a server's error text kept in an error detail. */
const MAX_SERVER_MESSAGE = 300;

/** How one request is sent. */
interface SendOptions {
  readonly auth: HttpAuthenticator;
  readonly kind: 'query' | 'update' | 'graph-store';
  readonly method: 'GET' | 'POST';
  readonly accept: string;
  /** The body's media type (default: a form). */
  readonly contentType?: string;
  readonly timing?: RequestTiming | undefined;
  /** Told once the request, body included, has been handed to the network. */
  readonly onSent?: (() => void) | undefined;
}

/** A SPARQL 1.1 Protocol client over one query endpoint and one update endpoint. */
export class SparqlClient {
  /** Requests sent so far, by kind; read by tests and benchmarks. */
  readonly sent = { queries: 0, updates: 0, graphPosts: 0 };
  private readonly auth: HttpAuthenticator;
  /** The same authenticator state serves both endpoints when they are the same URL. */
  private readonly updateAuth: HttpAuthenticator;
  private readonly graphStoreAuth: HttpAuthenticator | undefined;

  private readonly options: SparqlClientOptions;
  /**
   * The connections to the server, kept open between requests and at most `maxConnections` of them: requests
   * beyond wait for a free one rather than open more than the server serves at once.
   */
  private readonly pools: ConnectionPools;
  /**
   * Whether the server said it is Virtuoso (its `Server` header): it takes a time limit per query, and it closes
   * the connection after every compressed answer, so it is not asked for compressed answers (a new connection per
   * request costs more than compression saves; measured on loopback: a lineage step 7.4 ms instead of 8.7 ms).
   */
  private virtuoso = false;

  constructor(options: SparqlClientOptions) {
    // The HTTP client refuses URLs with credentials in them; such credentials answer challenges like a username and
    // password.
    const query = withoutUserInfo(options.queryEndpoint);
    const update = withoutUserInfo(options.updateEndpoint);
    const graphStore =
      options.graphStoreEndpoint === undefined ? undefined : withoutUserInfo(options.graphStoreEndpoint);
    const fromUrl = query.credential ?? update.credential ?? graphStore?.credential;
    const credential =
      options.credential.kind === 'none' && fromUrl !== undefined ? fromUrl : options.credential;
    this.options = {
      ...options,
      queryEndpoint: query.url,
      updateEndpoint: update.url,
      graphStoreEndpoint: graphStore?.url,
      credential,
    };
    // Idle connections close after 4 s, before the server closes them under a request (stock Virtuoso: 10 s).
    this.pools = connectionPools(options.maxConnections ?? DEFAULT_MAX_CONNECTIONS);
    this.auth = new HttpAuthenticator(credential);
    this.updateAuth = update.url === query.url ? this.auth : new HttpAuthenticator(credential);
    this.graphStoreAuth = graphStore === undefined ? undefined : new HttpAuthenticator(credential);
  }

  /** Closes the connections kept open; a later request opens new ones. */
  close(): void {
    this.pools.http.destroy();
    this.pools.https.destroy();
  }

  /** Whether bulk inserts can be posted to a Graph Store Protocol endpoint. */
  get postsGraphs(): boolean {
    return this.graphStoreAuth !== undefined;
  }

  /** The query endpoint, shown without credentials. */
  get endpoint(): string {
    return showEndpoint(this.options.queryEndpoint);
  }

  /**
   * Runs a query and returns the response body as text, asking for `accept`; within `timing` when given, else
   * within `REG_SPARQL_TIMEOUT`.
   */
  async query(
    query: string,
    accept: string,
    timing?: RequestTiming,
    dataset: readonly [string, string][] = [],
  ): Promise<SparqlAnswer> {
    this.sent.queries++;
    const params: [string, string][] = [['query', query], ...dataset];
    // Virtuoso goes on running a query whose client has gone (measured: a minute of a core); told the time limit,
    // it stops the query itself.
    if (timing !== undefined && this.virtuoso) params.push(['timeout', String(timing.timeoutMs)]);
    const encoded = new URLSearchParams(params).toString();
    const base = this.options.queryEndpoint;
    // A request with a time limit of its own is a caller's query passed on from /sparql; the others are the
    // registry's.
    return await this.logged('query', query, timing === undefined ? 'registry' : 'client', () =>
      encoded.length <= MAX_GET_QUERY
        ? this.send(
            { auth: this.auth, kind: 'query', method: 'GET', accept, timing },
            `${base}${base.includes('?') ? '&' : '?'}${encoded}`,
          )
        : this.send({ auth: this.auth, kind: 'query', method: 'POST', accept, timing }, base, encoded),
    );
  }

  /** Sends one request and, when `REG_SPARQL_LOG` names a file, appends what was sent and how it ended to it. */
  private async logged<T>(
    kind: 'query' | 'update' | 'graph-store',
    text: string,
    origin: 'registry' | 'client',
    send: () => Promise<T>,
  ): Promise<T> {
    const file = this.options.log;
    if (file === undefined) return await send();
    const at = new Date().toISOString();
    const started = performance.now();
    const line = (outcome: { error?: string }) =>
      `${JSON.stringify({ at, kind, origin, ms: Math.round((performance.now() - started) * 10) / 10, ...outcome, text })}\n`;
    try {
      const answer = await send();
      fs.appendFileSync(file, line({}));
      return answer;
    } catch (error) {
      fs.appendFileSync(file, line({ error: (error as Error).message }));
      throw error;
    }
  }

  /** Runs a query whose answer is SPARQL JSON results. */
  async queryJson(
    query: string,
    timing?: RequestTiming,
    dataset?: readonly [string, string][],
  ): Promise<SparqlJson> {
    return (await this.answerJson(query, timing, dataset)).json;
  }

  private async answerJson(
    query: string,
    timing?: RequestTiming,
    dataset?: readonly [string, string][],
  ): Promise<{ json: SparqlJson; rowCap?: number }> {
    const { body, rowCap } = await this.query(query, 'application/sparql-results+json', timing, dataset);
    try {
      return { json: JSON.parse(body) as SparqlJson, ...(rowCap === undefined ? {} : { rowCap }) };
    } catch {
      throw new UnavailableError(
        `the SPARQL endpoint ${this.endpoint} answered with something other than SPARQL JSON results`,
      );
    }
  }

  /**
   * Runs one of the registry's own SELECTs and returns its solutions exactly as the server wrote them. An answer
   * the server cut at its row limit is refused: the registry pages what may grow, so a cut answer would be
   * silently incomplete.
   */
  async selectRaw(query: string): Promise<Binding[]> {
    const { json, rowCap } = await this.answerJson(query);
    if (json.results === undefined || !Array.isArray(json.results.bindings)) {
      throw new UnavailableError(`the SPARQL endpoint ${this.endpoint} answered a SELECT without results`);
    }
    const rows = json.results.bindings;
    if (rowCap !== undefined && rows.length >= rowCap) {
      throw new UnavailableError(
        `the SPARQL endpoint ${this.endpoint} cut an answer at its limit of ${rowCap} rows; the registry does not use a partial answer`,
      );
    }
    return rows;
  }

  /** Sends one SPARQL Update request. */
  async update(update: string): Promise<void> {
    this.sent.updates++;
    const url = this.options.updateEndpoint;
    await this.logged('update', update, 'registry', () =>
      this.send(
        { auth: this.updateAuth, kind: 'update', method: 'POST', accept: '*/*' },
        url,
        new URLSearchParams({ update }).toString(),
      ),
    );
  }

  /**
   * Adds triples (N-Triples text, which is Turtle) to one named graph with a Graph Store Protocol POST
   * (`?graph=`, indirect identification): a server parses such a body much faster than it compiles the same lines
   * as an INSERT DATA. Only with `graphStoreEndpoint`.
   */
  async postGraph(graph: string, ntriples: string, onSent?: () => void): Promise<void> {
    const base = this.options.graphStoreEndpoint;
    const auth = this.graphStoreAuth;
    if (base === undefined || auth === undefined)
      throw new InternalError('no Graph Store Protocol endpoint is configured');
    this.sent.graphPosts++;
    const url = `${base}${base.includes('?') ? '&' : '?'}${new URLSearchParams({ graph }).toString()}`;
    // The log says what was posted where, not the triples (a post holds up to some megabytes of them).
    const summary = `POST ?graph=${graph}: ${ntriples.length} characters of N-Triples`;
    await this.logged('graph-store', summary, 'registry', () =>
      this.send(
        {
          auth,
          kind: 'graph-store',
          method: 'POST',
          accept: '*/*',
          contentType: 'text/turtle; charset=utf-8',
          onSent,
        },
        url,
        ntriples,
      ),
    );
  }

  private async send(how: SendOptions, url: string, payload?: string): Promise<SparqlAnswer> {
    const { auth, kind, method, accept } = how;
    const timing = how.timing ?? { timeoutMs: this.options.timeoutMs, timeoutSetting: 'REG_SPARQL_TIMEOUT' };
    const shown = showEndpoint(
      kind === 'query'
        ? this.options.queryEndpoint
        : kind === 'update'
          ? this.options.updateEndpoint
          : (this.options.graphStoreEndpoint ?? url),
    );
    const uri = requestUri(url);
    let resent = false;
    // A Digest nonce may be refused as stale once; a first challenge costs one more try.
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { accept };
      if (payload !== undefined)
        headers['content-type'] = how.contentType ?? 'application/x-www-form-urlencoded; charset=utf-8';
      const authorization = auth.authorization(method, uri);
      if (authorization !== undefined) headers.authorization = authorization;
      let response: HttpResponse;
      try {
        response = await httpRequest(url, {
          method,
          headers,
          ...(payload === undefined ? {} : { body: payload }),
          addresses: 'any',
          timeoutMs: timing.timeoutMs,
          connectTimeoutMs: CONNECT_TIMEOUT_MS,
          maxBytes: Number.POSITIVE_INFINITY,
          decompress: !this.virtuoso,
          pools: this.pools,
          onSent: how.onSent,
        });
      } catch (error) {
        if (!resent && error instanceof HttpNetworkError && CLOSED_UNDER_REQUEST.has(error.code ?? '')) {
          resent = true;
          attempt--;
          continue;
        }
        throw this.transportError(shown, error, timing);
      }
      // A redirect is not followed: the endpoint is misconfigured, and a query must not be sent elsewhere.
      if (isRedirect(response.status))
        throw new UnavailableError(`the SPARQL endpoint ${shown} is unreachable (unexpected redirect)`);
      const body = response.text();
      if (/virtuoso/i.test(response.headers.get('server') ?? '')) this.virtuoso = true;
      if (response.status === 401 && attempt < 2 && auth.challenge(response.headers.get('www-authenticate')))
        continue;
      if (response.status === 401 || response.status === 403) {
        const how =
          auth.answersChallenges || authorization !== undefined
            ? 'refused the credentials'
            : 'needs credentials';
        throw new UnavailableError(
          `the SPARQL endpoint ${shown} ${how} (HTTP ${response.status}); check REG_SPARQL_BEARER_TOKEN or REG_SPARQL_USERNAME/REG_SPARQL_PASSWORD`,
        );
      }
      if (response.status < 200 || response.status > 299)
        throw this.serverError(shown, response.status, body, how);
      // Virtuoso answers a query that ran past its own time limit with a partial result and this header.
      const state = response.headers.get('x-sql-state');
      if (state === 'S1TAT' && how.timing !== undefined)
        throw timedOut(`the SPARQL endpoint ${shown} stopped the query at its time limit`, how.timing);
      if (state !== null) {
        throw new UnavailableError(
          `the SPARQL endpoint ${shown} returned an incomplete result (${state}: ${response.headers.get('x-sql-message') ?? 'no message'})`,
        );
      }
      // Virtuoso names its result row limit (ResultSetMaxRows) in this header when it applied it.
      const cap = Number(response.headers.get('x-sparql-maxrows') ?? Number.NaN);
      return {
        contentType: response.headers.get('content-type') ?? '',
        body,
        ...(Number.isInteger(cap) && cap > 0 ? { rowCap: cap } : {}),
      };
    }
  }

  private transportError(shown: string, error: unknown, timing: RequestTiming): RegError {
    if (error instanceof HttpTimeoutError)
      return timedOut(`the SPARQL endpoint ${shown} did not answer`, timing);
    // A message may quote a URL: never with its user information.
    const reason = (
      error instanceof HttpNetworkError ? (error.code ?? error.message) : (error as Error).message
    ).replace(/\/\/[^/@\s]*@/g, '//');
    return new UnavailableError(`the SPARQL endpoint ${shown} is unreachable (${reason})`);
  }

  private serverError(shown: string, status: number, body: string, how: SendOptions): RegError {
    const message = body.replace(/\s+/g, ' ').trim().slice(0, MAX_SERVER_MESSAGE);
    if (
      how.kind === 'query' &&
      status === 400 &&
      /syntax error|parse error|SP030|lexical error/i.test(message)
    ) {
      return new BadRequestError(`SPARQL syntax error: ${message}`);
    }
    // Virtuoso refuses at once a query it estimates would run past its own limit (MaxQueryCostEstimationTime).
    if (how.timing !== undefined && /estimated execution time .* exceeds the limit/i.test(message))
      return timedOut(
        `the SPARQL endpoint ${shown} estimates the query would run longer than it allows`,
        how.timing,
      );
    return new UnavailableError(
      `the SPARQL endpoint ${shown} failed (HTTP ${status}${message === '' ? '' : `: ${message}`})`,
    );
  }
}

/** A client query stopped, or refused, for its time limit (504); `what` says how, the detail adds the limit. */
function timedOut(what: string, timing: RequestTiming): RegError {
  return new RegError(
    'query-timeout',
    `${what} (time limit ${timing.timeoutMs / 1000} s, ${timing.timeoutSetting})`,
    {
      extra: { timeout_ms: timing.timeoutMs },
      hints: ['narrow the query: bind subjects or types, name the graph, add a LIMIT'],
    },
  );
}

/** A URL without its user information, and that information as a username and password. */
function withoutUserInfo(url: string): { url: string; credential?: EndpointCredential } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url };
  }
  if (parsed.username === '' && parsed.password === '') return { url };
  const credential: EndpointCredential = {
    kind: 'basic',
    username: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  };
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.href, credential };
}

/** The request-target of a URL (path and query), as a Digest `uri` names it. */
function requestUri(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** Rewrites a SPARQL JSON results document with normalised solutions. */
export function normaliseResults(json: SparqlJson): string {
  if (typeof json.boolean === 'boolean') return JSON.stringify({ head: {}, boolean: json.boolean });
  return JSON.stringify({
    head: { vars: json.head?.vars ?? [] },
    results: { bindings: (json.results?.bindings ?? []).map(normaliseBinding) },
  });
}
