/** The software form's state, how a record fills it, and the request body it makes. */
import type { ApiFormat, SoftwareJson, SoftwareKind } from '../api';
import { agentBody, agentFields, agentState, EMPTY_AGENT, type AgentState } from './agent-fields';
import { joined, list, nonEmpty, rowsBody, text, textOf, textsOf, type Body } from './body';
import {
  CAPABILITY_FIELDS,
  capabilityBody,
  capabilityState,
  iris,
  NO_CAPABILITY,
  termChoices,
  type CapabilityState,
} from './capability';
import type { Choice } from './picker';
import { repeatedFields } from './repeated-group';

/** Every kind of software, in words. */
const KIND_LABELS = {
  service: 'Service (runs as a web service)',
  library: 'Library',
  cli: 'Command-line tool',
  desktop: 'Desktop application',
  workflow: 'Workflow',
} satisfies Record<SoftwareKind, string>;

export const SOFTWARE_KINDS = Object.entries(KIND_LABELS).map(([value, label]) => ({ value, label }));

/** Every format of API description, in words. */
const API_FORMAT_LABELS = {
  openapi: 'OpenAPI',
  asyncapi: 'AsyncAPI',
  graphql: 'GraphQL',
  'sparql-service-description': 'SPARQL service description',
  ols4: 'OLS4',
  postman: 'Postman collection',
  other: 'Other',
} satisfies Record<ApiFormat, string>;

export const API_FORMATS = Object.entries(API_FORMAT_LABELS).map(([value, label]) => ({ value, label }));

export interface ApiDocState {
  readonly url: string;
  readonly format: string;
  readonly title: string;
  readonly description: string;
}

export const EMPTY_API_DOC: ApiDocState = { url: '', format: '', title: '', description: '' };
const API_DOC_MEMBERS = ['url', 'format', 'title', 'description'] as const;

export interface SoftwareState {
  readonly name: string;
  readonly tagline: string;
  readonly description: string;
  readonly kinds: readonly string[];
  readonly maturity: string;
  readonly keywords: string;
  readonly topics: readonly Choice[];
  readonly license: string;
  readonly homepage: string;
  readonly code_repository: string;
  readonly documentation: string;
  readonly download_url: string;
  readonly deployable: boolean;
  readonly registration_clients: string;
  readonly registration_issuer: string;
  readonly capability: CapabilityState;
  readonly readme: string;
  readonly readme_base_url: string;
  readonly api_docs: readonly ApiDocState[];
  readonly publisher: AgentState;
  readonly contact: AgentState;
}

export const EMPTY_SOFTWARE: SoftwareState = {
  name: '',
  tagline: '',
  description: '',
  kinds: [],
  maturity: '',
  keywords: '',
  topics: [],
  license: '',
  homepage: '',
  code_repository: '',
  documentation: '',
  download_url: '',
  deployable: true,
  registration_clients: '',
  registration_issuer: '',
  capability: NO_CAPABILITY,
  readme: '',
  readme_base_url: '',
  api_docs: [],
  publisher: EMPTY_AGENT,
  contact: EMPTY_AGENT,
};

const PUBLISHER = ['name', 'kind', 'homepage'] as const;
const CONTACT = ['name', 'kind', 'email'] as const;

/** The form filled from a software record as the API returns it. */
export function softwareState(record: SoftwareJson): SoftwareState {
  const str = (name: string) => textOf(record, name);
  const docs: readonly Body[] = Array.isArray(record.api_docs) ? record.api_docs : [];
  return {
    name: str('name'),
    tagline: str('tagline'),
    description: str('description'),
    kinds: textsOf(record, 'kinds'),
    maturity: str('maturity'),
    keywords: joined(textsOf(record, 'keywords')),
    topics: termChoices(record.topics),
    license: str('license'),
    homepage: str('homepage'),
    code_repository: str('code_repository'),
    documentation: str('documentation'),
    download_url: str('download_url'),
    deployable: record.deployable !== false,
    registration_clients: joined(textsOf(record, 'registration_clients')),
    registration_issuer: str('registration_issuer'),
    capability: capabilityState(record.capability),
    readme: str('readme'),
    readme_base_url: str('readme_base_url'),
    api_docs: docs.map((doc) => ({
      url: textOf(doc, 'url'),
      format: textOf(doc, 'format'),
      title: textOf(doc, 'title'),
      description: textOf(doc, 'description'),
    })),
    publisher: agentState(record.publisher),
    contact: agentState(record.contact),
  };
}

/** The record as the registry takes it; empty fields are left out. */
export function softwareBody(state: SoftwareState): Body {
  return {
    name: text(state.name),
    tagline: text(state.tagline),
    description: text(state.description),
    kinds: nonEmpty(state.kinds),
    maturity: text(state.maturity),
    keywords: list(state.keywords),
    topics: iris(state.topics),
    license: text(state.license),
    homepage: text(state.homepage),
    code_repository: text(state.code_repository),
    documentation: text(state.documentation),
    download_url: text(state.download_url),
    deployable: state.deployable,
    registration_clients: list(state.registration_clients),
    registration_issuer: text(state.registration_issuer),
    capability: capabilityBody(state.capability),
    readme: text(state.readme),
    readme_base_url: text(state.readme_base_url),
    api_docs: rowsBody(state.api_docs, (doc) => ({
      url: text(doc.url),
      format: text(doc.format),
      title: text(doc.title),
      description: text(doc.description),
    })),
    publisher: agentBody(state.publisher, PUBLISHER),
    contact: agentBody(state.contact, CONTACT),
  };
}

/** The field paths the form shows, in order, for placing the registry's errors. */
export function softwareFields(state: SoftwareState): string[] {
  return [
    'name',
    'tagline',
    'description',
    'kinds',
    'maturity',
    'keywords',
    'topics',
    'license',
    'homepage',
    'code_repository',
    'documentation',
    'download_url',
    'deployable',
    'registration_clients',
    'registration_issuer',
    ...CAPABILITY_FIELDS,
    'readme',
    'readme_base_url',
    ...repeatedFields('api_docs', state.api_docs, API_DOC_MEMBERS),
    ...agentFields('publisher', PUBLISHER),
    ...agentFields('contact', CONTACT),
  ];
}

/** The registry's other names for fields of this form. */
export const SOFTWARE_ALIASES: Readonly<Record<string, string>> = { kind: 'kinds' };
