/**
 * The answers about access and operations that are not records: tokens, who the caller is, subscriptions with
 * their deliveries, and peers. Declared as JSON Schemas `as const`, like the envelopes, for the server (whose
 * services return these types), the CLI client, the web page and the OpenAPI description.
 */
import type { FromSchema } from './json-schema.js';
import { ORIGIN } from './records.js';

const TEXT = { type: 'string' } as const;
const TIME = { type: 'string', format: 'date-time' } as const;
const MAYBE_TEXT = { type: ['string', 'null'] } as const;
const MAYBE_TIME = { type: ['string', 'null'], format: 'date-time' } as const;
const COUNT = { type: 'integer' } as const;
const TEXTS = { type: 'array', items: TEXT } as const;

/** An API token as its owner sees it: never the secret, only its prefix. */
export const TOKEN_RECORD = {
  type: 'object',
  properties: {
    id: TEXT,
    prefix: { type: 'string', description: 'the first characters of the secret, to tell tokens apart' },
    instance_iri: MAYBE_TEXT,
    software_iri: MAYBE_TEXT,
    subject_kind: { type: 'string', enum: ['instance', 'software'] },
    scopes: TEXTS,
    label: MAYBE_TEXT,
    created_at: TIME,
    created_by: MAYBE_TEXT,
    expires_at: MAYBE_TIME,
    last_used_at: MAYBE_TIME,
    revoked_at: MAYBE_TIME,
  },
  required: [
    'id',
    'prefix',
    'instance_iri',
    'software_iri',
    'subject_kind',
    'scopes',
    'label',
    'created_at',
    'created_by',
    'expires_at',
    'last_used_at',
    'revoked_at',
  ],
} as const;

/** A token just minted: the secret, shown in this answer only. */
export const MINTED_TOKEN = {
  type: 'object',
  properties: {
    token: TEXT,
    record: TOKEN_RECORD,
    shown_once: { const: true },
    usage: { type: 'string', description: 'how a deployment uses a software token (software tokens only)' },
  },
  required: ['token', 'record', 'shown_once'],
} as const;

/** The tokens of one deployment or software, newest first, revoked ones included. */
export const TOKEN_LIST = {
  type: 'object',
  properties: { items: { type: 'array', items: TOKEN_RECORD }, total: COUNT },
  required: ['items', 'total'],
} as const;

/** Who the presented credential is (`GET /api/v1/whoami`). */
export const WHOAMI = {
  type: 'object',
  properties: {
    authenticated: { type: 'boolean' },
    credential: {
      type: 'string',
      enum: ['none', 'root-token', 'local-token', 'oidc-workload', 'oidc-human'],
    },
    subject: TEXT,
    display_name: MAYBE_TEXT,
    instance: { type: ['string', 'null'], description: 'the deployment the credential acts as' },
    may_register_deployments_of: {
      type: ['string', 'null'],
      description:
        'the software whose deployments the credential may register through PUT /api/v1/instances/self',
    },
    issuer: MAYBE_TEXT,
    scopes: TEXTS,
    roles: { type: 'array', items: { type: 'string', enum: ['reader', 'curator', 'admin'] } },
    is_curator: { type: 'boolean' },
    is_admin: { type: 'boolean' },
  },
  required: [
    'authenticated',
    'credential',
    'subject',
    'display_name',
    'instance',
    'may_register_deployments_of',
    'issuer',
    'scopes',
    'roles',
    'is_curator',
    'is_admin',
  ],
} as const;

/** A subscription's filter as stored: every list present, ids expanded to IRIs. */
export const SUBSCRIPTION_FILTER = {
  type: 'object',
  properties: {
    conforms_to: TEXTS,
    software: TEXTS,
    instance: TEXTS,
    keywords: TEXTS,
    license: TEXTS,
    availability: TEXTS,
    q: { anyOf: [TEXT, TEXTS], description: 'one substring, or several (any of them)' },
    roles: { type: 'array', items: { type: 'string', enum: ['produced', 'consumed'] } },
    exclude_own: { type: 'boolean' },
  },
  required: [
    'conforms_to',
    'software',
    'instance',
    'keywords',
    'license',
    'availability',
    'roles',
    'exclude_own',
  ],
} as const;

