import type { Hono } from 'hono';
import {
  ACK_RESULT,
  ADDED_PEER,
  ADVERTISE_ANSWER,
  CAPABILITY_MATCHES,
  CONTENT_IDENTITY,
  DELIVERY,
  DELIVERY_LOG,
  DELIVERY_PAGE,
  MINTED_TOKEN,
  SECRET_ROTATED,
  PEER_LIST,
  PEER_PREVIEW,
  SUBSCRIPTION_DETAIL,
  SUBSCRIPTION_LIST,
  SUBSCRIPTION_WRITTEN,
  TOKEN_LIST,
  WHOAMI,
  FIELD_ERROR,
  GRAPH_ANSWER,
  LINEAGE_ANSWER,
  LIST_PAGE,
  PROBLEM,
  READ_SHAPES,
  recordSchema,
  REGISTRY_DESCRIPTION,
  SEARCH_ANSWER,
  VOCAB_HIT,
  WARNINGS,
  type JsonSchema,
  type ReadShape,
} from '../api/index.js';
import { ERROR_CODES } from '../core/error-codes.js';
import {
  DEREFERENCEABLE,
  KINDS,
  listFilters,
  type ListedKind,
  type RecordKind,
} from '../core/records/kind-registry.js';
import { routePath } from './allowed-methods.js';
import { DEPLOYMENTS_VIEW, EVENT_ANSWER, HISTORY_PAGE } from './routes/deployment-events.js';
import type { AppEnv } from './env.js';
import {
  BASIS_MATCHES_ANSWER,
  IMPACT_ANSWER,
  IMPACT_QUERY_PARAMETERS,
  OBSERVED_CAPABILITY_ANSWER,
} from './routes/impact.js';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), or any other object of the description. */
type Schema = Record<string, unknown>;

/** What a read of each record kind adds to its spec (`src/api`); every kind the API serves has one. */
const READS: Readonly<Record<RecordKind, ReadShape>> = READ_SHAPES;

/** The schema name of a record kind in `components`. */
const schemaName = (kind: string): string =>
  kind
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/** Which record kind a path reads or writes, when it is a record path of the API. */
const RECORD_PATHS: readonly (readonly [pattern: RegExp, kind: RecordKind])[] = [
  [/^\/api\/v1\/software\/\{id\}\/releases(\/\{release_id\})?$/, 'release'],
  [/^\/api\/v1\/software(\/\{id\})?$/, 'software'],
  [/^\/api\/v1\/instances(\/\{id\})?$/, 'instance'],
  [/^\/api\/v1\/runs(\/\{id\})?$/, 'run'],
  [/^\/api\/v1\/artifacts(\/\{id\})?$/, 'artifact'],
  [/^\/api\/v1\/types(\/\{id\})?$/, 'type'],
];

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** A page of a list of `items` (`src/api` LIST_PAGE). */
const listPage = (items: Schema): Schema => ({
  ...LIST_PAGE,
  properties: { ...LIST_PAGE.properties, items: { type: 'array', items } },
});

