import { CODEMETA, DCAT, DCT, PROV, RDFS, REG, SCHEMA } from '../ns.js';
import { SCOPES } from '../access/scopes.js';
import { DOWNLOAD_LINK, ENDPOINT_LINK, REPOSITORY_LINK, WEB_LINK } from './links.js';
import type { Declared, FieldSpec, NodeSpec, RecordSpec } from './schema.js';

export { SCOPES };

/** Software kinds, in the order `kinds` is presented. */
export const SOFTWARE_KINDS = ['service', 'library', 'cli', 'desktop', 'workflow'] as const;
/** Availability values of deployments, distributions and downloads. */
export const AVAILABILITY = ['public', 'restricted', 'embargoed', 'metadata-only'] as const;

/** Health values of a deployment; a deployment never probed reads `unknown`. */
export const HEALTH = ['up', 'down', 'unknown'] as const;
/** Formats of declared API descriptions. */
export const API_FORMATS = [
  'openapi',
  'asyncapi',
  'graphql',
  'sparql-service-description',
  'ols4',
  'postman',
  'other',
] as const;
/** Fields a repository sync may manage. */
export const SYNC_FIELDS = [
  'tagline',
  'description',
  'readme',
  'homepage',
  'license',
  'keywords',
  'maturity',
  'releases',
  'image',
] as const;

/** Registry-written bookkeeping every record carries. */
export const BOOKKEEPING = [
  { json: 'created', predicate: DCT('created'), type: 'dateTime', registry: true },
  { json: 'modified', predicate: DCT('modified'), type: 'dateTime', registry: true },
  { json: 'tombstoned', predicate: REG('tombstoned'), type: 'boolean', registry: true },
  { json: 'tombstoned_at', predicate: REG('tombstonedAt'), type: 'dateTime', registry: true },
] as const satisfies readonly FieldSpec[];

/** A capability: artifact types a software, release or deployment produces and consumes. */
export const CAPABILITY = {
  types: [REG('Capability')],
  fields: [
    { json: 'produces', predicate: REG('produces'), type: 'iri', many: true },
    { json: 'consumes', predicate: REG('consumes'), type: 'iri', many: true },
  ],
} as const satisfies NodeSpec;

const capabilityField = {
  json: 'capability',
  predicate: REG('hasCapability'),
  type: 'node',
  fragment: 'capability',
  node: CAPABILITY,
} as const satisfies FieldSpec;

const API_DOC = {
  types: [REG('ApiDescription'), DCT('Standard')],
  fields: [
    { json: 'url', predicate: SCHEMA('url'), type: 'iri', link: WEB_LINK },
    { json: 'format', predicate: REG('apiFormat'), type: 'string', values: API_FORMATS },
    { json: 'title', predicate: DCT('title'), type: 'string' },
    { json: 'description', predicate: DCT('description'), type: 'string' },
  ],
} as const satisfies NodeSpec;

const SYNC = {
  types: [REG('RepositorySync')],
  fields: [
    { json: 'source', predicate: REG('syncSource'), type: 'string' },
    { json: 'repo', predicate: REG('syncRepo'), type: 'string' },
    { json: 'fields', predicate: REG('syncField'), type: 'string', many: true, values: SYNC_FIELDS },
    { json: 'enabled', predicate: REG('syncEnabled'), type: 'boolean' },
    { json: 'last_synced_at', predicate: REG('syncedAt'), type: 'dateTime', registry: true },
    { json: 'last_status', predicate: REG('syncStatus'), type: 'string', registry: true },
    { json: 'last_error', predicate: REG('syncError'), type: 'string', registry: true },
    { json: 'last_changed', predicate: REG('syncChanged'), type: 'string', many: true, registry: true },
  ],
} as const satisfies NodeSpec;

/**
 * A trusted publisher: a workload token of `issuer` whose claims match every pattern of `claims` acts as the
 * deployment carrying it, or, on a software, as the deployment of that software keyed by the value of its
 * `deployment_key` claim (which the shapes allow on a software's binding only).
 */
const TRUSTED_PUBLISHER = {
  types: [REG('TrustedPublisher')],
  fields: [
    { json: 'issuer', predicate: REG('publisherIssuer'), type: 'iri' },
    { json: 'claims', predicate: REG('publisherClaims'), type: 'json' },
    { json: 'deployment_key', predicate: REG('deploymentKeyClaim'), type: 'string' },
  ],
} as const satisfies NodeSpec;

