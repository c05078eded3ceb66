import path from 'node:path';
import { ConfigError } from '../errors.js';
import { packagePath } from '../paths.js';
import {
  parseBoolean,
  parseByteSize,
  parseDuration,
  parseHttpUrl,
  parseIssuer,
  parseInteger,
  parseList,
  parseListen,
  parseOriginList,
  parseRateLimit,
  rateLimitSettings,
  type ListenAddress,
  type RateLimitSettings,
} from './parse.js';
import { SETTINGS, type SettingSpec } from './settings.js';

export { SETTINGS } from './settings.js';
export type { ListenAddress } from './parse.js';
export type { RateLimitClass, RateLimitRule, RateLimitSettings } from './parse.js';

/** How the graph part of the registry is stored. */
export type GraphBackend =
  | { readonly kind: 'embedded' }
  | {
      readonly kind: 'sparql';
      readonly queryEndpoint: string;
      readonly updateEndpoint: string;
      /** The Graph Store Protocol endpoint large inserts are posted to (`REG_SPARQL_GRAPH_STORE_ENDPOINT`). */
      readonly graphStoreEndpoint?: string;
      readonly credential: 'none' | 'bearer' | 'basic';
      readonly timeoutMs: number;
      /** Connections kept open to the server at most (`REG_SPARQL_MAX_CONNECTIONS`). */
      readonly maxConnections: number;
      /** File every request to the store is appended to (`REG_SPARQL_LOG`), if any. */
      readonly log?: string;
    };

/** Secrets, kept apart from the printable configuration. */
export interface Secrets {
  readonly rootToken: string | undefined;
  readonly sparqlBearerToken: string | undefined;
  readonly sparqlUsername: string | undefined;
  readonly sparqlPassword: string | undefined;
  readonly forgeToken: string | undefined;
  readonly forgeGitlabToken: string | undefined;
}

/** Settings of the subscription delivery worker. */
export interface SubscriptionSettings {
  readonly webhooks: boolean;
  readonly maxAttempts: number;
  readonly suspendAfter: number;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  readonly timeoutMs: number;
  readonly tickMs: number;
  readonly batch: number;
  readonly maxPerInstance: number;
  readonly allowHttp: boolean;
  readonly allowPrivateTargets: boolean;
  /** How long delivered and dead deliveries, with their logged attempts, are kept (`REG_DELIVERY_RETENTION`). */
  readonly deliveryRetentionMs: number;
}

/** Settings of peer resolution: the background resolver and every request to a peer. */
export interface PeerSettings {
  readonly resolveEnabled: boolean;
  readonly resolveTtlMs: number;
  readonly resolveTickMs: number;
  /** Time limit of one request to a peer (resolution, description, announcement). */
  readonly timeoutMs: number;
}

/** Limits the HTTP server puts on client connections (`REG_HTTP_*`). */
export interface HttpServerSettings {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly maxConnections: number;
}

/** Limits of federated search. */
export interface FederationSettings {
  readonly peerTimeoutMs: number;
  readonly budgetMs: number;
  readonly maxHops: number;
  readonly maxPeers: number;
}

/** What one kind of caller may spend on one query on /sparql. */
export interface SparqlBudget {
  readonly timeoutMs: number;
  readonly maxRows: number;
  /** The settings that set this budget, named in refusals. */
  readonly timeoutSetting: string;
  readonly rowsSetting: string;
}

/** Bounds of the queries /sparql accepts, and what callers may spend on them. */
export interface SparqlLimits {
  readonly maxQueryBytes: number;
  readonly maxDepth: number;
  readonly maxTokens: number;
  /** Queries one caller may have under way at once. */
  readonly maxConcurrent: number;
  /** Queries sent to an external endpoint at once, all callers together. */
  readonly maxRunning: number;
  /** Embedded store: idle time after which the index copy serving /sparql is dropped (0: kept). */
  readonly indexIdleMs: number;
  readonly anonymous: SparqlBudget;
  readonly credentialed: SparqlBudget;
}

/**
 * How build attestations are checked: DSSE signatures against the public keys of `REG_ATTESTATION_KEYS`, Sigstore
 * bundles offline against the trust root of `REG_SIGSTORE_TRUSTED_ROOT`; with `REG_ATTESTATION_REQUIRE_VERIFIED`,
 * only verified ones are accepted.
 */
