/**
 * The answers of the API that are not records: problems, list pages, search, lineage, the graph around a node,
 * advertisements, capability matches, vocabulary hits, the `warnings` of a write and the registry's description.
 * Each is declared once as a JSON Schema (`as const`), from which the OpenAPI description takes its components and
 * `FromSchema` gives the clients their types.
 */
import type { Flat, FromSchema, JsonSchema } from './json-schema.js';
import { CAPABILITY_VIEW, ORIGIN } from './records.js';

const TEXT = { type: 'string' } as const;
const IRI = { type: 'string', format: 'iri' } as const;
const COUNT = { type: 'integer' } as const;
const TEXTS = { type: 'array', items: TEXT } as const;
const IRIS = { type: 'array', items: IRI } as const;

/** One refused field of a request, named by its JSON path (`distributions[0].title`). */
export const FIELD_ERROR = {
  type: 'object',
  properties: { field: TEXT, message: TEXT },
  required: ['field', 'message'],
} as const satisfies JsonSchema;

/**
 * An RFC 9457 problem as the registry writes it: `code` is one of the error catalogue (`GET /problems/<code>`);
 * some problems carry further members (`limit`, `allow`, `timeout_ms`, …).
 */
export const PROBLEM = {
  type: 'object',
  description: 'RFC 9457 problem details',
  properties: {
    type: { type: 'string', format: 'uri' },
    title: TEXT,
    status: COUNT,
    detail: TEXT,
    instance: TEXT,
    code: TEXT,
    request_id: TEXT,
    errors: { type: 'array', items: FIELD_ERROR },
    hints: TEXTS,
  },
  required: ['type', 'title', 'status'],
  additionalProperties: true,
} as const satisfies JsonSchema;

/** The members of a request a write ignored, named in its answer. */
export const WARNINGS = {
  type: 'object',
  properties: { warnings: { ...TEXTS, description: 'members of the request that were ignored' } },
} as const satisfies JsonSchema;

/** Counts of one facet of a list: each value with its label and how many items have it. */
export const FACET = {
  type: 'object',
  properties: {
    name: TEXT,
    values: {
      type: 'array',
      items: {
        type: 'object',
        properties: { value: TEXT, label: TEXT, count: COUNT },
        required: ['value', 'label', 'count'],
      },
    },
  },
  required: ['name', 'values'],
} as const satisfies JsonSchema;

/** A page of a list: its items (each described where the list is), the total and the cursor of the next page. */
export const LIST_PAGE = {
  type: 'object',
  properties: {
    items: { type: 'array', items: {} },
    total: COUNT,
    next_cursor: TEXT,
    facets: { type: 'array', items: FACET },
  },
  required: ['items', 'total'],
} as const satisfies JsonSchema;

/** One hit of `GET /api/v1/search`; a federated search adds how far away it was found. */
export const SEARCH_HIT = {
  type: 'object',
  properties: {
    iri: IRI,
    id: TEXT,
    entity_type: TEXT,
    title: TEXT,
    snippet: TEXT,
    origin: ORIGIN,
    score: { type: 'number' },
    reach: { type: 'string', enum: ['local', 'direct', 'indirect'] },
    hops: COUNT,
    via: TEXTS,
    also_from: TEXTS,
  },
  required: ['iri', 'id', 'entity_type', 'title', 'origin', 'score'],
} as const satisfies JsonSchema;

/** How one peer answered a federated search. */
export const PEER_STATUS = {
  type: 'object',
  properties: {
    peer_id: TEXT,
    base_iri: IRI,
    title: TEXT,
    status: { type: 'string', enum: ['ok', 'timeout', 'error', 'already_handled', 'skipped'] },
    hits: COUNT,
    error: TEXT,
    reach: { type: 'string', enum: ['direct', 'indirect'] },
    hops: COUNT,
    via: TEXTS,
    note: TEXT,
  },
  required: ['base_iri', 'status', 'hits', 'reach', 'hops', 'via'],
} as const satisfies JsonSchema;

/** The answer of `GET /api/v1/search`. */
export const SEARCH_ANSWER = {
  type: 'object',
  properties: {
    query: TEXT,
    hits: { type: 'array', items: SEARCH_HIT },
    total: COUNT,
    partial: { type: 'boolean', description: 'true while the search index is rebuilt: hits may be missing' },
    peers: { type: 'array', items: PEER_STATUS },
    already_handled: { const: true },
    federation: {
      type: 'object',
      properties: {
        query_id: TEXT,
        origin: TEXT,
        registry: TEXT,
        max_hops: COUNT,
        hops_granted: COUNT,
        hops_forwarded: COUNT,
        path: TEXTS,
        budget_exhausted: { type: 'boolean' },
        first_seen_at: TEXT,
        reason: TEXT,
      },
      required: [
        'query_id',
        'origin',
        'registry',
        'max_hops',
        'hops_granted',
        'hops_forwarded',
        'path',
        'budget_exhausted',
      ],
    },
  },
  required: ['query', 'hits', 'total', 'partial', 'peers'],
} as const satisfies JsonSchema;

