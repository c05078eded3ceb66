/** The deployment form's state, how a record fills it, and the request body it makes. */
import type { InstanceJson } from '../api';
import { agentBody, agentFields, agentState, EMPTY_AGENT, type AgentState } from './agent-fields';
import { nonEmpty, text, textOf, textsOf, type Body } from './body';
import {
  CAPABILITY_FIELDS,
  capabilityBody,
  capabilityState,
  NO_CAPABILITY,
  type CapabilityState,
} from './capability';

export interface InstanceState {
  readonly software: string;
  readonly release: string;
  readonly label: string;
  readonly description: string;
  readonly endpoint_url: string;
  readonly health_endpoint: string;
  readonly availability: string;
  readonly jurisdiction: string;
  readonly operator: AgentState;
  readonly oidc_client_id: string;
  readonly oidc_issuer: string;
  readonly allowed_scopes: readonly string[];
  readonly capability: CapabilityState;
}

export const EMPTY_INSTANCE: InstanceState = {
  software: '',
  release: '',
  label: '',
  description: '',
  endpoint_url: '',
  health_endpoint: '',
  availability: '',
  jurisdiction: '',
  operator: EMPTY_AGENT,
  oidc_client_id: '',
  oidc_issuer: '',
  allowed_scopes: [],
  capability: NO_CAPABILITY,
};

const OPERATOR = ['name', 'kind', 'homepage'] as const;

export function instanceState(record: InstanceJson): InstanceState {
  const str = (name: string) => textOf(record, name);
  return {
    software: str('software'),
    release: str('release'),
    label: str('label'),
    description: str('description'),
    endpoint_url: str('endpoint_url'),
    health_endpoint: str('health_endpoint'),
    availability: str('availability'),
    jurisdiction: str('jurisdiction'),
    operator: agentState(record.operator),
    oidc_client_id: str('oidc_client_id'),
    oidc_issuer: str('oidc_issuer'),
    allowed_scopes: textsOf(record, 'allowed_scopes'),
    capability: capabilityState(record.capability),
  };
}

export function instanceBody(state: InstanceState): Body {
  return {
    software: text(state.software),
    release: text(state.release),
    label: text(state.label),
    description: text(state.description),
    endpoint_url: text(state.endpoint_url),
    health_endpoint: text(state.health_endpoint),
    availability: text(state.availability),
    jurisdiction: text(state.jurisdiction),
    operator: agentBody(state.operator, OPERATOR),
    oidc_client_id: text(state.oidc_client_id),
    oidc_issuer: text(state.oidc_issuer),
    allowed_scopes: nonEmpty(state.allowed_scopes),
    capability: capabilityBody(state.capability),
  };
}

export const INSTANCE_FIELDS = [
  'software',
  'release',
  'label',
  'description',
  'endpoint_url',
  'health_endpoint',
  'availability',
  'jurisdiction',
  ...agentFields('operator', OPERATOR),
  'oidc_client_id',
  'oidc_issuer',
  'allowed_scopes',
  ...CAPABILITY_FIELDS,
];
