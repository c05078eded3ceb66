/**
 * The JSON of each record kind. The fields come from the record specs (`src/core/records/*specs.ts`), the same
 * tables the mapper turns JSON into RDF and back with: `RecordJson<typeof SOFTWARE>` is a software record as the
 * specs describe it. What a read adds or presents differently (names of what a record refers to, counts, terms
 * described with their labels, where the record comes from) is declared here once, beside it, as a JSON Schema:
 * the OpenAPI description, the clients and the tests read the same declarations.
 */
import type { ARTIFACT, RUN } from '../core/records/activity-specs.js';
import type { TableOf } from '../core/records/schema.js';
import type { INSTANCE, RELEASE, SOFTWARE } from '../core/records/specs.js';
import type { ARTIFACT_TYPE } from '../core/records/type-specs.js';
import type { Flat, FromSchema, JsonSchema, JsonValue } from './json-schema.js';

const TEXT = { type: 'string' } as const;
const IRI = { type: 'string', format: 'iri' } as const;
const DATE_TIME = { type: 'string', format: 'date-time' } as const;
const COUNT = { type: 'integer' } as const;

/** An agent (publisher, contact, operator, creator, producing system or user): its IRI, name and kind. */
export const AGENT = {
  type: 'object',
  description: 'an agent: its identifier IRI when it has one, else a node of the record',
  properties: {
    iri: { ...IRI, readOnly: true },
    name: TEXT,
    kind: { type: 'string', enum: ['person', 'organization', 'software'] },
    identifier: TEXT,
    homepage: IRI,
    email: TEXT,
    version: TEXT,
  },
} as const satisfies JsonSchema;

/** A vocabulary term as a read describes it wherever a record cites one (topics, types, licences). */
export const TERM = {
  type: 'object',
  description: 'a vocabulary term: its IRI, label, and where the registry holds it',
  properties: {
    iri: IRI,
    label: TEXT,
    definition: TEXT,
    source: { type: 'string', enum: ['bundled', 'local', 'external'] },
  },
  required: ['iri', 'source'],
} as const satisfies JsonSchema;

/** Where a record comes from: this registry, or a peer whose copy is cached here. */
export const ORIGIN = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: ['local', 'peer'] },
    peer_id: TEXT,
    peer_title: TEXT,
    peer_base_iri: IRI,
    cached_at: TEXT,
    resolve_status: TEXT,
    stale: { type: 'boolean' },
    reason: TEXT,
  },
  required: ['kind'],
} as const satisfies JsonSchema;

/** A capability as a read presents it: its types described, and the kind of record that declared it. */
export const CAPABILITY_VIEW = {
  type: 'object',
  properties: {
    iri: IRI,
    produces: { type: 'array', items: TERM },
    consumes: { type: 'array', items: TERM },
    declared_at: { type: 'string', enum: ['software', 'release', 'instance'] },
  },
  required: ['iri', 'produces', 'consumes', 'declared_at'],
} as const satisfies JsonSchema;

/** How a run refers to an artifact: what is known of it, or `unresolved` when nothing is. */
export const ARTIFACT_REF = {
  type: 'object',
  properties: {
    iri: IRI,
    title: TEXT,
    conforms_to: IRI,
    availability: TEXT,
    origin: ORIGIN,
    unresolved: { const: true },
  },
  required: ['iri', 'origin'],
} as const satisfies JsonSchema;

/** The newest release of a software. */
export const LATEST_RELEASE = {
  type: 'object',
  properties: { iri: IRI, id: TEXT, version: TEXT, date_published: { type: 'string', format: 'date' } },
  required: ['iri', 'id', 'version'],
} as const satisfies JsonSchema;

/** What a read of one record kind returns beyond, or instead of, the fields of its spec. */
export interface ReadShape {
  /** Members a read adds, or presents differently from the stored field of the same name. */
  readonly properties: { readonly [name: string]: JsonSchema };
  /** Members every read carries: added ones, or fields of the spec (with `iri` and `id`). */
  readonly required: readonly string[];
  /** Fields of the spec a read leaves out. */
  readonly hidden: readonly string[];
}