/** A subscription as the API shows it; never its secret. */
export const SUBSCRIPTION = {
  type: 'object',
  properties: {
    id: TEXT,
    instance_iri: TEXT,
    label: MAYBE_TEXT,
    filter: SUBSCRIPTION_FILTER,
    webhook_url: MAYBE_TEXT,
    webhook_signed: { type: 'boolean' },
    enabled: { type: 'boolean' },
    delivery_state: { type: 'string', enum: ['active', 'suspended'] },
    consecutive_failures: COUNT,
    cursor_seq: {
      type: 'integer',
      description: 'every delivery up to this sequence number was acknowledged',
    },
    created_at: TIME,
    created_by: MAYBE_TEXT,
    updated_at: TIME,
    last_match_at: MAYBE_TIME,
    last_success_at: MAYBE_TIME,
    last_error: MAYBE_TEXT,
    last_error_at: MAYBE_TIME,
    last_polled_at: MAYBE_TIME,
    pending_count: COUNT,
    failed_count: COUNT,
    dead_count: COUNT,
    unacked_count: COUNT,
    delivery_mode: { type: 'string', enum: ['pull', 'webhook'] },
    pull_url: TEXT,
    format: {
      type: 'string',
      enum: ['reg', 'cloudevents', 'cdevents'],
      description:
        "the webhook body: the registry's own event, a CloudEvents 1.0 event (structured mode) or a CDEvents artifact.published event",
    },
    signature: {
      type: 'string',
      enum: ['reg', 'standard-webhooks'],
      description: 'how webhook deliveries are signed: x-reg-signature, or the Standard Webhooks headers',
    },
    previous_secret_until: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'until when the secret replaced by the last rotation still signs beside the new one',
    },
  },
  required: [
    'id',
    'instance_iri',
    'label',
    'filter',
    'webhook_url',
    'webhook_signed',
    'enabled',
    'delivery_state',
    'consecutive_failures',
    'cursor_seq',
    'created_at',
    'created_by',
    'updated_at',
    'last_match_at',
    'last_success_at',
    'last_error',
    'last_error_at',
    'last_polled_at',
    'pending_count',
    'failed_count',
    'dead_count',
    'unacked_count',
    'delivery_mode',
    'pull_url',
    'format',
    'signature',
    'previous_secret_until',
  ],
} as const;

/** The answer to a create or an edit: the subscription, and its webhook secret when this call set one. */
export const SUBSCRIPTION_WRITTEN = {
  type: 'object',
  properties: {
    subscription: SUBSCRIPTION,
    secret: {
      type: ['string', 'null'],
      description: 'shown in this answer only; null when unchanged or pull-only',
    },
    shown_once: { const: true },
  },
  required: ['subscription', 'secret', 'shown_once'],
} as const;

/** The subscriptions of a deployment. */
export const SUBSCRIPTION_LIST = {
  type: 'object',
  properties: {
    items: { type: 'array', items: SUBSCRIPTION },
    total: COUNT,
    max_per_instance: COUNT,
  },
  required: ['items', 'total', 'max_per_instance'],
} as const;

/** The event body of a delivery: the webhook body, and what the pull queue serves. */
export const NOTIFICATION = {
  type: 'object',
  properties: {
    type: { const: 'artifact.advertised' },
    subscription: TEXT,
    registry: TEXT,
    role: { type: 'string', enum: ['produced', 'consumed'] },
    run: MAYBE_TEXT,
    instance: MAYBE_TEXT,
    software: MAYBE_TEXT,
    artifact_iri: TEXT,
    artifact: {
      type: 'object',
      additionalProperties: true,
      description: 'the artifact as an anonymous read returns it when the delivery is first read',
    },
  },
  required: [
    'type',
    'subscription',
    'registry',
    'role',
    'run',
    'instance',
    'software',
    'artifact_iri',
    'artifact',
  ],
} as const;