export interface AttestationSettings {
  readonly keysFile: string | undefined;
  readonly sigstoreTrustedRoot: string | undefined;
  readonly requireVerified: boolean;
}

/** The effective configuration, read once and frozen. */
export interface Config {
  readonly baseIri: string;
  readonly dataDir: string;
  readonly listen: ListenAddress;
  readonly http: HttpServerSettings;
  readonly staticDir: string;
  readonly publicRead: boolean;
  readonly sparqlPublic: boolean;
  readonly operator: string | undefined;
  readonly maxPayloadBytes: number;
  /** Deepest nesting of a JSON request body (`REG_MAX_JSON_DEPTH`). */
  readonly maxJsonDepth: number;
  /** Most values of one list field of a record (`REG_MAX_LIST_ITEMS`). */
  readonly maxListItems: number;
  /** Percent of the time large writes may hold while other requests are served (`REG_LARGE_WRITE_SHARE`). */
  readonly largeWriteShare: number;
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error';
  readonly oidc: {
    readonly issuer: string | undefined;
    readonly clientId: string | undefined;
    readonly audience: string;
    readonly workloadIssuers: readonly string[];
    readonly autoRegisterInstances: boolean;
  };
  readonly graph: GraphBackend;
  /** Time limit of one SPARQL query, whichever graph backend answers it (`REG_SPARQL_TIMEOUT`). */
  readonly sparqlTimeoutMs: number;
  /** Embedded store: when the registry's own copy of the query index is loaded (`REG_QUERY_INDEX`). */
  readonly queryIndex: 'at-start' | 'on-demand';
  /** Bounds and budgets of queries on /sparql (`REG_SPARQL_MAX_*`, `REG_SPARQL_ANONYMOUS_*`). */
  readonly sparql: SparqlLimits;
  readonly shaclValidateWrites: boolean;
  readonly forgePollIntervalMs: number;
  /** Base URLs of the forges' REST APIs that software records are synced from. */
  readonly forgeApis: { readonly github: string; readonly gitlab: string };
  /** The API description proxy may fetch from non-public addresses (`REG_API_DOC_ALLOW_PRIVATE_TARGETS`). */
  readonly apiDocAllowPrivateTargets: boolean;
  readonly healthCheckIntervalMs: number;
  readonly healthCheckTimeoutMs: number;
  readonly peers: PeerSettings;
  readonly federation: FederationSettings;
  readonly trustedProxies: readonly string[];
  readonly previousBaseIris: readonly string[];
  readonly subscriptions: SubscriptionSettings;
  /** How build attestations are checked. */
  readonly attestations: AttestationSettings;
  /** What the rate limiter allows each class of request (`REG_RATE_LIMITS`, `REG_RATE_LIMIT_*`). */
  readonly rateLimits: RateLimitSettings;
  /** Web origins whose pages may call with a credential or write (`REG_CORS_ORIGINS`). */
  readonly corsOrigins: readonly string[];
  /** One JSON line per request in the log (`REG_ACCESS_LOG`). */
  readonly accessLog: boolean;
  /** OAuth scopes the protected-resource metadata names; empty: the member is left out. */
  readonly mcpScopes: readonly string[];
  readonly secrets: Secrets;
  /** `REG_*` variables that are set but not known; likely typos. */
  readonly unknownVariables: readonly string[];
}

const PLACEHOLDER_TOKENS = new Set([
  'changeme',
  'change-me',
  'change_me',
  'root',
  'admin',
  'secret',
  'reg',
  'password',
  'token',
]);
const PLACEHOLDER_PARTS = [
  'changeme',
  'change-me',
  'change_me',
  'placeholder',
  'replaceme',
  'replace-me',
  'your-token',
  'yourtoken',
];
const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
const QUERY_INDEX_LOADS = ['at-start', 'on-demand'] as const;
const MAX_WEBHOOK_TIMEOUT_MS = 30_000;
const MAX_OUTBOUND_TIMEOUT_MS = 30_000;
const MAX_FEDERATION_BUDGET_MS = 60_000;

/** Reads the effective configuration from an environment; throws one ConfigError listing every problem. */
/** Host names and addresses that reach this machine only. */
const LOOPBACK: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1']);