/** A software read: its first kind, topics and capability described, counts, its newest release. */
export const SOFTWARE_READ = {
  properties: {
    kind: { type: 'string', description: 'the first of `kinds`' },
    topics: { type: 'array', items: TERM },
    capability: CAPABILITY_VIEW,
    latest_release: LATEST_RELEASE,
    instance_count: COUNT,
    release_count: COUNT,
    runs_30d: COUNT,
    license_label: TEXT,
    origin: ORIGIN,
  },
  required: [
    'iri',
    'id',
    'name',
    'kinds',
    'screenshots',
    'topics',
    'keywords',
    'api_docs',
    'registration_clients',
    'trusted_publishers',
    'deployable',
    'origin',
  ],
  hidden: ['tombstoned_at'],
} as const satisfies ReadShape;

/** A release read: the software's name and the capability described. */
export const RELEASE_READ = {
  properties: { software_name: TEXT, capability: CAPABILITY_VIEW, origin: ORIGIN },
  required: ['iri', 'id', 'version', 'software', 'downloads', 'origin'],
  hidden: ['tombstoned_at'],
} as const satisfies ReadShape;

/** A deployment read: names and versions of what it runs, health and what it did lately. */
export const INSTANCE_READ = {
  properties: {
    software_name: TEXT,
    release_version: TEXT,
    latest_version: TEXT,
    outdated: { type: 'boolean' },
    capability: CAPABILITY_VIEW,
    runs_30d: COUNT,
    failures_30d: COUNT,
    artifact_count: COUNT,
    last_run_at: DATE_TIME,
    token_count: { ...COUNT, description: 'for curators and the deployment itself' },
    origin: ORIGIN,
  },
  required: [
    'iri',
    'id',
    'label',
    'software',
    'allowed_scopes',
    'trusted_publishers',
    'health',
    'runs_30d',
    'failures_30d',
    'artifact_count',
    'origin',
  ],
  hidden: ['tombstoned_at'],
} as const satisfies ReadShape;

/** A run read: names of what it refers to, counts, and (read alone) the artifacts it used and generated. */
export const RUN_READ = {
  properties: {
    status: { type: 'string', description: 'as advertised, or `unknown`' },
    duration_seconds: { type: 'number' },
    instance_label: TEXT,
    software: IRI,
    software_name: TEXT,
    release_version: TEXT,
    used_count: COUNT,
    generated_count: COUNT,
    used: { type: 'array', items: ARTIFACT_REF },
    generated: { type: 'array', items: ARTIFACT_REF },
    origin: ORIGIN,
  },
  required: ['iri', 'id', 'status', 'used_count', 'generated_count', 'origin'],
  hidden: ['tombstoned_at', 'action_status'],
} as const satisfies ReadShape;

/** An artifact read: its type described, producer claims as agents, and its derived availability. */
export const ARTIFACT_READ = {
  properties: {
    conforms_to: TERM,
    produced_by: AGENT,
    produced_by_user: AGENT,
    content_identifiers: { type: 'array', items: IRI },
    availability: { type: 'string', description: 'of the most open distribution; metadata-only without any' },
    origin: ORIGIN,
  },
  required: [
    'iri',
    'id',
    'title',
    'keywords',
    'was_derived_from',
    'was_revision_of',
    'is_version_of',
    'distributions',
    'creators',
    'contributors',
    'language',
    'content_identifiers',
    'availability',
    'origin',
  ],
  hidden: ['tombstoned_at', 'themes'],
} as const satisfies ReadShape;

/** An artifact type read: where it is held and how many artifacts conform to it. */
export const TYPE_READ = {
  properties: {
    source: { type: 'string', enum: ['bundled', 'local', 'external'] },
    adopted: { type: 'boolean' },
    artifact_count: COUNT,
  },
  required: ['iri', 'id', 'label', 'artifact_count', 'adopted', 'source'],
  hidden: ['attributed_to'],
} as const satisfies ReadShape;

/** The read shape of each record kind the API serves, by kind. */
export const READ_SHAPES = {
  software: SOFTWARE_READ,
  release: RELEASE_READ,
  instance: INSTANCE_READ,
  run: RUN_READ,
  artifact: ARTIFACT_READ,
  type: TYPE_READ,
} as const satisfies Readonly<Record<string, ReadShape>>;