/** One delivery of a subscription. */
export const DELIVERY = {
  type: 'object',
  properties: {
    seq: { type: 'integer', description: 'the pull cursor: increases with every queued delivery' },
    id: TEXT,
    subscription_id: TEXT,
    artifact_iri: TEXT,
    run_iri: MAYBE_TEXT,
    role: { type: 'string', enum: ['produced', 'consumed'] },
    matched_at: TIME,
    status: { type: 'string', enum: ['pending', 'failed', 'dead', 'delivered'] },
    attempts: COUNT,
    last_attempt_at: MAYBE_TIME,
    next_attempt_at: MAYBE_TIME,
    last_error: MAYBE_TEXT,
    last_status: { type: ['integer', 'null'] },
    delivered_at: MAYBE_TIME,
    notification: { anyOf: [NOTIFICATION, { type: 'null' }] },
  },
  required: [
    'seq',
    'id',
    'subscription_id',
    'artifact_iri',
    'run_iri',
    'role',
    'matched_at',
    'status',
    'attempts',
    'last_attempt_at',
    'next_attempt_at',
    'last_error',
    'last_status',
    'delivered_at',
    'notification',
  ],
} as const;

/** One subscription and its delivery log (the newest deliveries). */
export const SUBSCRIPTION_DETAIL = {
  type: 'object',
  properties: {
    subscription: SUBSCRIPTION,
    recent_deliveries: { type: 'array', items: DELIVERY },
  },
  required: ['subscription', 'recent_deliveries'],
} as const;

/** One page of a subscription's pull queue. */
export const DELIVERY_PAGE = {
  type: 'object',
  properties: {
    items: { type: 'array', items: DELIVERY },
    cursor: { type: 'integer', description: 'the cursor this page was read after' },
    next_cursor: { type: 'integer', description: 'the cursor to read the next page after' },
    remaining: COUNT,
    acknowledged: { type: 'integer', description: "the subscription's acknowledged cursor after this read" },
  },
  required: ['items', 'cursor', 'next_cursor', 'remaining', 'acknowledged'],
} as const;

/** The answer to an acknowledgement of the pull queue. */
export const ACK_RESULT = {
  type: 'object',
  properties: { cursor: COUNT, remaining: COUNT },
  required: ['cursor', 'remaining'],
} as const;

/** One attempt to deliver a webhook, as the delivery log keeps it. */
export const DELIVERY_ATTEMPT = {
  type: 'object',
  properties: {
    id: { type: 'integer', description: 'increases with every attempt; page with before=' },
    delivery_id: TEXT,
    delivery_seq: COUNT,
    artifact_iri: TEXT,
    attempt: { type: 'integer', description: 'the attempt number of the delivery (x-reg-attempt)' },
    at: TIME,
    status_code: {
      type: ['integer', 'null'],
      description: "the receiver's HTTP status; null when none came",
    },
    duration_ms: COUNT,
    response: { type: ['string', 'null'], description: "the first 2 KB of the receiver's answer" },
    error: MAYBE_TEXT,
    retry_at: { ...MAYBE_TIME, description: 'when the delivery is tried again after this attempt' },
    delivery_status: { type: 'string', enum: ['pending', 'failed', 'dead', 'delivered'] },
  },
  required: [
    'id',
    'delivery_id',
    'delivery_seq',
    'artifact_iri',
    'attempt',
    'at',
    'status_code',
    'duration_ms',
    'response',
    'error',
    'retry_at',
    'delivery_status',
  ],
} as const;

/** A page of a subscription's delivery log, newest attempt first. */
export const DELIVERY_LOG = {
  type: 'object',
  properties: {
    subscription_id: TEXT,
    items: { type: 'array', items: DELIVERY_ATTEMPT },
    total: { type: 'integer', description: 'attempts the log holds for this subscription' },
    next_before: {
      type: ['integer', 'null'],
      description: 'pass as before= for the next (older) page; null on the last page',
    },
    retention_seconds: {
      type: 'integer',
      description: 'how long delivered and dead deliveries and their attempts are kept',
    },
  },
  required: ['subscription_id', 'items', 'total', 'next_before', 'retention_seconds'],
} as const;