export function readConfig(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string = process.cwd(),
): Config {
  const problems: string[] = [];
  const values = new Map<string, unknown>();
  for (const spec of SETTINGS) {
    const raw = env[spec.name];
    const text = raw === undefined || raw.trim() === '' ? spec.fallback : raw;
    if (text === undefined) continue;
    try {
      values.set(spec.name, parseSetting(spec, text, cwd));
    } catch (error) {
      problems.push(`${spec.name} ${(error as Error).message}.`);
    }
  }
  const get = <T>(name: string): T | undefined => values.get(name) as T | undefined;
  const need = <T>(name: string): T => values.get(name) as T;

  // A registry that listens on this machine only is reached as localhost: its base IRI may go unsaid, so that
  // `npm start`, `reg serve` and every other command agree with no settings at all. A registry reachable from
  // elsewhere must say its public URL, which is permanent.
  const listening = get<ListenAddress>('REG_LISTEN');
  const local =
    listening !== undefined && listening.port !== 0 && LOOPBACK.has(listening.host.toLowerCase())
      ? `http://localhost:${listening.port}`
      : undefined;
  const baseIri = get<string>('REG_BASE_IRI') ?? local;
  if (baseIri === undefined && !problems.some((p) => p.startsWith('REG_BASE_IRI'))) {
    problems.push(
      listening !== undefined && listening.port === 0
        ? 'REG_BASE_IRI is required when REG_LISTEN has port 0 (any free port, not known in advance): set it to the http(s) URL of this registry, or give REG_LISTEN a port.'
        : 'REG_BASE_IRI is required when REG_LISTEN is not a loopback address: set it to the public http(s) URL of this registry.',
    );
  }
  if (baseIri !== undefined && /[?#]/.test(baseIri)) {
    problems.push(`REG_BASE_IRI must not carry a query or fragment, got "${baseIri}".`);
  }
  const secrets: Secrets = {
    rootToken: get<string>('REG_ROOT_TOKEN'),
    sparqlBearerToken: get<string>('REG_SPARQL_BEARER_TOKEN'),
    sparqlUsername: get<string>('REG_SPARQL_USERNAME'),
    sparqlPassword: get<string>('REG_SPARQL_PASSWORD'),
    forgeToken: get<string>('REG_FORGE_TOKEN'),
    forgeGitlabToken: get<string>('REG_FORGE_GITLAB_TOKEN'),
  };
  const rootProblem = rootTokenProblem(secrets.rootToken);
  if (rootProblem !== undefined) problems.push(rootProblem);
  if (
    secrets.sparqlBearerToken !== undefined &&
    (secrets.sparqlUsername !== undefined || secrets.sparqlPassword !== undefined)
  ) {
    problems.push(
      'REG_SPARQL_BEARER_TOKEN and REG_SPARQL_USERNAME/REG_SPARQL_PASSWORD are both set: use one credential form only.',
    );
  }
  if ((secrets.sparqlUsername === undefined) !== (secrets.sparqlPassword === undefined)) {
    problems.push('REG_SPARQL_USERNAME and REG_SPARQL_PASSWORD must be set together or not at all.');
  }
  const queryIndex = need<string>('REG_QUERY_INDEX');
  if (!(QUERY_INDEX_LOADS as readonly string[]).includes(queryIndex)) {
    problems.push(`REG_QUERY_INDEX must be one of ${QUERY_INDEX_LOADS.join(', ')}, got "${queryIndex}".`);
  }
  const logLevel = need<string>('REG_LOG_LEVEL');
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    problems.push(`REG_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}".`);
  }
  const previousBaseIris = get<string[]>('REG_PREVIOUS_BASE_IRIS') ?? [];
  for (const previous of previousBaseIris) {
    if (
      baseIri !== undefined &&
      (previous === baseIri || previous.startsWith(`${baseIri}/`) || baseIri.startsWith(`${previous}/`))
    ) {
      problems.push(
        `REG_PREVIOUS_BASE_IRIS entry "${previous}" equals or nests with REG_BASE_IRI "${baseIri}".`,
      );
    }
  }
  problems.push(...httpTimeoutProblems(get));
  if (problems.length > 0 || baseIri === undefined) throw new ConfigError(problems.join('\n'));

  const queryEndpoint = get<string>('REG_SPARQL_ENDPOINT');
  const graph: GraphBackend =
    queryEndpoint === undefined
      ? { kind: 'embedded' }
      : {
          kind: 'sparql',
          queryEndpoint,
          updateEndpoint: get<string>('REG_SPARQL_UPDATE_ENDPOINT') ?? queryEndpoint,
          ...(get<string>('REG_SPARQL_GRAPH_STORE_ENDPOINT') === undefined
            ? {}
            : { graphStoreEndpoint: get<string>('REG_SPARQL_GRAPH_STORE_ENDPOINT') as string }),
          credential:
            secrets.sparqlBearerToken !== undefined
              ? 'bearer'
              : secrets.sparqlUsername !== undefined
                ? 'basic'
                : 'none',
          timeoutMs: need<number>('REG_SPARQL_TIMEOUT'),
          maxConnections: need<number>('REG_SPARQL_MAX_CONNECTIONS'),
          ...(get<string>('REG_SPARQL_LOG') === undefined
            ? {}
            : { log: get<string>('REG_SPARQL_LOG') as string }),
        };
  const known = new Set(SETTINGS.map((spec) => spec.name));
  const config: Config = {
    baseIri,
    dataDir: need<string>('REG_DATA_DIR'),
    listen: need<ListenAddress>('REG_LISTEN'),
    http: {
      headersTimeoutMs: need<number>('REG_HTTP_HEADERS_TIMEOUT'),
      requestTimeoutMs: need<number>('REG_HTTP_REQUEST_TIMEOUT'),
      keepAliveTimeoutMs: need<number>('REG_HTTP_KEEP_ALIVE_TIMEOUT'),
      idleTimeoutMs: need<number>('REG_HTTP_IDLE_TIMEOUT'),
      maxConnections: need<number>('REG_HTTP_MAX_CONNECTIONS'),
    },
    staticDir: get<string>('REG_STATIC_DIR') ?? packagePath('ui', 'dist'),
    publicRead: need<boolean>('REG_PUBLIC_READ'),
    sparqlPublic: need<boolean>('REG_SPARQL_PUBLIC'),
    operator: get<string>('REG_OPERATOR'),
    maxPayloadBytes: need<number>('REG_MAX_PAYLOAD_BYTES'),
    maxJsonDepth: need<number>('REG_MAX_JSON_DEPTH'),
    maxListItems: need<number>('REG_MAX_LIST_ITEMS'),
    largeWriteShare: need<number>('REG_LARGE_WRITE_SHARE'),
    logLevel: logLevel as Config['logLevel'],
    oidc: {
      issuer: get<string>('REG_OIDC_ISSUER'),
      clientId: get<string>('REG_OIDC_CLIENT_ID'),
      audience: get<string>('REG_OIDC_AUDIENCE') ?? baseIri,
      workloadIssuers: need<string[]>('REG_WORKLOAD_ISSUERS'),
      autoRegisterInstances: need<boolean>('REG_OIDC_AUTO_REGISTER_INSTANCES'),
    },
    graph,
    sparqlTimeoutMs: need<number>('REG_SPARQL_TIMEOUT'),
    queryIndex: queryIndex as Config['queryIndex'],
    sparql: sparqlLimits(need),
    shaclValidateWrites: need<boolean>('REG_SHACL_VALIDATE_WRITES'),
    forgePollIntervalMs: need<number>('REG_FORGE_POLL_INTERVAL'),
    forgeApis: { github: need<string>('REG_FORGE_GITHUB_API'), gitlab: need<string>('REG_FORGE_GITLAB_API') },
    apiDocAllowPrivateTargets: need<boolean>('REG_API_DOC_ALLOW_PRIVATE_TARGETS'),
    healthCheckIntervalMs: need<number>('REG_HEALTH_CHECK_INTERVAL'),
    healthCheckTimeoutMs: Math.min(need<number>('REG_HEALTH_CHECK_TIMEOUT'), MAX_OUTBOUND_TIMEOUT_MS),
    peers: {
      resolveEnabled: need<boolean>('REG_PEER_RESOLVE_ENABLED'),
      resolveTtlMs: need<number>('REG_PEER_RESOLVE_TTL'),
      resolveTickMs: need<number>('REG_PEER_RESOLVE_TICK'),
      timeoutMs: Math.min(need<number>('REG_PEER_RESOLVE_TIMEOUT'), MAX_OUTBOUND_TIMEOUT_MS),
    },
    federation: {
      peerTimeoutMs: need<number>('REG_FEDERATION_PEER_TIMEOUT'),
      budgetMs: Math.min(need<number>('REG_FEDERATION_BUDGET'), MAX_FEDERATION_BUDGET_MS),
      maxHops: need<number>('REG_FEDERATION_MAX_HOPS'),
      maxPeers: need<number>('REG_FEDERATION_MAX_PEERS'),
    },
    trustedProxies: need<string[]>('REG_TRUSTED_PROXIES'),
    previousBaseIris,
    attestations: {
      keysFile: get<string>('REG_ATTESTATION_KEYS'),
      sigstoreTrustedRoot: get<string>('REG_SIGSTORE_TRUSTED_ROOT'),
      requireVerified: need<boolean>('REG_ATTESTATION_REQUIRE_VERIFIED'),
    },
    subscriptions: {
      webhooks: need<boolean>('REG_SUBSCRIPTION_WEBHOOKS'),
      maxAttempts: need<number>('REG_SUBSCRIPTION_MAX_ATTEMPTS'),
      suspendAfter: need<number>('REG_SUBSCRIPTION_SUSPEND_AFTER'),
      backoffBaseMs: need<number>('REG_SUBSCRIPTION_BACKOFF_BASE'),
      backoffMaxMs: need<number>('REG_SUBSCRIPTION_BACKOFF_MAX'),
      timeoutMs: Math.min(need<number>('REG_SUBSCRIPTION_TIMEOUT'), MAX_WEBHOOK_TIMEOUT_MS),
      tickMs: need<number>('REG_SUBSCRIPTION_TICK'),
      batch: need<number>('REG_SUBSCRIPTION_BATCH'),
      maxPerInstance: need<number>('REG_SUBSCRIPTION_MAX_PER_INSTANCE'),
      allowHttp: need<boolean>('REG_SUBSCRIPTION_ALLOW_HTTP'),
      allowPrivateTargets: need<boolean>('REG_SUBSCRIPTION_ALLOW_PRIVATE_TARGETS'),
      deliveryRetentionMs: need<number>('REG_DELIVERY_RETENTION'),
    },
    rateLimits: rateLimitSettings(need),
    corsOrigins: need<string[]>('REG_CORS_ORIGINS'),
    mcpScopes: need<string[]>('REG_MCP_SCOPES'),
    accessLog: need<boolean>('REG_ACCESS_LOG'),
    secrets,
    unknownVariables: Object.keys(env)
      .filter((name) => name.startsWith('REG_') && !known.has(name))
      .sort(),
  };
  return deepFreeze(config);
}