/** An agent. */
export type AgentJson = FromSchema<typeof AGENT>;
/** A vocabulary term as records cite it. */
export type TermJson = FromSchema<typeof TERM>;
/** Where a record comes from. */
export type OriginJson = FromSchema<typeof ORIGIN>;
/** A capability as a read presents it. */
export type CapabilityJson = FromSchema<typeof CAPABILITY_VIEW>;
/** How a run refers to an artifact. */
export type ArtifactRefJson = FromSchema<typeof ARTIFACT_REF>;

type ScalarJson<T> = T extends 'boolean'
  ? boolean
  : T extends 'integer'
    ? number
    : T extends 'json'
      ? JsonValue
      : string;

/** One value of a field: a nested node, an agent, one of the allowed values, or a scalar. */
type ValueJson<F> = F extends { readonly type: 'node'; readonly node: infer N }
  ? NodeJson<N>
  : F extends { readonly type: 'agent' }
    ? AgentJson
    : F extends { readonly values: readonly (infer V)[] }
      ? V
      : F extends { readonly type: infer T }
        ? ScalarJson<T>
        : never;

type FieldJson<F> = F extends { readonly many: true } ? readonly ValueJson<F>[] : ValueJson<F>;

/** The JSON of a node spec: one optional member per field (the shapes decide what a record needs). */
export type NodeJson<N> =
  TableOf<N> extends { readonly fields: readonly (infer F)[] }
    ? { readonly [G in F as G extends { readonly json: infer J extends string } ? J : never]?: FieldJson<G> }
    : never;

/** A record as its spec describes it, with the `iri` and `id` every record has. */
export type RecordJson<S> = Flat<{ readonly iri: string; readonly id: string } & NodeJson<S>>;

/** A record as a read returns it: its spec's fields, less the hidden ones, with what the read adds. */
export type ReadJson<S, R extends ReadShape> = Flat<
  Omit<NodeJson<S>, keyof R['properties'] | R['hidden'][number]> & {
    readonly iri: string;
    readonly id: string;
  } & FromSchema<{
      readonly type: 'object';
      readonly properties: R['properties'];
      readonly required: R['required'];
    }> & {
      readonly [K in R['required'][number] & Exclude<keyof NodeJson<S>, keyof R['properties']>]-?: Exclude<
        NodeJson<S>[K],
        undefined
      >;
    }
>;

/** A software record as the API returns it. */
export type SoftwareJson = ReadJson<typeof SOFTWARE, typeof SOFTWARE_READ>;
/** A release as the API returns it. */
export type ReleaseJson = ReadJson<typeof RELEASE, typeof RELEASE_READ>;
/** A deployment as the API returns it. */
export type InstanceJson = ReadJson<typeof INSTANCE, typeof INSTANCE_READ>;
/** A run as the API returns it (a list gives each without `used` and `generated`). */
export type RunJson = ReadJson<typeof RUN, typeof RUN_READ>;
/** An artifact as the API returns it. */
export type ArtifactJson = ReadJson<typeof ARTIFACT, typeof ARTIFACT_READ>;
/** An artifact type as the API returns it. */
export type TypeJson = ReadJson<typeof ARTIFACT_TYPE, typeof TYPE_READ>;

/** The kinds of software. */
export type SoftwareKind = SoftwareJson['kinds'][number];
/** How openly a deployment, a distribution or a download can be used. */
export type Availability = NonNullable<InstanceJson['availability']>;
/** Formats of API descriptions. */
export type ApiFormat = NonNullable<ApiDocJson['format']>;
/** Statuses a run is advertised with (a read says `unknown` for a run without one). */
export type RunStatus = NonNullable<NodeJson<typeof RUN>['status']>;
/** Scopes a credential may carry. */
export type CredentialScope = InstanceJson['allowed_scopes'][number];

/** One API description of a software. */
export type ApiDocJson = NonNullable<SoftwareJson['api_docs']>[number];
/** The repository sync settings of a software. */
export type SyncJson = NonNullable<SoftwareJson['sync']>;
/** One download of a release. */
export type DownloadJson = NonNullable<ReleaseJson['downloads']>[number];
/** One distribution of an artifact. */
export type DistributionJson = NonNullable<ArtifactJson['distributions']>[number];
/** The `iri` and `id` every record read carries. */
export interface RecordIdentity {
  readonly iri: string;
  readonly id: string;
}
