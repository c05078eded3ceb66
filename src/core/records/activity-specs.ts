import { DCAT, DCT, FOAF, PROV, RDFS, REG, SCHEMA, SPDX } from '../ns.js';
import { DATA_LINK, REQUEST_LINK, WEB_LINK } from './links.js';
import type { Declared, NodeSpec, RecordSpec } from './schema.js';
import { AVAILABILITY, BOOKKEEPING } from './specs.js';

/** Run statuses, in the order they are documented. */
export const RUN_STATUSES = ['success', 'failed', 'running', 'aborted'] as const;
/** Protocols a distribution may be reached by. */
export const ACCESS_PROTOCOLS = ['https', 'http', 's3', 'sparql', 'oci', 'ipfs', 'file'] as const;
/** Ways a distribution may require a caller to authenticate. */
export const AUTH_METHODS = ['none', 'apikey', 'oauth2', 'basic', 'signed-url'] as const;

const RUN_TABLE = {
  kind: 'run',
  path: 'run',
  types: [PROV('Activity')],
  fields: [
    { json: 'external_key', predicate: DCT('identifier'), type: 'string', legacy: [REG('externalKey')] },
    { json: 'status', predicate: REG('status'), type: 'string', values: RUN_STATUSES },
    { json: 'action_status', predicate: SCHEMA('actionStatus'), type: 'iri', registry: true },
    { json: 'started_at', predicate: PROV('startedAtTime'), type: 'dateTime' },
    { json: 'ended_at', predicate: PROV('endedAtTime'), type: 'dateTime' },
    { json: 'label', predicate: RDFS('label'), type: 'string' },
    // Searchable text naming the run for people (a job name, a workflow attempt), beside the deployment's key.
    { json: 'identifier', predicate: SCHEMA('identifier'), type: 'string' },
    // What the run did, for people (a command line, its settings), as a Workflow Run Crate's action describes it.
    { json: 'description', predicate: DCT('description'), type: 'string' },
    {
      json: 'instance',
      predicate: PROV('wasAssociatedWith'),
      type: 'iri',
      registry: true,
      legacy: [REG('atInstance')],
    },
    { json: 'release', predicate: REG('usedRelease'), type: 'iri', registry: true },
    // The run this one is a step of (an Airflow task run of its DAG run, a Spark job of its application).
    { json: 'part_of', predicate: DCT('isPartOf'), type: 'iri' },
    { json: 'used', predicate: PROV('used'), type: 'iri', many: true, registry: true },
    { json: 'openlineage_payload', predicate: REG('openLineagePayload'), type: 'json', registry: true },
    // Where a run acting through a trusted publisher was built, from its workload token's claims.
    { json: 'source_repository', predicate: REG('sourceRepository'), type: 'string', registry: true },
    { json: 'source_ref', predicate: REG('sourceRef'), type: 'string', registry: true },
    { json: 'source_commit', predicate: REG('sourceCommit'), type: 'string', registry: true },
    { json: 'build_url', predicate: REG('buildURL'), type: 'iri', link: WEB_LINK, registry: true },
    ...BOOKKEEPING,
  ],
  derived: [
    'duration_seconds',
    'used_count',
    'generated_count',
    'instance_label',
    'software',
    'software_name',
    'release_version',
    'generated',
    'origin',
  ],
} as const satisfies RecordSpec;
/** Run: one execution advertised by a deployment. */
export const RUN: Declared<RecordSpec, typeof RUN_TABLE> = RUN_TABLE;

/** The checksum of a distribution: an SPDX algorithm IRI and a lower-case hex value. */
const CHECKSUM = {
  types: [SPDX('Checksum')],
  fields: [
    { json: 'algorithm', predicate: SPDX('algorithm'), type: 'iri' },
    { json: 'value', predicate: SPDX('checksumValue'), type: 'string' },
  ],
} as const satisfies NodeSpec;

/** A distribution: one way to obtain an artifact's bytes (or to ask for them). */
export const DISTRIBUTION = {
  types: [DCAT('Distribution')],
  fields: [
    { json: 'title', predicate: DCT('title'), type: 'string' },
    { json: 'download_url', predicate: DCAT('downloadURL'), type: 'iri', link: DATA_LINK },
    { json: 'access_url', predicate: DCAT('accessURL'), type: 'iri', link: DATA_LINK },
    { json: 'media_type', predicate: DCAT('mediaType'), type: 'string' },
    { json: 'byte_size', predicate: DCAT('byteSize'), type: 'integer' },
    // A fragment cannot nest, so the checksum of `#distribution-2` is `#distribution-2-checksum`.
    { json: 'checksum', predicate: SPDX('checksum'), type: 'node', fragment: 'checksum', node: CHECKSUM },
    { json: 'content_identifier', predicate: PROV('specializationOf'), type: 'iri', registry: true },
    // Software Heritage identifiers of the same bytes (swh:1:cnt:) or of the tree they come from (swh:1:dir:).
    { json: 'swhids', predicate: REG('swhid'), type: 'string', many: true },
    { json: 'access_protocol', predicate: REG('accessProtocol'), type: 'string', values: ACCESS_PROTOCOLS },
    { json: 'auth_method', predicate: REG('authMethod'), type: 'string', values: AUTH_METHODS },
    { json: 'availability', predicate: REG('availability'), type: 'string', values: AVAILABILITY },
    { json: 'access_request_url', predicate: REG('accessRequestURL'), type: 'iri', link: REQUEST_LINK },
    { json: 'conforms_to', predicate: DCT('conformsTo'), type: 'iri' },
    { json: 'license', predicate: DCT('license'), type: 'iri' },
    { json: 'access_service', predicate: DCAT('accessService'), type: 'iri' },
  ],
} as const satisfies NodeSpec;

