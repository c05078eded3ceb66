/**
 * Every endpoint of the API that reads a JSON body (src/http/routes/*.ts), with a body it accepts and the kind
 * of each field the corpus mutates (dotted paths with list indexes reach nested members).
 */
import type { Credential } from './corpus.js';
import { OPERATIONAL_ENDPOINTS } from './endpoints-operational.js';

/** How a field is mutated: one IRI, a list of IRIs, a string, a list of strings, or anything else. */
export type FieldKind = 'iri' | 'iris' | 'text' | 'texts' | 'other';

/** One endpoint that takes a JSON body. */
export interface BodyEndpoint {
  readonly method: string;
  readonly path: string;
  readonly credential: Credential;
  readonly base: Record<string, unknown>;
  readonly fields: Readonly<Record<string, FieldKind>>;
  /** Whether the body is a record, whose list fields are held to REG_MAX_LIST_ITEMS. */
  readonly records?: boolean;
  /** Where hostile IRIs point (a closed port on loopback where the server might try to reach them). */
  readonly iriBase?: string;
}

const TYPE = 'http://edamontology.org/data_0006';
const LICENSE = 'https://spdx.org/licenses/CC-BY-4.0';

const artifact = {
  title: 'hostile corpus artifact',
  conforms_to: TYPE,
  distributions: [{ download_url: 'https://data.example.org/corpus.ttl' }],
};

const ARTIFACT_FIELDS: Record<string, FieldKind> = {
  title: 'text',
  description: 'text',
  conforms_to: 'iri',
  license: 'iri',
  keywords: 'texts',
  was_derived_from: 'iris',
  was_revision_of: 'iris',
  is_version_of: 'iris',
  external_key: 'text',
  'distributions[0].download_url': 'iri',
  'distributions[0].access_url': 'iri',
  'distributions[0].media_type': 'text',
  'distributions[0].conforms_to': 'iri',
  'distributions[0].license': 'iri',
  'distributions[0].access_service': 'iri',
  'distributions[0].access_request_url': 'iri',
  'distributions[0].byte_size': 'other',
  'distributions[0].checksum.value': 'text',
  'produced_by.homepage': 'iri',
  'produced_by.identifier': 'text',
  'creators[0].homepage': 'iri',
  'contributors[0].name': 'text',
  landing_page: 'iri',
  documentation: 'iri',
  source: 'iri',
  language: 'texts',
  issued: 'text',
  temporal_start: 'text',
};

