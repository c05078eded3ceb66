/**
 * The table of every `REG_*` setting: its default, its syntax and whether it is a secret. `readConfig`
 * reads the environment through this table only, so `serve`, `config` and the documentation agree.
 */

/** The syntax a setting's value is read with. */
export type SettingKind =
  | 'url'
  | 'issuer'
  | 'issuer-list'
  | 'string'
  | 'secret'
  | 'boolean'
  | 'duration'
  | 'bytes'
  | 'integer'
  | 'list'
  | 'url-list'
  | 'listen'
  | 'path'
  | 'rate-limit'
  | 'origin-list';

/** One documented setting. */
export interface SettingSpec {
  readonly name: string;
  readonly kind: SettingKind;
  /** The value used when the variable is unset, as it would be written in the environment. */
  readonly fallback?: string;
  readonly min?: number;
  readonly max?: number;
  readonly summary: string;
}

/** Every setting the registry reads, in documentation order. */
export const SETTINGS: readonly SettingSpec[] = [
  {
    name: 'REG_BASE_IRI',
    kind: 'url',
    summary:
      'public URL of the registry; every minted IRI starts with it (required, except on a loopback REG_LISTEN: http://localhost:<port>)',
  },
  {
    name: 'REG_DATA_DIR',
    kind: 'path',
    fallback: './data',
    summary: 'directory holding registry.db (records and operational data)',
  },
  {
    name: 'REG_LISTEN',
    kind: 'listen',
    fallback: '127.0.0.1:8080',
    summary:
      'address the HTTP server binds (this machine only unless set; 0.0.0.0:8080 listens on every interface)',
  },
  {
    name: 'REG_HTTP_HEADERS_TIMEOUT',
    kind: 'duration',
    fallback: '20s',
    summary:
      'time a new connection has to send a whole request head; past it the connection is closed (408 if it sent some)',
  },
  {
    name: 'REG_HTTP_REQUEST_TIMEOUT',
    kind: 'duration',
    fallback: '60s',
    summary:
      'time a client has to send a whole request, body included; past it: 408 and the connection closed',
  },
  {
    name: 'REG_HTTP_KEEP_ALIVE_TIMEOUT',
    kind: 'duration',
    fallback: '5s',
    summary: 'how long a connection may wait idle for its next request after an answer',
  },
  {
    name: 'REG_HTTP_IDLE_TIMEOUT',
    kind: 'duration',
    fallback: '30s',
    summary:
      'a connection on which nothing moves this long is closed (a client that stops reading an answer, say); work on a request is not cut',
  },
  {
    name: 'REG_HTTP_MAX_CONNECTIONS',
    kind: 'integer',
    fallback: '1000',
    min: 1,
    max: 100000,
    summary: 'open client connections at most; one more is closed at once',
  },
  {
    name: 'REG_STATIC_DIR',
    kind: 'path',
    summary: 'directory of the built web page (default: the one in the package)',
  },
  { name: 'REG_PUBLIC_READ', kind: 'boolean', fallback: 'true', summary: 'anonymous reads of the REST API' },
  { name: 'REG_SPARQL_PUBLIC', kind: 'boolean', fallback: 'true', summary: 'anonymous queries on /sparql' },
  {
    name: 'REG_ROOT_TOKEN',
    kind: 'secret',
    summary: 'bootstrap administrator token (16+ characters, not a placeholder)',
  },
  { name: 'REG_OPERATOR', kind: 'string', summary: 'operator named in the well-known description' },
  {
    name: 'REG_MAX_PAYLOAD_BYTES',
    kind: 'bytes',
    fallback: '2MiB',
    summary: 'largest accepted request body',
  },
  {
    name: 'REG_MAX_JSON_DEPTH',
    kind: 'integer',
    fallback: '64',
    min: 8,
    max: 256,
    summary: 'deepest nesting of objects and lists in a JSON request body (deeper: 400 too-deep)',
  },
  {
    name: 'REG_LARGE_WRITE_SHARE',
    kind: 'integer',
    fallback: '10',
    min: 1,
    max: 100,
    summary:
      'percent of the time large writes (bodies of 256 KiB or more) may hold while other requests are served; 100: no limit',
  },
  {
    name: 'REG_MAX_LIST_ITEMS',
    kind: 'integer',
    fallback: '1000',
    min: 1,
    max: 100000,
    summary: 'most values of one list field of a record, e.g. keywords (more: 422 too-many-items)',
  },
  { name: 'REG_LOG_LEVEL', kind: 'string', fallback: 'info', summary: 'debug, info, warn or error' },
  {
    name: 'REG_ACCESS_LOG',
    kind: 'boolean',
    fallback: 'true',
    summary:
      'write one JSON line per request to the log (method, route, status, bytes, duration, kind of caller, request id); probes at debug',
  },
  { name: 'REG_OIDC_ISSUER', kind: 'issuer', summary: 'primary identity provider (human sign-in and roles)' },
  { name: 'REG_OIDC_CLIENT_ID', kind: 'string', summary: 'client id of the web page at the primary issuer' },
  {
    name: 'REG_OIDC_AUDIENCE',
    kind: 'string',
    summary: 'audience tokens must carry (default: the base IRI)',
  },
  {
    name: 'REG_WORKLOAD_ISSUERS',
    kind: 'issuer-list',
    fallback: '',
    summary: 'extra issuers trusted only for workloads',
  },
  {
    name: 'REG_OIDC_AUTO_REGISTER_INSTANCES',
    kind: 'boolean',
    fallback: 'false',
    summary: 'any accepted workload may register a deployment of its own software',
  },
  {
    name: 'REG_SPARQL_ENDPOINT',
    kind: 'url',
    summary: 'external SPARQL 1.1 query endpoint (absent: embedded store)',
  },
  {
    name: 'REG_SPARQL_UPDATE_ENDPOINT',
    kind: 'url',
    summary: 'external update endpoint (default: the query endpoint)',
  },
  {
    name: 'REG_SPARQL_GRAPH_STORE_ENDPOINT',
    kind: 'url',
    summary:
      'external SPARQL 1.1 Graph Store Protocol endpoint: inserts are posted there as N-Triples (those of a commit that only inserts, or of 64 lines or more), which Virtuoso ingests 1.4-3 times as fast as INSERT DATA (absent: INSERT DATA only)',
  },
  { name: 'REG_SPARQL_BEARER_TOKEN', kind: 'secret', summary: 'bearer credential for the external endpoint' },
  { name: 'REG_SPARQL_USERNAME', kind: 'string', summary: 'username for the external endpoint' },
  { name: 'REG_SPARQL_PASSWORD', kind: 'secret', summary: 'password for the external endpoint' },
  {
    name: 'REG_SPARQL_LOG',
    kind: 'path',
    summary:
      'file to which every query and update sent to the external endpoint is appended, one JSON line each (for diagnosis; absent: none)',
  },
  {
    name: 'REG_SPARQL_TIMEOUT',
    kind: 'duration',
    fallback: '60s',
    summary:
      "time limit per SPARQL query (the registry's own, and those on /sparql of callers with a credential): on the embedded query index, or per request to the external endpoint",
  },
  {
    name: 'REG_SPARQL_MAX_CONNECTIONS',
    kind: 'integer',
    fallback: '8',
    min: 1,
    max: 256,
    summary:
      'connections the registry keeps open to the external endpoint at most (requests beyond wait for one); stock Virtuoso serves 10 at once and resets the connections beyond',
  },
  {
    name: 'REG_SPARQL_MAX_ROWS',
    kind: 'integer',
    fallback: '100000',
    min: 1,
    max: 10000000,
    summary:
      'most solutions a /sparql query of a caller with a credential may have (more: 400 too-many-rows)',
  },
  {
    name: 'REG_SPARQL_ANONYMOUS_TIMEOUT',
    kind: 'duration',
    fallback: '10s',
    summary: 'time limit of one /sparql query without a credential (past it: 504, the query is stopped)',
  },
  {
    name: 'REG_SPARQL_ANONYMOUS_MAX_ROWS',
    kind: 'integer',
    fallback: '10000',
    min: 1,
    max: 10000000,
    summary: 'most solutions a /sparql query without a credential may have (more: 400 too-many-rows)',
  },
  {
    name: 'REG_SPARQL_MAX_CONCURRENT',
    kind: 'integer',
    fallback: '2',
    min: 1,
    max: 100,
    summary:
      '/sparql queries one caller may have under way at once: per credential, or per client address without one (more: 429)',
  },
  {
    name: 'REG_SPARQL_MAX_RUNNING',
    kind: 'integer',
    fallback: '4',
    min: 1,
    max: 64,
    summary:
      '/sparql queries sent to the external endpoint at once, all callers together (the rest wait); the embedded store runs them one at a time',
  },
  {
    name: 'REG_SPARQL_MAX_QUERY_BYTES',
    kind: 'bytes',
    fallback: '64KiB',
    summary: 'longest query text /sparql accepts (longer: 400 query-too-long)',
  },
  {
    name: 'REG_SPARQL_MAX_DEPTH',
    kind: 'integer',
    fallback: '32',
    min: 4,
    max: 128,
    summary: 'deepest nesting of {}, () and [] in a /sparql query (deeper: 400 query-too-deep)',
  },
  {
    name: 'REG_SPARQL_MAX_TOKENS',
    kind: 'integer',
    fallback: '1000',
    min: 50,
    max: 100000,
    summary:
      'most syntax elements (terms, keywords, operators) of a /sparql query after its prefixes, VALUES data not counted (more: 400 query-too-complex)',
  },
  {
    name: 'REG_SPARQL_INDEX_IDLE',
    kind: 'duration',
    fallback: '10m',
    summary:
      "embedded store: the copies of the query index loaded on demand (the one that answers /sparql, and with REG_QUERY_INDEX=on-demand the registry's own) are dropped after this long without a query, freeing their memory (0: kept)",
  },
  {
    name: 'REG_QUERY_INDEX',
    kind: 'string',
    fallback: 'at-start',
    summary:
      "embedded store: load the registry's own copy of the query index at every start (at-start; /readyz waits for it), or only when one of its reads needs it (on-demand: ready without it, the API answered from registry.db; for large registries)",
  },
  {
    name: 'REG_SHACL_VALIDATE_WRITES',
    kind: 'boolean',
    fallback: 'true',
    summary: 'shape violations block writes',
  },
  {
    name: 'REG_FORGE_TOKEN',
    kind: 'secret',
    summary: 'registry-wide token for private repository sync (sent to the GitHub API only)',
  },
  {
    name: 'REG_FORGE_GITLAB_TOKEN',
    kind: 'secret',
    summary: 'registry-wide token for private repository sync from GitLab (sent to the GitLab API only)',
  },
  {
    name: 'REG_FORGE_POLL_INTERVAL',
    kind: 'duration',
    fallback: '24h',
    summary: 'interval of repository polling',
  },
  {
    name: 'REG_FORGE_GITHUB_API',
    kind: 'url',
    fallback: 'https://api.github.com',
    summary: 'base URL of the GitHub REST API (GitHub Enterprise: https://<host>/api/v3)',
  },
  {
    name: 'REG_FORGE_GITLAB_API',
    kind: 'url',
    fallback: 'https://gitlab.com/api/v4',
    summary: 'base URL of the GitLab REST API (self-managed: https://<host>/api/v4)',
  },
  {
    name: 'REG_API_DOC_ALLOW_PRIVATE_TARGETS',
    kind: 'boolean',
    fallback: 'false',
    summary: 'let the API description proxy fetch from private, loopback and link-local addresses',
  },
  {
    name: 'REG_HEALTH_CHECK_INTERVAL',
    kind: 'duration',
    fallback: '5m',
    summary: 'interval of deployment health probes',
  },
  {
    name: 'REG_HEALTH_CHECK_TIMEOUT',
    kind: 'duration',
    fallback: '5s',
    summary: 'time limit of one deployment health probe (30s at most)',
  },
  {
    name: 'REG_PEER_RESOLVE_ENABLED',
    kind: 'boolean',
    fallback: 'true',
    summary: 'resolve foreign IRIs from peers',
  },
  {
    name: 'REG_PEER_RESOLVE_TTL',
    kind: 'duration',
    fallback: '24h',
    summary: 'age after which peer stubs are refreshed',
  },
  {
    name: 'REG_PEER_RESOLVE_TICK',
    kind: 'duration',
    fallback: '30s',
    summary: 'interval at which the resolver looks for foreign IRIs to fetch',
  },
  {
    name: 'REG_PEER_RESOLVE_TIMEOUT',
    kind: 'duration',
    fallback: '5s',
    summary: 'time limit of one request to a peer registry (30s at most)',
  },
  {
    name: 'REG_FEDERATION_PEER_TIMEOUT',
    kind: 'duration',
    fallback: '3s',
    summary: 'time a federated search waits for one peer',
  },
  {
    name: 'REG_FEDERATION_BUDGET',
    kind: 'duration',
    fallback: '10s',
    summary: 'time budget of a whole federated search, relays included (60s at most)',
  },
  {
    name: 'REG_FEDERATION_MAX_HOPS',
    kind: 'integer',
    fallback: '3',
    min: 0,
    max: 8,
    summary: 'how many registries deep a federated search travels',
  },
  {
    name: 'REG_FEDERATION_MAX_PEERS',
    kind: 'integer',
    fallback: '12',
    min: 1,
    max: 64,
    summary: 'peers one registry asks per federated search',
  },
  {
    name: 'REG_TRUSTED_PROXIES',
    kind: 'list',
    fallback: '',
    summary: 'proxy addresses whose X-Forwarded-For is believed',
  },
  {
    name: 'REG_RATE_LIMITS',
    kind: 'boolean',
    fallback: 'on',
    summary:
      'off switches the rate limiter off (administrators, the root token, /healthz, /readyz, /metrics and the web page assets are never limited)',
  },
  {
    name: 'REG_RATE_LIMIT_READ',
    kind: 'rate-limit',
    fallback: '1200/min+200',
    summary:
      'rate of reads: GET and HEAD of the API, of record IRIs, /llms.txt and /.well-known/, per caller with a credential: <n>/<s|min|h>[+burst] (over it: 429 rate-limited)',
  },
  {
    name: 'REG_RATE_LIMIT_READ_ANONYMOUS',
    kind: 'rate-limit',
    fallback: '300/min+60',
    summary:
      'rate of reads: GET and HEAD of the API, of record IRIs, /llms.txt and /.well-known/, per client address without a credential (IPv6: per /64)',
  },
  {
    name: 'REG_RATE_LIMIT_WRITE',
    kind: 'rate-limit',
    fallback: '300/min+60',
    summary:
      'rate of writes: POST, PUT, PATCH and DELETE of the API, per caller with a credential: <n>/<s|min|h>[+burst] (over it: 429 rate-limited)',
  },
  {
    name: 'REG_RATE_LIMIT_WRITE_ANONYMOUS',
    kind: 'rate-limit',
    fallback: '60/min+20',
    summary:
      'rate of writes: POST, PUT, PATCH and DELETE of the API, per client address without a credential (IPv6: per /64)',
  },
  {
    name: 'REG_RATE_LIMIT_SPARQL',
    kind: 'rate-limit',
    fallback: '120/min+30',
    summary:
      'rate of queries on /sparql, per caller with a credential: <n>/<s|min|h>[+burst] (over it: 429 rate-limited)',
  },
  {
    name: 'REG_RATE_LIMIT_SPARQL_ANONYMOUS',
    kind: 'rate-limit',
    fallback: '30/min+10',
    summary: 'rate of queries on /sparql, per client address without a credential (IPv6: per /64)',
  },
  {
    name: 'REG_RATE_LIMIT_FEDERATED',
    kind: 'rate-limit',
    fallback: '60/min+10',
    summary:
      'rate of federated searches (federated=true) and /api/v1/resolve, per caller with a credential: <n>/<s|min|h>[+burst] (over it: 429 rate-limited)',
  },
  {
    name: 'REG_RATE_LIMIT_FEDERATED_ANONYMOUS',
    kind: 'rate-limit',
    fallback: '10/min+5',
    summary:
      'rate of federated searches (federated=true) and /api/v1/resolve, per client address without a credential (IPv6: per /64)',
  },
  {
    name: 'REG_RATE_LIMIT_MCP',
    kind: 'rate-limit',
    fallback: '600/min+100',
    summary:
      'rate of requests to /mcp, per caller with a credential: <n>/<s|min|h>[+burst] (over it: 429 rate-limited)',
  },
  {
    name: 'REG_RATE_LIMIT_MCP_ANONYMOUS',
    kind: 'rate-limit',
    fallback: '120/min+30',
    summary: 'rate of requests to /mcp, per client address without a credential (IPv6: per /64)',
  },
  {
    name: 'REG_RATE_LIMIT_OUTBOUND',
    kind: 'rate-limit',
    fallback: '60/min+10',
    summary:
      'rate of requests that make the registry fetch from elsewhere: adding a peer, syncing a software record, its API description, per caller with a credential: <n>/<s|min|h>[+burst] (over it: 429 rate-limited)',
  },
  {
    name: 'REG_RATE_LIMIT_OUTBOUND_ANONYMOUS',
    kind: 'rate-limit',
    fallback: '10/min+5',
    summary:
      'rate of requests that make the registry fetch from elsewhere: adding a peer, syncing a software record, its API description, per client address without a credential (IPv6: per /64)',
  },
  {
    name: 'REG_RATE_LIMIT_AUTH_FAIL',
    kind: 'rate-limit',
    fallback: '20/min+10',
    summary:
      'failed credentials one client address may send; past it every request of that address carrying a credential is refused (429) before the credential is checked',
  },
  {
    name: 'REG_MCP_SCOPES',
    kind: 'list',
    fallback: '',
    summary:
      'OAuth scopes the protected-resource metadata of the API and /mcp names (scopes_supported; comma-separated); none: left out',
  },
  {
    name: 'REG_CORS_ORIGINS',
    kind: 'origin-list',
    fallback: '',
    summary:
      'web origins (https://app.example.org, comma-separated) whose pages may call with a credential or write; pages of any origin may read anonymously',
  },
  {
    name: 'REG_PREVIOUS_BASE_IRIS',
    kind: 'url-list',
    fallback: '',
    summary: 'base IRIs the registry was served under before',
  },
  {
    name: 'REG_SUBSCRIPTION_WEBHOOKS',
    kind: 'boolean',
    fallback: 'true',
    summary: 'run the webhook delivery worker',
  },
  {
    name: 'REG_SUBSCRIPTION_MAX_ATTEMPTS',
    kind: 'integer',
    fallback: '8',
    min: 1,
    max: 100,
    summary: 'attempts before a delivery is dead',
  },
  {
    name: 'REG_SUBSCRIPTION_SUSPEND_AFTER',
    kind: 'integer',
    fallback: '12',
    min: 1,
    max: 1000,
    summary: 'consecutive failures that suspend a webhook',
  },
  { name: 'REG_SUBSCRIPTION_BACKOFF_BASE', kind: 'duration', fallback: '30s', summary: 'first retry delay' },
  { name: 'REG_SUBSCRIPTION_BACKOFF_MAX', kind: 'duration', fallback: '6h', summary: 'longest retry delay' },
  {
    name: 'REG_SUBSCRIPTION_TIMEOUT',
    kind: 'duration',
    fallback: '5s',
    summary: 'time limit per webhook attempt (30s at most)',
  },
  {
    name: 'REG_SUBSCRIPTION_TICK',
    kind: 'duration',
    fallback: '5s',
    summary: 'delivery worker poll interval',
  },
  {
    name: 'REG_SUBSCRIPTION_BATCH',
    kind: 'integer',
    fallback: '20',
    min: 1,
    max: 500,
    summary: 'deliveries per worker tick',
  },
  {
    name: 'REG_SUBSCRIPTION_MAX_PER_INSTANCE',
    kind: 'integer',
    fallback: '32',
    min: 1,
    max: 10000,
    summary: 'subscriptions a deployment may hold',
  },
  {
    name: 'REG_SUBSCRIPTION_ALLOW_HTTP',
    kind: 'boolean',
    fallback: 'false',
    summary: 'allow plain-http webhook targets',
  },
  {
    name: 'REG_SUBSCRIPTION_ALLOW_PRIVATE_TARGETS',
    kind: 'boolean',
    fallback: 'false',
    summary: 'allow private, loopback and link-local webhook targets',
  },
  {
    name: 'REG_DELIVERY_RETENTION',
    kind: 'duration',
    fallback: '7d',
    summary:
      'how long delivered and dead webhook deliveries, with their attempts in the delivery log, are kept after their last attempt',
  },
  {
    name: 'REG_ATTESTATION_KEYS',
    kind: 'path',
    summary:
      'file of public keys (PEM, or a JWKS) that DSSE-signed build attestations are verified with; read at each verification',
  },
  {
    name: 'REG_SIGSTORE_TRUSTED_ROOT',
    kind: 'path',
    summary:
      'Sigstore trusted_root.json that Sigstore bundles of build attestations are verified against, offline',
  },
  {
    name: 'REG_ATTESTATION_REQUIRE_VERIFIED',
    kind: 'boolean',
    fallback: 'false',
    summary: 'refuse (422) every build attestation whose signature is not verified',
  },
];