const SOFTWARE_TABLE = {
  kind: 'software',
  path: 'software',
  types: [REG('Software'), SCHEMA('SoftwareApplication'), SCHEMA('SoftwareSourceCode')],
  fields: [
    { json: 'name', predicate: SCHEMA('name'), type: 'string' },
    { json: 'tagline', predicate: DCT('abstract'), type: 'string', legacy: [REG('tagline')] },
    { json: 'description', predicate: DCT('description'), type: 'string' },
    { json: 'homepage', predicate: SCHEMA('url'), type: 'iri', link: WEB_LINK },
    { json: 'code_repository', predicate: SCHEMA('codeRepository'), type: 'iri', link: REPOSITORY_LINK },
    { json: 'documentation', predicate: SCHEMA('softwareHelp'), type: 'iri', link: WEB_LINK },
    { json: 'download_url', predicate: SCHEMA('downloadUrl'), type: 'iri', link: DOWNLOAD_LINK },
    { json: 'image', predicate: SCHEMA('image'), type: 'iri', link: WEB_LINK },
    { json: 'screenshots', predicate: SCHEMA('screenshot'), type: 'iri', many: true, link: WEB_LINK },
    { json: 'license', predicate: DCT('license'), type: 'iri' },
    {
      json: 'kinds',
      predicate: SCHEMA('applicationCategory'),
      type: 'string',
      many: true,
      values: SOFTWARE_KINDS,
      legacy: [REG('kind')],
    },
    { json: 'maturity', predicate: CODEMETA('developmentStatus'), type: 'string', legacy: [REG('maturity')] },
    { json: 'deployable', predicate: REG('deployable'), type: 'boolean' },
    { json: 'topics', predicate: DCT('subject'), type: 'iri', many: true },
    { json: 'keywords', predicate: SCHEMA('keywords'), type: 'string', many: true },
    { json: 'publisher', predicate: DCT('publisher'), type: 'agent', fragment: 'publisher' },
    {
      json: 'contact',
      predicate: CODEMETA('maintainer'),
      type: 'agent',
      fragment: 'contact',
      legacy: [REG('contact')],
    },
    { json: 'readme', predicate: REG('readme'), type: 'string' },
    { json: 'readme_base_url', predicate: REG('readmeBaseURL'), type: 'iri', link: WEB_LINK },
    {
      json: 'api_docs',
      predicate: DCAT('endpointDescription'),
      type: 'node',
      many: true,
      fragment: 'api-doc',
      node: API_DOC,
    },
    { json: 'registration_clients', predicate: REG('registrationClient'), type: 'string', many: true },
    { json: 'registration_issuer', predicate: REG('registrationIssuer'), type: 'iri' },
    {
      json: 'trusted_publishers',
      predicate: REG('trustedPublisher'),
      type: 'node',
      many: true,
      fragment: 'trusted-publisher',
      node: TRUSTED_PUBLISHER,
    },
    { json: 'sync', predicate: REG('sync'), type: 'node', fragment: 'sync', node: SYNC },
    capabilityField,
    ...BOOKKEEPING,
  ],
  derived: [
    'kind',
    'publications',
    'latest_release',
    'instance_count',
    'release_count',
    'runs_30d',
    'repository_stats',
    'origin',
    'license_label',
  ],
} as const satisfies RecordSpec;
/** Software: an abstract program. */
export const SOFTWARE: Declared<RecordSpec, typeof SOFTWARE_TABLE> = SOFTWARE_TABLE;

const DOWNLOAD = {
  types: [REG('Download')],
  fields: [
    { json: 'url', predicate: DCAT('downloadURL'), type: 'iri', link: DOWNLOAD_LINK },
    { json: 'label', predicate: DCT('title'), type: 'string' },
    { json: 'platform', predicate: REG('platform'), type: 'string' },
    { json: 'byte_size', predicate: DCAT('byteSize'), type: 'integer' },
    { json: 'availability', predicate: REG('availability'), type: 'string', values: AVAILABILITY },
  ],
} as const satisfies NodeSpec;