/**
 * One node of a lineage: an artifact, a run, a dataset (its versions collapsed into it), or an IRI the registry
 * holds nothing about.
 */
export const LINEAGE_NODE = {
  type: 'object',
  properties: {
    iri: IRI,
    entity_type: { type: 'string', enum: ['artifact', 'run', 'dataset', 'unknown'] },
    title: TEXT,
    origin: ORIGIN,
    depth: COUNT,
    unresolved: { const: true },
    versions: { type: 'array', items: IRI },
  },
  required: ['iri', 'entity_type', 'origin', 'depth'],
} as const satisfies JsonSchema;

/** One edge of a lineage, as PROV states it (run → artifact for used and generated; newer → older otherwise). */
export const LINEAGE_EDGE = {
  type: 'object',
  properties: {
    from: IRI,
    to: IRI,
    predicate: { type: 'string', enum: ['used', 'generated', 'derivedFrom', 'revisionOf'] },
  },
  required: ['from', 'to', 'predicate'],
} as const satisfies JsonSchema;

/**
 * The answer of `GET /api/v1/artifacts/{id}/lineage`, or one page of it: `partial` (and `truncated`, its older
 * name) when a budget cut it short, with the `cursor` of the next page.
 */
export const LINEAGE_ANSWER = {
  type: 'object',
  properties: {
    root: IRI,
    direction: { type: 'string', enum: ['up', 'down', 'both'] },
    depth: COUNT,
    nodes: { type: 'array', items: LINEAGE_NODE },
    edges: { type: 'array', items: LINEAGE_EDGE },
    truncated: { type: 'boolean' },
    partial: { type: 'boolean' },
    cursor: TEXT,
    as_of: { type: 'string', format: 'date-time' },
    collapsed: { const: true },
  },
  required: ['root', 'direction', 'depth', 'nodes', 'edges', 'truncated', 'partial'],
} as const satisfies JsonSchema;

/** One node of the graph around an IRI: a record, a part of one, a term, or an IRI held nowhere here. */
export const GRAPH_NODE = {
  type: 'object',
  properties: {
    iri: IRI,
    entity_type: TEXT,
    title: TEXT,
    origin: ORIGIN,
    depth: COUNT,
    tombstoned: { const: true },
    unresolved: { const: true },
  },
  required: ['iri', 'entity_type', 'origin', 'depth'],
} as const satisfies JsonSchema;

/** One statement of the graph around an IRI, with its predicate as a compact name. */
export const GRAPH_EDGE = {
  type: 'object',
  properties: { from: IRI, to: IRI, predicate: IRI, label: TEXT },
  required: ['from', 'to', 'predicate', 'label'],
} as const satisfies JsonSchema;

/** The answer of `GET /api/v1/graph`. */
export const GRAPH_ANSWER = {
  type: 'object',
  properties: {
    root: IRI,
    depth: COUNT,
    nodes: { type: 'array', items: GRAPH_NODE },
    edges: { type: 'array', items: GRAPH_EDGE },
    truncated: { type: 'boolean' },
  },
  required: ['root', 'depth', 'nodes', 'edges', 'truncated'],
} as const satisfies JsonSchema;

/** The answer of `POST /api/v1/advertise/{produced|consumed}`: the run, its artifacts, what waits to resolve. */
export const ADVERTISE_ANSWER = {
  type: 'object',
  properties: {
    run: IRI,
    artifacts: IRIS,
    created: { type: 'boolean', description: 'false when the run was recorded before (same key)' },
    queued_for_resolution: IRIS,
    dry_run: {
      type: 'object',
      description:
        'with dry_run=true: the records the call would write, as JSON and as Turtle; nothing was written',
      properties: {
        records: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              kind: { type: 'string' },
              iri: IRI,
              record: { type: 'object', additionalProperties: true },
            },
            required: ['kind', 'iri', 'record'],
          },
        },
        turtle: { type: 'string' },
      },
      required: ['records', 'turtle'],
    },
  },
  required: ['run', 'artifacts', 'created'],
} as const satisfies JsonSchema;

/** One record that declared a capability matching `GET /api/v1/capabilities`. */
export const CAPABILITY_MATCH = {
  type: 'object',
  properties: {
    iri: IRI,
    id: TEXT,
    entity_type: { type: 'string', enum: ['software', 'release', 'instance'] },
    name: TEXT,
    software: IRI,
    software_name: TEXT,
    version: TEXT,
    capability: CAPABILITY_VIEW,
    origin: ORIGIN,
  },
  required: ['iri', 'id', 'entity_type', 'name', 'capability', 'origin'],
} as const satisfies JsonSchema;

/** The answer of `GET /api/v1/capabilities`; `truncated` when more records matched than were returned. */
export const CAPABILITY_MATCHES = {
  type: 'object',
  properties: {
    items: { type: 'array', items: CAPABILITY_MATCH },
    total: COUNT,
    truncated: { type: 'boolean' },
  },
  required: ['items', 'total', 'truncated'],
} as const satisfies JsonSchema;