/** Endpoints whose body is a record (or records), in the order of their route files; then the others. */
export const BODY_ENDPOINTS: readonly BodyEndpoint[] = [
  {
    method: 'POST',
    path: '/api/v1/software',
    credential: 'root',
    records: true,
    base: { name: 'hostile corpus software' },
    fields: {
      name: 'text',
      tagline: 'text',
      description: 'text',
      homepage: 'iri',
      code_repository: 'iri',
      documentation: 'iri',
      download_url: 'iri',
      image: 'iri',
      screenshots: 'iris',
      license: 'iri',
      kinds: 'texts',
      maturity: 'text',
      deployable: 'other',
      topics: 'iris',
      keywords: 'texts',
      'publisher.homepage': 'iri',
      'publisher.name': 'text',
      'publisher.identifier': 'text',
      'contact.email': 'text',
      readme: 'text',
      readme_base_url: 'iri',
      'api_docs[0].url': 'iri',
      'api_docs[0].format': 'text',
      registration_clients: 'texts',
      registration_issuer: 'iri',
      'sync.repo': 'text',
      'capability.produces': 'iris',
      'capability.consumes': 'iris',
    },
  },
  {
    method: 'PATCH',
    path: '/api/v1/software/{software}',
    credential: 'root',
    records: true,
    base: { tagline: 'edited' },
    fields: { name: 'text', homepage: 'iri', topics: 'iris', keywords: 'texts', 'publisher.homepage': 'iri' },
  },
  {
    method: 'PUT',
    path: '/api/v1/software/{software}/capability',
    credential: 'root',
    records: true,
    base: { produces: [TYPE] },
    fields: { produces: 'iris', consumes: 'iris' },
  },
  {
    method: 'POST',
    path: '/api/v1/software/{software}/releases',
    credential: 'root',
    records: true,
    base: { version: '9.9.9' },
    fields: {
      version: 'text',
      date_published: 'text',
      container_image: 'text',
      image_digest: 'text',
      install_command: 'text',
      changelog: 'iri',
      'downloads[0].url': 'iri',
      'downloads[0].label': 'text',
      'capability.produces': 'iris',
    },
  },
  {
    method: 'POST',
    path: '/api/v1/instances',
    credential: 'root',
    records: true,
    base: { software: '{software_iri}', label: 'hostile corpus deployment' },
    fields: {
      label: 'text',
      description: 'text',
      software: 'iri',
      release: 'iri',
      endpoint_url: 'iri',
      endpoint_description: 'iri',
      health_endpoint: 'iri',
      'operator.homepage': 'iri',
      availability: 'text',
      jurisdiction: 'text',
      oidc_client_id: 'text',
      oidc_issuer: 'iri',
      allowed_scopes: 'texts',
      'capability.produces': 'iris',
    },
    iriBase: 'http://127.0.0.1:1/',
  },
  {
    method: 'PATCH',
    path: '/api/v1/instances/{instance}',
    credential: 'root',
    records: true,
    base: { description: 'edited' },
    fields: { label: 'text', endpoint_url: 'iri', software: 'iri', allowed_scopes: 'texts' },
    iriBase: 'http://127.0.0.1:1/',
  },
  {
    method: 'PUT',
    path: '/api/v1/instances/{instance}/capability',
    credential: 'root',
    records: true,
    base: { consumes: [TYPE] },
    fields: { produces: 'iris', consumes: 'iris' },
  },
  {
    method: 'PUT',
    path: '/api/v1/instances/self',
    credential: 'deployment',
    records: true,
    base: { label: 'self' },
    fields: { label: 'text', endpoint_url: 'iri', software: 'iri' },
    iriBase: 'http://127.0.0.1:1/',
  },
  {
    method: 'POST',
    path: '/api/v1/types',
    credential: 'root',
    records: true,
    base: { label: 'Corpus type' },
    fields: {
      label: 'text',
      slug: 'text',
      iri: 'iri',
      aliases: 'texts',
      scheme: 'iris',
      definition: 'text',
      default_media_type: 'text',
    },
  },
  {
    method: 'POST',
    path: '/api/v1/licenses',
    credential: 'root',
    records: true,
    base: { label: 'Corpus licence', iri: 'https://licenses.example.org/corpus' },
    fields: { iri: 'iri', label: 'text' },
  },
  {
    method: 'POST',
    path: '/api/v1/artifacts',
    credential: 'root',
    records: true,
    base: artifact,
    fields: ARTIFACT_FIELDS,
  },
  {
    method: 'POST',
    path: '/api/v1/advertise/produced',
    credential: 'deployment',
    records: true,
    base: { run: { external_key: 'corpus-run-{unique}' }, artifacts: [artifact] },
    fields: {
      'run.external_key': 'text',
      'run.label': 'text',
      'run.identifier': 'text',
      'run.started_at': 'text',
      'run.status': 'text',
      'artifacts[0].conforms_to': 'iri',
      'artifacts[0].was_derived_from': 'iris',
      'artifacts[0].keywords': 'texts',
      'artifacts[0].distributions[0].download_url': 'iri',
    },
  },
  {
    method: 'POST',
    path: '/api/v1/advertise/consumed',
    credential: 'deployment',
    records: true,
    base: { run: { external_key: 'corpus-consumer-{unique}' }, artifacts: [artifact] },
    fields: { 'run.label': 'text', 'artifacts[0].license': 'iri' },
  },
  {
    method: 'POST',
    path: '/api/v1/advertise/consumed',
    credential: 'deployment',
    records: true,
    base: { run: { external_key: 'corpus-reference-{unique}' }, artifacts: [{ iri: '{artifact_iri}' }] },
    fields: { 'artifacts[0].iri': 'iri' },
  },
  ...OPERATIONAL_ENDPOINTS,
];

export { LICENSE, TYPE };
