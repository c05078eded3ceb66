/**
 * Every query parameter of the API's reads (the lists take theirs from the kinds' declarations, so a new one is
 * covered),
 * the ones that take an IRI named, and the paths whose segments name a record (`{}` is where the hostile segment
 * goes).
 */
import { listParamNames } from '../../src/core/records/kind-registry.js';
import type { Credential } from './corpus.js';

/** The query parameters of one path. */
export interface QueryParams {
  readonly path: string;
  readonly credential: Credential;
  readonly params: readonly string[];
  /** Parameters that take only IRIs: a hostile value there is a 400. */
  readonly iriParams?: readonly string[];
}

export const QUERY_PARAMS: readonly QueryParams[] = [
  {
    path: '/api/v1/software',
    credential: 'anonymous',
    params: listParamNames('software'),
    iriParams: ['produces', 'consumes'],
  },
  {
    path: '/api/v1/instances',
    credential: 'anonymous',
    params: listParamNames('instance'),
  },
  {
    path: '/api/v1/runs',
    credential: 'anonymous',
    params: listParamNames('run'),
  },
  {
    path: '/api/v1/artifacts',
    credential: 'anonymous',
    params: listParamNames('artifact'),
    iriParams: ['conforms_to'],
  },
  { path: '/api/v1/artifacts/identify', credential: 'anonymous', params: ['algorithm', 'value'] },
  { path: '/api/v1/artifacts/{artifact}/lineage', credential: 'anonymous', params: ['direction', 'depth'] },
  { path: '/api/v1/instances/{instance}/runs', credential: 'anonymous', params: ['limit', 'cursor'] },
  { path: '/api/v1/instances/{instance}/artifacts', credential: 'anonymous', params: ['limit', 'cursor'] },
  {
    path: '/api/v1/search',
    credential: 'anonymous',
    params: ['q', 'type', 'limit', 'federated'],
  },
  {
    path: '/api/v1/search?federated=true',
    credential: 'anonymous',
    params: ['q', 'fed_id', 'fed_hops', 'fed_budget_ms', 'fed_origin', 'fed_path'],
  },
  {
    path: '/api/v1/capabilities',
    credential: 'anonymous',
    params: ['produces', 'consumes'],
    iriParams: ['produces', 'consumes'],
  },
  { path: '/api/v1/graph', credential: 'anonymous', params: ['iri', 'depth'], iriParams: ['iri'] },
  { path: '/api/v1/vocab/search', credential: 'anonymous', params: ['q', 'branch', 'limit'] },
  { path: '/api/v1/vocab/resolve', credential: 'anonymous', params: ['iris'] },
  { path: '/api/v1/licenses', credential: 'anonymous', params: ['q', 'limit'] },
  { path: '/api/v1/audit', credential: 'root', params: ['limit', 'cursor', 'action'] },
  { path: '/admin/dump', credential: 'root', params: ['graph'] },
  { path: '/api/v1/peers', credential: 'root', params: ['state'] },
  { path: '/api/v1/resolve', credential: 'anonymous', params: ['iri', 'refresh'], iriParams: ['iri'] },
  {
    path: '/api/v1/subscriptions/{subscription}/deliveries',
    credential: 'root',
    params: ['limit', 'cursor', 'ack'],
  },
  { path: '/api/v1/software/{software}/api-doc', credential: 'anonymous', params: ['n'] },
  { path: '/sparql', credential: 'anonymous', params: ['query'] },
];

/** Reads, edits and removals that name a record in the path. */
export const PATH_READS: readonly { readonly method: string; readonly path: string }[] = [
  { method: 'GET', path: '/api/v1/software/{}' },
  { method: 'GET', path: '/api/v1/software/{}/releases' },
  { method: 'GET', path: '/api/v1/software/{software}/releases/{}' },
  { method: 'GET', path: '/api/v1/instances/{}' },
  { method: 'GET', path: '/api/v1/runs/{}' },
  { method: 'GET', path: '/api/v1/artifacts/{}' },
  { method: 'GET', path: '/api/v1/artifacts/{}/lineage' },
  { method: 'GET', path: '/api/v1/types/{}' },
  { method: 'GET', path: '/api/v1/subscriptions/{}' },
  { method: 'GET', path: '/api/v1/software/{}/export/catalogue' },
  { method: 'GET', path: '/software/{}' },
  { method: 'GET', path: '/type/{}' },
  { method: 'GET', path: '/artifact/{}.nq' },
  { method: 'PATCH', path: '/api/v1/software/{}' },
  { method: 'DELETE', path: '/api/v1/software/{}' },
  { method: 'DELETE', path: '/api/v1/instances/{}' },
  { method: 'DELETE', path: '/api/v1/software/{software}/releases/{}' },
  { method: 'DELETE', path: '/api/v1/instances/{instance}/tokens/{}' },
  { method: 'DELETE', path: '/api/v1/subscriptions/{}' },
  { method: 'DELETE', path: '/api/v1/peers/{}' },
  { method: 'POST', path: '/api/v1/software/{}/sync' },
];