/** One hit of `GET /api/v1/vocab/search`. */
export const VOCAB_HIT = {
  type: 'object',
  properties: {
    iri: IRI,
    label: TEXT,
    definition: TEXT,
    source: { type: 'string', enum: ['bundled', 'local', 'external'] },
    branch: TEXT,
    score: { type: 'number' },
  },
  required: ['iri', 'label', 'source', 'branch', 'score'],
} as const satisfies JsonSchema;

const TEXT_OR_NULL = { type: ['string', 'null'] } as const;

/** What a registry says about itself at `/.well-known/reg-registry` (public even when reads are private). */
export const REGISTRY_DESCRIPTION = {
  type: 'object',
  properties: {
    '@context': { type: 'object', additionalProperties: true },
    '@id': IRI,
    '@type': TEXT,
    title: TEXT,
    operator: TEXT_OR_NULL,
    base_iri: IRI,
    previous_base_iris: IRIS,
    software: TEXT,
    software_version: TEXT,
    public_read: { type: 'boolean' },
    sparql_public: { type: 'boolean' },
    sparql_url: IRI,
    api_base: IRI,
    mcp_url: { ...IRI, description: 'the MCP endpoint (Streamable HTTP) for agents' },
    llms_txt: { ...IRI, description: 'the registry described for language models (llmstxt.org)' },
    record_markdown: { type: 'string', description: 'how to read any record as Markdown' },
    capabilities: TEXTS,
    auth: {
      type: 'object',
      properties: {
        anonymous_read: { type: 'boolean' },
        api_tokens: { type: 'boolean' },
        oidc: {
          type: 'object',
          properties: {
            enabled: { type: 'boolean' },
            issuer: TEXT_OR_NULL,
            client_id: TEXT_OR_NULL,
            human_signin: { type: 'boolean' },
            workload_issuers: IRIS,
            audience: TEXT,
          },
          required: ['enabled', 'issuer', 'client_id', 'human_signin', 'workload_issuers', 'audience'],
        },
      },
      required: ['anonymous_read', 'api_tokens', 'oidc'],
    },
    peers: {
      type: 'array',
      items: {
        type: 'object',
        properties: { base_iri: IRI, title: TEXT_OR_NULL },
        required: ['base_iri', 'title'],
      },
    },
  },
  required: [
    'title',
    'operator',
    'base_iri',
    'previous_base_iris',
    'software',
    'software_version',
    'public_read',
    'sparql_public',
    'sparql_url',
    'api_base',
    'llms_txt',
    'record_markdown',
    'capabilities',
    'auth',
    'peers',
  ],
} as const satisfies JsonSchema;

/** One refused field of a request. */
export type FieldError = FromSchema<typeof FIELD_ERROR>;
/** An RFC 9457 problem as the registry writes it. */
export type Problem = FromSchema<typeof PROBLEM>;
/** The `warnings` a write's answer may carry. */
export type Warnings = FromSchema<typeof WARNINGS>;
/** An answer with the `warnings` of the write that made it. */
export type Warned<T> = Flat<T & Warnings>;
/** One facet of a list. */
export type Facet = FromSchema<typeof FACET>;
/** A page of a list of `T`. */
export type ListPage<T> = Flat<
  Omit<FromSchema<typeof LIST_PAGE>, 'items'> & { readonly items: readonly T[] }
>;
/** One search hit. */
export type SearchHit = FromSchema<typeof SEARCH_HIT>;
/** How one peer answered a federated search. */
export type PeerStatus = FromSchema<typeof PEER_STATUS>;
/** The answer of a search. */
export type SearchAnswer = FromSchema<typeof SEARCH_ANSWER>;
/** One node of a lineage. */
export type LineageNode = FromSchema<typeof LINEAGE_NODE>;
/** One edge of a lineage. */
export type LineageEdge = FromSchema<typeof LINEAGE_EDGE>;
/** The lineage of an artifact. */
export type LineageAnswer = FromSchema<typeof LINEAGE_ANSWER>;
/** One node of the graph around an IRI. */
export type GraphNode = FromSchema<typeof GRAPH_NODE>;
/** One statement of the graph around an IRI. */
export type GraphEdge = FromSchema<typeof GRAPH_EDGE>;
/** The graph around an IRI. */
export type GraphAnswer = FromSchema<typeof GRAPH_ANSWER>;
/** The answer to an advertisement. */
export type AdvertiseAnswer = Warned<FromSchema<typeof ADVERTISE_ANSWER>>;
/** One capability match. */
export type CapabilityMatch = FromSchema<typeof CAPABILITY_MATCH>;
/** The answer of capability matchmaking. */
export type CapabilityMatches = FromSchema<typeof CAPABILITY_MATCHES>;
/** One vocabulary hit. */
export type VocabHit = FromSchema<typeof VOCAB_HIT>;
/** A registry's description of itself. */
export type RegistryDescription = FromSchema<typeof REGISTRY_DESCRIPTION>;