/** The /sparql bounds and budgets; an anonymous budget above the credentialed one is cut down to it. */
function sparqlLimits(need: <T>(name: string) => T): SparqlLimits {
  const timeoutMs = need<number>('REG_SPARQL_TIMEOUT');
  const maxRows = need<number>('REG_SPARQL_MAX_ROWS');
  return {
    maxQueryBytes: need<number>('REG_SPARQL_MAX_QUERY_BYTES'),
    maxDepth: need<number>('REG_SPARQL_MAX_DEPTH'),
    maxTokens: need<number>('REG_SPARQL_MAX_TOKENS'),
    maxConcurrent: need<number>('REG_SPARQL_MAX_CONCURRENT'),
    maxRunning: need<number>('REG_SPARQL_MAX_RUNNING'),
    indexIdleMs: need<number>('REG_SPARQL_INDEX_IDLE'),
    anonymous: {
      timeoutMs: Math.min(need<number>('REG_SPARQL_ANONYMOUS_TIMEOUT'), timeoutMs),
      maxRows: Math.min(need<number>('REG_SPARQL_ANONYMOUS_MAX_ROWS'), maxRows),
      timeoutSetting: 'REG_SPARQL_ANONYMOUS_TIMEOUT',
      rowsSetting: 'REG_SPARQL_ANONYMOUS_MAX_ROWS',
    },
    credentialed: {
      timeoutMs,
      maxRows,
      timeoutSetting: 'REG_SPARQL_TIMEOUT',
      rowsSetting: 'REG_SPARQL_MAX_ROWS',
    },
  };
}