/** The answers of the API that are not records, by method and path (`src/api` envelopes). */
const ANSWERS: Readonly<Record<string, Schema>> = {
  'get /api/v1/search': ref('SearchAnswer'),
  'get /api/v1/artifacts/{id}/lineage': ref('Lineage'),
  'get /api/v1/graph': ref('Graph'),
  'post /api/v1/advertise/produced': ref('AdvertiseAnswer'),
  'post /api/v1/advertise/consumed': ref('AdvertiseAnswer'),
  'get /api/v1/capabilities': { anyOf: [ref('CapabilityMatches'), BASIS_MATCHES_ANSWER] },
  'get /api/v1/impact': IMPACT_ANSWER,
  'get /api/v1/software/{id}/observed-capability': OBSERVED_CAPABILITY_ANSWER,
  'get /api/v1/instances/{id}/observed-capability': OBSERVED_CAPABILITY_ANSWER,
  'get /api/v1/vocab/search': listPage(ref('VocabHit')),
  'get /.well-known/reg-registry': ref('RegistryDescription'),
  'get /api/v1/whoami': ref('Whoami'),
  'post /api/v1/instances/{id}/tokens': ref('MintedToken'),
  'post /api/v1/software/{id}/tokens': ref('MintedToken'),
  'get /api/v1/instances/{id}/tokens': ref('TokenList'),
  'get /api/v1/software/{id}/tokens': ref('TokenList'),
  'get /api/v1/instances/{id}/subscriptions': ref('SubscriptionList'),
  'post /api/v1/instances/{id}/subscriptions': ref('SubscriptionWritten'),
  'get /api/v1/subscriptions/{id}': ref('SubscriptionDetail'),
  'patch /api/v1/subscriptions/{id}': ref('SubscriptionWritten'),
  'get /api/v1/subscriptions/{id}/deliveries': ref('DeliveryPage'),
  'post /api/v1/subscriptions/{id}/deliveries/ack': ref('AckResult'),
  'get /api/v1/subscriptions/{id}/log': ref('DeliveryLog'),
  'post /api/v1/subscriptions/{id}/deliveries/{delivery}/redeliver': ref('Delivery'),
  'post /api/v1/subscriptions/{id}/secret': ref('SecretRotated'),
  'get /api/v1/peers': ref('PeerList'),
  'post /api/v1/peers': { anyOf: [ref('AddedPeer'), ref('PeerPreview')] },
  'get /api/v1/identify': ref('ContentIdentity'),
  'post /api/v1/deployment-events': EVENT_ANSWER,
  'get /api/v1/instances/{id}/history': HISTORY_PAGE,
  'get /api/v1/software/{id}/deployments': DEPLOYMENTS_VIEW,
};

/** Query parameters of single operations, by method and path. */
const QUERY_PARAMETERS: Readonly<Record<string, readonly Schema[]>> = {
  ...IMPACT_QUERY_PARAMETERS,
  'get /api/v1/subscriptions/{id}/log': [
    {
      name: 'limit',
      in: 'query',
      description: 'attempts per page, newest first (default 50, at most 500)',
      schema: { type: 'integer', minimum: 1 },
    },
    {
      name: 'before',
      in: 'query',
      description: 'only attempts older than this attempt id (the next_before of the previous page)',
      schema: { type: 'integer', minimum: 1 },
    },
  ],
  ...Object.fromEntries(
    ['produced', 'consumed'].map((role) => [
      `post /api/v1/advertise/${role}`,
      [
        {
          name: 'dry_run',
          in: 'query',
          description:
            'true: check and map the advertisement as a real call would, and answer 200 with the records it would write (dry_run.records, dry_run.turtle) without writing anything',
          schema: { type: 'string', enum: ['true', 'false'] },
        },
      ],
    ]),
  ),
  ...Object.fromEntries(
    ['runs', 'artifacts'].map((kind) => [
      `get /api/v1/${kind}/{id}/ro-crate`,
      [
        {
          name: 'format',
          in: 'query',
          description:
            "json: the crate's ro-crate-metadata.json as application/ld+json (the default, also chosen by Accept); zip: an application/zip archive holding it and ro-crate-preview.html",
          schema: { type: 'string', enum: ['json', 'zip'] },
        },
        ...(kind === 'artifacts'
          ? [
              {
                name: 'depth',
                in: 'query',
                description:
                  'how many generations of lineage the crate follows each way, as the lineage API bounds it',
                schema: { type: 'string' },
              },
            ]
          : []),
      ],
    ]),
  ),
  'post /api/v1/deployment-events': [
    {
      name: 'instance',
      in: 'query',
      description:
        "for a curator: the deployment (id or IRI) the event is about; a deployment's own credential needs none",
      schema: { type: 'string' },
    },
  ],
  'get /api/v1/instances/{id}/history': [
    {
      name: 'limit',
      in: 'query',
      description: 'entries per page, newest first (default 25, at most 200)',
      schema: { type: 'integer', minimum: 1 },
    },
    {
      name: 'cursor',
      in: 'query',
      description: 'the next_cursor of the previous page',
      schema: { type: 'string' },
    },
  ],
  'get /api/v1/identify': [
    {
      name: 'id',
      in: 'query',
      required: true,
      description:
        'a name of the content: ni:///sha-256;…, hash://sha256/<hex>, a hex digest, sha256:<hex>, an in-toto DigestSet as JSON, or a SWHID',
      schema: { type: 'string' },
    },
  ],
};

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});

/**
 * The OpenAPI 3.1 description of the registry's HTTP interface, generated from what the server itself runs: every
 * route the application answers (its paths and methods), the record kinds' JSON shapes from the same descriptions
 * the mapper reads and the answers declared in `src/api`, and the problem codes from the error catalogue. It never
 * drifts from the code.
 */