/** A producer claim: a qualified attribution naming the agent and its role. */
const attribution = (agentFragment: string) =>
  ({
    types: [PROV('Attribution')],
    fields: [
      { json: 'agent', predicate: PROV('agent'), type: 'agent', fragment: agentFragment },
      { json: 'role', predicate: PROV('hadRole'), type: 'iri' },
    ],
  }) as const satisfies NodeSpec;

const ARTIFACT_TABLE = {
  kind: 'artifact',
  path: 'artifact',
  types: [DCAT('Dataset'), PROV('Entity')],
  fields: [
    { json: 'title', predicate: DCT('title'), type: 'string' },
    { json: 'description', predicate: DCT('description'), type: 'string' },
    { json: 'conforms_to', predicate: DCT('conformsTo'), type: 'iri' },
    { json: 'license', predicate: DCT('license'), type: 'iri' },
    { json: 'keywords', predicate: DCAT('keyword'), type: 'string', many: true },
    { json: 'themes', predicate: DCAT('theme'), type: 'iri', many: true, registry: true },
    { json: 'was_derived_from', predicate: PROV('wasDerivedFrom'), type: 'iri', many: true },
    { json: 'was_revision_of', predicate: PROV('wasRevisionOf'), type: 'iri', many: true },
    { json: 'is_version_of', predicate: DCT('isVersionOf'), type: 'iri', many: true },
    { json: 'external_key', predicate: DCT('identifier'), type: 'string', legacy: [REG('externalKey')] },
    {
      json: 'distributions',
      predicate: DCAT('distribution'),
      type: 'node',
      many: true,
      fragment: 'distribution',
      node: DISTRIBUTION,
    },
    {
      json: 'produced_by',
      predicate: PROV('qualifiedAttribution'),
      type: 'node',
      fragment: 'producingSystem',
      node: attribution('producingSystemAgent'),
    },
    {
      json: 'produced_by_user',
      predicate: PROV('qualifiedAttribution'),
      type: 'node',
      fragment: 'producingUser',
      node: attribution('producingUserAgent'),
    },
    { json: 'creators', predicate: DCT('creator'), type: 'agent', many: true, fragment: 'creator' },
    {
      json: 'contributors',
      predicate: DCT('contributor'),
      type: 'agent',
      many: true,
      fragment: 'contributor',
    },
    { json: 'attributed_to', predicate: PROV('wasAttributedTo'), type: 'iri', many: true, registry: true },
    { json: 'was_generated_by', predicate: PROV('wasGeneratedBy'), type: 'iri', registry: true },
    { json: 'issued', predicate: DCT('issued'), type: 'dateTime' },
    { json: 'publisher', predicate: DCT('publisher'), type: 'agent', fragment: 'publisher' },
    { json: 'contact', predicate: DCAT('contactPoint'), type: 'agent', fragment: 'contact' },
    { json: 'version', predicate: DCAT('version'), type: 'string' },
    { json: 'landing_page', predicate: DCAT('landingPage'), type: 'iri', link: WEB_LINK },
    { json: 'documentation', predicate: FOAF('page'), type: 'iri', link: WEB_LINK },
    { json: 'source', predicate: DCT('source'), type: 'iri' },
    { json: 'language', predicate: DCT('language'), type: 'string', many: true },
    { json: 'temporal_start', predicate: REG('temporalStart'), type: 'dateTime' },
    { json: 'temporal_end', predicate: REG('temporalEnd'), type: 'dateTime' },
    // What the run that wrote this version reported of it (OpenLineage output statistics), not how to obtain it.
    { json: 'row_count', predicate: REG('rowCount'), type: 'integer' },
    { json: 'byte_size', predicate: REG('byteSize'), type: 'integer' },
    { json: 'file_count', predicate: REG('fileCount'), type: 'integer' },
    // The OpenLineage facets of the dataset as reported, known or custom, kept verbatim.
    { json: 'openlineage_facets', predicate: REG('openLineageFacets'), type: 'json' },
    ...BOOKKEEPING,
  ],
  derived: ['availability', 'content_identifiers', 'generated_by_run', 'origin', 'iri', 'id'],
} as const satisfies RecordSpec;
/** Artifact: a data item a run generated or used, or that was registered on its own. */
export const ARTIFACT: Declared<RecordSpec, typeof ARTIFACT_TABLE> = ARTIFACT_TABLE;

const ARTIFACT_SERIES_TABLE = {
  kind: 'artifact-series',
  path: 'artifact-series',
  types: [REG('ArtifactSeries')],
  fields: [
    // A dataset reported through OpenLineage: its identity, which every version shares.
    { json: 'title', predicate: DCT('title'), type: 'string', registry: true },
    { json: 'dataset_namespace', predicate: REG('datasetNamespace'), type: 'string', registry: true },
    { json: 'dataset_name', predicate: REG('datasetName'), type: 'string', registry: true },
    ...BOOKKEEPING,
  ],
  derived: [],
} as const satisfies RecordSpec;
/** Artifact series: the default `is_version_of` of an artifact, minted at `{base}/artifact-series/<uuid>`. */
export const ARTIFACT_SERIES: Declared<RecordSpec, typeof ARTIFACT_SERIES_TABLE> = ARTIFACT_SERIES_TABLE;