function parseSetting(spec: SettingSpec, text: string, cwd: string): unknown {
  switch (spec.kind) {
    case 'url':
      return parseHttpUrl(text);
    case 'url-list':
      return parseList(text).map(parseHttpUrl);
    case 'issuer':
      return parseIssuer(text);
    case 'issuer-list':
      return parseList(text).map(parseIssuer);
    case 'string':
    case 'secret':
      return text.trim();
    case 'boolean':
      return parseBoolean(text);
    case 'duration':
      return parseDuration(text);
    case 'bytes':
      return parseByteSize(text);
    case 'integer':
      return parseInteger(text, spec.min ?? 0, spec.max ?? Number.MAX_SAFE_INTEGER);
    case 'list':
      return parseList(text);
    case 'listen':
      return parseListen(text);
    case 'path':
      return path.resolve(cwd, text.trim());
    case 'rate-limit':
      return parseRateLimit(text);
    case 'origin-list':
      return parseOriginList(text);
  }
}

/**
 * Refusals of connection time limits: none may be zero (Node reads zero as "never", which is what they exist to
 * prevent), and the request head cannot be given longer than the whole request.
 */
function httpTimeoutProblems(get: <T>(name: string) => T | undefined): string[] {
  const problems: string[] = [];
  const names = ['HEADERS', 'REQUEST', 'KEEP_ALIVE', 'IDLE'].map((part) => `REG_HTTP_${part}_TIMEOUT`);
  for (const name of names)
    if (get<number>(name) === 0) problems.push(`${name} must be longer than 0, got 0.`);
  const headers = get<number>('REG_HTTP_HEADERS_TIMEOUT');
  const request = get<number>('REG_HTTP_REQUEST_TIMEOUT');
  if (headers !== undefined && request !== undefined && headers > request)
    problems.push(
      `REG_HTTP_HEADERS_TIMEOUT (${headers / 1000} s) must not be longer than REG_HTTP_REQUEST_TIMEOUT (${request / 1000} s).`,
    );
  return problems;
}