export function openApiDocument(app: Hono<AppEnv>, baseIri: string, version: string): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const route of app.routes) {
    if (route.method === 'ALL') continue;
    const method = route.method.toLowerCase();
    const { template: path, params } = routePath(route.path);
    const operations = (paths[path] ??= {});
    if (operations[method] !== undefined) continue;
    const kind = RECORD_PATHS.find(([pattern]) => pattern.test(path))?.[1];
    const record = kind === undefined ? undefined : ref(schemaName(kind));
    const listing = kind !== undefined && !path.endsWith('}');
    const answer =
      ANSWERS[`${method} ${path}`] ??
      (record !== undefined && listing && method === 'get' ? listPage(record) : record);
    const writes = ['post', 'put', 'patch'].includes(method);
    const ok =
      answer === undefined
        ? { description: 'success' }
        : {
            description: 'success',
            content: {
              'application/json': { schema: writes ? { allOf: [answer, ref('Warnings')] } : answer },
            },
          };
    // A kind's list takes the filters declared with the kind, then paging and origin.
    const filters =
      listing && method === 'get' && KINDS.some((entry) => entry.kind === kind && 'filters' in entry)
        ? listFilters(kind as ListedKind)
        : [];
    const parameters = [
      ...params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...(QUERY_PARAMETERS[`${method} ${path}`] ?? []),
      ...filters.map((filter) => ({
        name: filter.param,
        in: 'query',
        description: filter.summary,
        schema:
          filter.match.by === 'value' && filter.match.values !== undefined
            ? { type: 'string', enum: [...filter.match.values] }
            : { type: 'string' },
      })),
    ];
    operations[method] = {
      operationId: `${method} ${path}`,
      ...(parameters.length === 0 ? {} : { parameters }),
      ...(writes
        ? {
            requestBody: {
              content: { 'application/json': { schema: record ?? { type: 'object' } } },
            },
          }
        : {}),
      responses: {
        [method === 'post' && listing ? '201' : method === 'delete' ? '204' : '200']:
          method === 'delete' ? { description: 'done' } : ok,
        '4XX': problemResponse('the request was refused; `code` says why'),
        '5XX': problemResponse('the registry could not answer'),
      },
    };
  }
  const schemas: Record<string, JsonSchema | Schema> = {
    Problem: {
      ...PROBLEM,
      properties: {
        ...PROBLEM.properties,
        code: { ...PROBLEM.properties.code, enum: Object.keys(ERROR_CODES) },
      },
    },
    FieldError: FIELD_ERROR,
    Warnings: WARNINGS,
    SearchAnswer: SEARCH_ANSWER,
    Lineage: LINEAGE_ANSWER,
    Graph: GRAPH_ANSWER,
    AdvertiseAnswer: ADVERTISE_ANSWER,
    CapabilityMatches: CAPABILITY_MATCHES,
    VocabHit: VOCAB_HIT,
    RegistryDescription: REGISTRY_DESCRIPTION,
    Whoami: WHOAMI,
    MintedToken: MINTED_TOKEN,
    TokenList: TOKEN_LIST,
    SubscriptionList: SUBSCRIPTION_LIST,
    SubscriptionWritten: SUBSCRIPTION_WRITTEN,
    SubscriptionDetail: SUBSCRIPTION_DETAIL,
    DeliveryPage: DELIVERY_PAGE,
    AckResult: ACK_RESULT,
    Delivery: DELIVERY,
    DeliveryLog: DELIVERY_LOG,
    SecretRotated: SECRET_ROTATED,
    PeerList: PEER_LIST,
    AddedPeer: ADDED_PEER,
    PeerPreview: PEER_PREVIEW,
    ContentIdentity: CONTENT_IDENTITY,
  };
  for (const entry of KINDS) {
    if (entry.spec === undefined || !DEREFERENCEABLE.has(entry.kind as RecordKind)) continue;
    schemas[schemaName(entry.kind)] = recordSchema(entry.spec, READS[entry.kind as RecordKind]);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'reg',
      version,
      description:
        'A registry of software, its releases and deployments, the runs they performed and the artifacts those produced or consumed.',
    },
    servers: [{ url: baseIri }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    components: {
      schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    security: [{}, { bearer: [] }],
  };
}