/** The answer to a secret rotation: the new secret, shown this once, and the end of the overlap. */
export const SECRET_ROTATED = {
  type: 'object',
  properties: {
    subscription: SUBSCRIPTION,
    secret: { type: 'string', description: 'the new webhook secret, shown in this answer only' },
    shown_once: { const: true },
    previous_secret_until: {
      type: ['string', 'null'],
      format: 'date-time',
      description:
        'until when the replaced secret still signs beside the new one; null when it stopped at once',
    },
  },
  required: ['subscription', 'secret', 'shown_once', 'previous_secret_until'],
} as const;

/** A peer registry. */
export const PEER = {
  type: 'object',
  properties: {
    id: TEXT,
    base_iri: TEXT,
    title: MAYBE_TEXT,
    operator: MAYBE_TEXT,
    added_at: TIME,
    last_seen_at: MAYBE_TIME,
    resolve_status: { type: 'string', enum: ['ok', 'error', 'unknown'] },
    last_error: MAYBE_TEXT,
    record_count: { type: 'integer', description: 'records cached from the peer' },
    state: { type: 'string', enum: ['active', 'suggested', 'dismissed'] },
    suggested_by: MAYBE_TEXT,
    software_version: MAYBE_TEXT,
    stale: { type: 'boolean', description: 'not reached successfully for 90 days' },
  },
  required: [
    'id',
    'base_iri',
    'title',
    'operator',
    'added_at',
    'last_seen_at',
    'resolve_status',
    'last_error',
    'record_count',
    'state',
    'suggested_by',
    'software_version',
    'stale',
  ],
} as const;

/** The peers of the registry. */
export const PEER_LIST = {
  type: 'object',
  properties: { items: { type: 'array', items: PEER }, total: COUNT },
  required: ['items', 'total'],
} as const;

/** The answer to adding a peer with `preview: true`: what adding it would record, with nothing stored. */
export const PEER_PREVIEW = {
  type: 'object',
  properties: {
    preview: { const: true },
    base_iri: TEXT,
    title: MAYBE_TEXT,
    operator: MAYBE_TEXT,
    software_version: MAYBE_TEXT,
    peers_of_peer: TEXTS,
  },
  required: ['preview', 'base_iri', 'title', 'operator', 'software_version', 'peers_of_peer'],
} as const;

/** How telling a new peer about this registry went. */
export const ANNOUNCE_OUTCOME = {
  type: 'object',
  properties: { accepted: { type: 'boolean' }, state: TEXT, note: TEXT, error: TEXT },
  required: ['accepted'],
} as const;

/** A peer just added, with how announcing this registry to it went (absent with `announce: false`). */
export const ADDED_PEER = {
  ...PEER,
  properties: { ...PEER.properties, announced: ANNOUNCE_OUTCOME },
} as const;

export type TokenRecord = FromSchema<typeof TOKEN_RECORD>;
export type MintedToken = FromSchema<typeof MINTED_TOKEN>;
export type TokenList = FromSchema<typeof TOKEN_LIST>;
export type Whoami = FromSchema<typeof WHOAMI>;
export type SubscriptionFilterJson = FromSchema<typeof SUBSCRIPTION_FILTER>;
export type Subscription = FromSchema<typeof SUBSCRIPTION>;
export type SubscriptionWritten = FromSchema<typeof SUBSCRIPTION_WRITTEN>;
export type SubscriptionList = FromSchema<typeof SUBSCRIPTION_LIST>;
export type Notification = FromSchema<typeof NOTIFICATION>;
export type Delivery = FromSchema<typeof DELIVERY>;
export type SubscriptionDetail = FromSchema<typeof SUBSCRIPTION_DETAIL>;
export type DeliveryPage = FromSchema<typeof DELIVERY_PAGE>;
export type AckResult = FromSchema<typeof ACK_RESULT>;
export type DeliveryAttempt = FromSchema<typeof DELIVERY_ATTEMPT>;
export type DeliveryLog = FromSchema<typeof DELIVERY_LOG>;
export type SecretRotated = FromSchema<typeof SECRET_ROTATED>;
export type Peer = FromSchema<typeof PEER>;
export type PeerList = FromSchema<typeof PEER_LIST>;
export type PeerPreview = FromSchema<typeof PEER_PREVIEW>;
export type AnnounceOutcome = FromSchema<typeof ANNOUNCE_OUTCOME>;
export type AddedPeer = FromSchema<typeof ADDED_PEER>;