/** Returns the refusal sentence for an unusable root token, or undefined when it is absent or acceptable. */
function rootTokenProblem(token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  const lower = token.toLowerCase();
  if (
    PLACEHOLDER_TOKENS.has(lower) ||
    PLACEHOLDER_PARTS.some((part) => lower.includes(part)) ||
    /^(.)\1*$/.test(token)
  ) {
    return 'REG_ROOT_TOKEN is a placeholder: set it to a random secret of at least 16 characters (for example `openssl rand -hex 32`).';
  }
  if (token.length < 16) {
    return `REG_ROOT_TOKEN is ${token.length} characters long: it must have at least 16.`;
  }
  return undefined;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** One REG_* setting as `reg config` shows it: its effective value (secrets only as set or not) and its source. */
export interface SettingView {
  readonly name: string;
  /** The value in effect, as it would be written in the environment; "(set)" for a secret; undefined if unset. */
  readonly value: string | undefined;
  /** `environment`: set there; `default`: the documented default; `derived`: worked out from another setting. */
  readonly source: 'environment' | 'default' | 'derived' | 'unset';
  /** For a derived value: what it was derived from. */
  readonly from?: string;
}

/** Every setting with the value in effect and where it came from, in documentation order. */
export function settingSources(
  env: Readonly<Record<string, string | undefined>>,
  config: Config,
): SettingView[] {
  return SETTINGS.map((spec): SettingView => {
    const raw = env[spec.name];
    if (raw !== undefined && raw.trim() !== '')
      return { name: spec.name, value: spec.kind === 'secret' ? '(set)' : raw.trim(), source: 'environment' };
    if (spec.name === 'REG_BASE_IRI')
      return {
        name: spec.name,
        value: config.baseIri,
        source: 'derived',
        from: 'REG_LISTEN (a loopback address)',
      };
    if (spec.name === 'REG_STATIC_DIR')
      return {
        name: spec.name,
        value: config.staticDir,
        source: 'default',
        from: 'the web page built into the package',
      };
    if (spec.fallback !== undefined && spec.fallback !== '')
      return { name: spec.name, value: spec.fallback, source: 'default' };
    return { name: spec.name, value: undefined, source: 'unset' };
  });
}

/** The printable view of a configuration: no secret values, only whether each is set. */
export function redactConfig(config: Config): Record<string, unknown> {
  const { secrets, graph, ...rest } = config;
  return {
    ...rest,
    listen: `${config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host}:${config.listen.port}`,
    graph:
      graph.kind === 'embedded'
        ? { kind: 'embedded', path: path.join(config.dataDir, 'registry.db') }
        : graph,
    root_token_set: secrets.rootToken !== undefined,
    forge_token_set: secrets.forgeToken !== undefined,
    forge_gitlab_token_set: secrets.forgeGitlabToken !== undefined,
    sparql_credential: graph.kind === 'sparql' ? graph.credential : 'none',
    sparql_username: secrets.sparqlUsername,
  };
}