const RELEASE_TABLE = {
  kind: 'release',
  path: 'release',
  types: [REG('Release'), SCHEMA('SoftwareApplication'), PROV('Plan')],
  fields: [
    { json: 'version', predicate: SCHEMA('softwareVersion'), type: 'string' },
    { json: 'software', predicate: DCT('isVersionOf'), type: 'iri', registry: true },
    { json: 'date_published', predicate: SCHEMA('datePublished'), type: 'date' },
    { json: 'container_image', predicate: REG('containerImage'), type: 'string' },
    { json: 'image_digest', predicate: REG('imageDigest'), type: 'string' },
    // Software Heritage identifiers of the release's source (swh:1:rel:, swh:1:rev:, swh:1:dir:, ...).
    { json: 'swhids', predicate: REG('swhid'), type: 'string', many: true },
    { json: 'install_command', predicate: REG('installCommand'), type: 'string' },
    { json: 'changelog', predicate: SCHEMA('releaseNotes'), type: 'iri', link: WEB_LINK },
    {
      json: 'downloads',
      predicate: REG('download'),
      type: 'node',
      many: true,
      fragment: 'download',
      node: DOWNLOAD,
    },
    capabilityField,
    ...BOOKKEEPING,
  ],
  derived: ['software_name', 'origin'],
} as const satisfies RecordSpec;
/** Release: a versioned, runnable plan of a software. */
export const RELEASE: Declared<RecordSpec, typeof RELEASE_TABLE> = RELEASE_TABLE;

const INSTANCE_TABLE = {
  kind: 'instance',
  path: 'instance',
  types: [REG('Instance'), PROV('SoftwareAgent')],
  typeWhen: { type: DCAT('DataService'), field: 'endpoint_url' },
  fields: [
    { json: 'label', predicate: RDFS('label'), type: 'string' },
    { json: 'description', predicate: DCT('description'), type: 'string' },
    { json: 'software', predicate: REG('instanceOf'), type: 'iri' },
    { json: 'release', predicate: REG('runsRelease'), type: 'iri' },
    { json: 'endpoint_url', predicate: DCAT('endpointURL'), type: 'iri', link: ENDPOINT_LINK },
    { json: 'endpoint_description', predicate: DCAT('endpointDescription'), type: 'iri', link: WEB_LINK },
    { json: 'health_endpoint', predicate: REG('healthEndpoint'), type: 'iri', link: WEB_LINK },
    { json: 'operator', predicate: SCHEMA('provider'), type: 'agent', fragment: 'operator' },
    { json: 'availability', predicate: REG('availability'), type: 'string', values: AVAILABILITY },
    { json: 'jurisdiction', predicate: REG('jurisdiction'), type: 'string' },
    { json: 'environment', predicate: REG('environment'), type: 'string' },
    { json: 'oidc_client_id', predicate: REG('oidcClientId'), type: 'string' },
    { json: 'oidc_issuer', predicate: REG('oidcIssuer'), type: 'iri' },
    { json: 'allowed_scopes', predicate: REG('allowedScope'), type: 'string', many: true, values: SCOPES },
    {
      json: 'trusted_publishers',
      predicate: REG('trustedPublisher'),
      type: 'node',
      many: true,
      fragment: 'trusted-publisher',
      node: TRUSTED_PUBLISHER,
    },
    { json: 'self_registered_by', predicate: REG('selfRegisteredBy'), type: 'string', registry: true },
    { json: 'self_registered_issuer', predicate: REG('selfRegisteredIssuer'), type: 'iri', registry: true },
    { json: 'instance_key', predicate: REG('instanceKey'), type: 'string', registry: true },
    {
      json: 'registered_by_publisher',
      predicate: REG('registeredByPublisher'),
      type: 'boolean',
      registry: true,
    },
    capabilityField,
    { json: 'health', predicate: REG('health'), type: 'string', registry: true },
    { json: 'health_checked_at', predicate: REG('healthCheckedAt'), type: 'dateTime', registry: true },
    { json: 'health_detail', predicate: REG('healthDetail'), type: 'string', registry: true },
    { json: 'last_seen_at', predicate: REG('lastSeenAt'), type: 'dateTime', registry: true },
    { json: 'version', predicate: REG('deployedVersion'), type: 'string', registry: true },
    { json: 'artifact_id', predicate: REG('deployedArtifact'), type: 'string', registry: true },
    { json: 'removed_at', predicate: REG('removedAt'), type: 'dateTime', registry: true },
    {
      json: 'home_registry',
      predicate: DCAT('inCatalog'),
      type: 'iri',
      registry: true,
      legacy: [REG('homeRegistry')],
    },
    ...BOOKKEEPING,
  ],
  derived: [
    'software_name',
    'release_version',
    'outdated',
    'latest_version',
    'last_run_at',
    'runs_30d',
    'failures_30d',
    'artifact_count',
    'token_count',
    'origin',
  ],
} as const satisfies RecordSpec;
/** Deployment (instance): a release of a software installed somewhere. */
export const INSTANCE: Declared<RecordSpec, typeof INSTANCE_TABLE> = INSTANCE_TABLE;