/** One name of some content, in one of the forms the registry reads. */
export const CONTENT_ALIAS = {
  type: 'object',
  properties: {
    form: { type: 'string', enum: ['ni', 'hash-uri', 'hex', 'oci', 'digest-set', 'swhid'] },
    name: TEXT,
  },
  required: ['form', 'name'],
} as const;

/** A record holding some content: a distribution (of an artifact) or a release, and the value that matched. */
export const CONTENT_MATCH = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: ['distribution', 'release'] },
    iri: TEXT,
    artifact: { type: 'string', description: 'the artifact a distribution belongs to' },
    id: { type: 'string', description: 'the id of the artifact or release' },
    title: TEXT,
    origin: ORIGIN,
    matched: {
      type: 'array',
      items: { type: 'object', properties: { field: TEXT, value: TEXT }, required: ['field', 'value'] },
    },
  },
  required: ['kind', 'iri', 'id', 'origin', 'matched'],
} as const;

/** How to compute a content identifier without the registry. */
export const HOW_TO_COMPUTE = {
  type: 'object',
  properties: {
    summary: TEXT,
    shell: TEXT,
    shell_digest_only: TEXT,
    python: TEXT,
    javascript: TEXT,
    algorithms: TEXTS,
    specification: TEXT,
  },
  required: ['summary', 'shell', 'shell_digest_only', 'python', 'javascript', 'algorithms', 'specification'],
} as const;

/** The answer of `/api/v1/artifacts/identify`: the content identifier of a digest, and how to compute one. */
export const DIGEST_IDENTITY = {
  type: 'object',
  properties: {
    content_identifier: TEXT,
    algorithm: TEXT,
    digest_hex: TEXT,
    digest_base64url: TEXT,
    find: { type: 'string', description: 'the artifact list filtered by this content' },
    how_to_compute: HOW_TO_COMPUTE,
  },
  required: ['content_identifier', 'algorithm', 'digest_hex', 'digest_base64url', 'find', 'how_to_compute'],
} as const;

/**
 * The answer of `GET /api/v1/identify`: the name read, its digests and SWHIDs, every alias of the content and the
 * records holding it; for a SHA-2 digest also its content identifier and how to compute one.
 */
export const CONTENT_IDENTITY = {
  type: 'object',
  properties: {
    id: TEXT,
    form: CONTENT_ALIAS.properties.form,
    content_identifier: TEXT,
    algorithm: TEXT,
    digest_hex: TEXT,
    digest_base64url: TEXT,
    find: TEXT,
    how_to_compute: HOW_TO_COMPUTE,
    digests: {
      type: 'array',
      items: {
        type: 'object',
        properties: { algorithm: TEXT, hex: TEXT },
        required: ['algorithm', 'hex'],
      },
    },
    swhids: TEXTS,
    aliases: { type: 'array', items: CONTENT_ALIAS },
    matches: { type: 'array', items: CONTENT_MATCH },
    total: COUNT,
    truncated: { type: 'boolean', description: 'more records hold the content than the answer lists' },
  },
  required: ['id', 'form', 'digests', 'swhids', 'aliases', 'matches', 'total'],
} as const;

export type HowToCompute = FromSchema<typeof HOW_TO_COMPUTE>;
export type DigestIdentity = FromSchema<typeof DIGEST_IDENTITY>;
export type ContentAlias = FromSchema<typeof CONTENT_ALIAS>;
export type ContentMatchJson = FromSchema<typeof CONTENT_MATCH>;
export type ContentIdentity = FromSchema<typeof CONTENT_IDENTITY>;
