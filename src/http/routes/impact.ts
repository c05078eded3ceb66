import { Hono } from 'hono';
import { impact, impactOptions } from '../../core/insight/impact.js';
import { observedCapability, observedDays } from '../../core/insight/observed.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';

/**
 * `GET /api/v1/impact?of=…` (what an artifact, a release, a content identifier or an image digest affected) and
 * the observed capability of a software and of a deployment (`GET /api/v1/software/{id}/observed-capability`,
 * `GET /api/v1/instances/{id}/observed-capability`).
 */
export function impactRoutes(): Mounts {
  const answer = new Hono<AppEnv>();
  const software = new Hono<AppEnv>();
  const instances = new Hono<AppEnv>();
  answer.get('/', async (c) => {
    const options = impactOptions({
      depth: c.req.query('depth'),
      max_nodes: c.req.query('max_nodes'),
      max_edges: c.req.query('max_edges'),
      time_budget_ms: c.req.query('time_budget_ms'),
      as_of: c.req.query('as_of'),
      cursor: c.req.query('cursor'),
    });
    return c.json(await impact(c.get('core'), c.get('principal'), c.req.query('of'), options));
  });
  software.get('/:id/observed-capability', async (c) =>
    c.json(
      await observedCapability(
        c.get('core'),
        'software',
        c.req.param('id'),
        observedDays(c.req.query('days')),
      ),
    ),
  );
  instances.get('/:id/observed-capability', async (c) =>
    c.json(
      await observedCapability(
        c.get('core'),
        'instance',
        c.req.param('id'),
        observedDays(c.req.query('days')),
      ),
    ),
  );
  return [
    ['/api/v1/impact', answer],
    ['/api/v1/software', software],
    ['/api/v1/instances', instances],
  ];
}

const TEXT = { type: 'string' } as const;
const COUNT = { type: 'integer', minimum: 0 } as const;
const TEXTS = { type: 'array', items: TEXT } as const;
const BY_WAY = (items: Record<string, unknown>) => ({
  type: 'object',
  properties: { produces: { type: 'array', items }, consumes: { type: 'array', items } },
});
const OBSERVED_TYPE = {
  type: 'object',
  required: ['type', 'artifacts', 'runs'],
  properties: { type: TEXT, label: TEXT, artifacts: COUNT, runs: COUNT, last_seen: TEXT },
};

/** The answer of `GET /api/v1/impact`, for the OpenAPI description. */
export const IMPACT_ANSWER = {
  type: 'object',
  required: [
    'of',
    'subject',
    'depth',
    'runs',
    'artifacts',
    'edges',
    'deployments',
    'subscriptions',
    'partial',
  ],
  properties: {
    of: TEXT,
    subject: {
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['artifact', 'release', 'content'] },
        artifacts: TEXTS,
        releases: TEXTS,
      },
    },
    depth: COUNT,
    summary: { type: 'object', additionalProperties: COUNT },
    runs: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          iri: TEXT,
          id: TEXT,
          title: TEXT,
          depth: COUNT,
          direct: { type: 'boolean' },
          instance: TEXT,
          release: TEXT,
          started_at: TEXT,
          status: TEXT,
        },
      },
    },
    artifacts: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          iri: TEXT,
          entity_type: TEXT,
          title: TEXT,
          depth: COUNT,
          origin: { type: 'object' },
          unresolved: { type: 'boolean' },
        },
      },
    },
    edges: {
      type: 'array',
      items: { type: 'object', properties: { from: TEXT, to: TEXT, predicate: TEXT } },
    },
    deployments: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          iri: TEXT,
          id: TEXT,
          label: TEXT,
          software: TEXT,
          software_name: TEXT,
          health: TEXT,
          health_checked_at: TEXT,
          release: TEXT,
          release_version: TEXT,
          releases_involved: TEXTS,
          still_on_release: { type: 'boolean' },
          runs: COUNT,
          first_used_at: TEXT,
          last_run_at: TEXT,
          produced_since: { type: 'object', properties: { count: COUNT, artifacts: TEXTS } },
          on_release_since: TEXT,
          left_release_at: TEXT,
          tombstoned: { type: 'boolean' },
        },
      },
    },
    subscriptions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: TEXT,
          instance: TEXT,
          label: TEXT,
          artifacts: TEXTS,
          artifact_count: COUNT,
          deliveries: COUNT,
          statuses: { type: 'object', additionalProperties: COUNT },
          first_matched_at: TEXT,
          last_matched_at: TEXT,
        },
      },
    },
    subscriptions_scope: { type: 'string', enum: ['all', 'own', 'none'] },
    partial: { type: 'boolean' },
    truncated: { type: 'boolean' },
    cursor: TEXT,
    more_release_runs: { type: 'boolean' },
    as_of: TEXT,
  },
} as const;

/** The answer of the observed-capability reads, for the OpenAPI description. */
export const OBSERVED_CAPABILITY_ANSWER = {
  type: 'object',
  properties: {
    iri: TEXT,
    id: TEXT,
    entity_type: { type: 'string', enum: ['software', 'instance'] },
    days: COUNT,
    declared: {
      type: 'object',
      properties: { produces: TEXTS, consumes: TEXTS, declared_on: TEXTS },
    },
    observed: BY_WAY(OBSERVED_TYPE),
    observed_undeclared: BY_WAY(TEXT),
    declared_unobserved: BY_WAY(TEXT),
  },
} as const;

/** The answer of `GET /api/v1/capabilities` with `basis` observed or both, or with `artifact`. */
export const BASIS_MATCHES_ANSWER = {
  type: 'object',
  properties: {
    basis: { type: 'string', enum: ['declared', 'observed', 'both'] },
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          iri: TEXT,
          id: TEXT,
          entity_type: TEXT,
          name: TEXT,
          basis: TEXT,
          capability: { type: 'object' },
          observed: BY_WAY(OBSERVED_TYPE),
        },
      },
    },
    total: COUNT,
    truncated: { type: 'boolean' },
    artifact: TEXT,
    artifact_types: TEXTS,
    consumed_by: {
      type: 'array',
      items: {
        type: 'object',
        properties: { instance: TEXT, name: TEXT, software: TEXT, runs: COUNT, last_used_at: TEXT },
      },
    },
  },
} as const;

const query = (name: string, description: string, required = false) => ({
  name,
  in: 'query',
  ...(required ? { required: true } : {}),
  description,
  schema: { type: 'string' },
});
const DAYS = query('days', 'a declared type not seen in this many days is flagged (default 30, 1–3650)');

/** Query parameters of the operations of this file and of basis-aware matchmaking, for the OpenAPI description. */
export const IMPACT_QUERY_PARAMETERS: Readonly<Record<string, readonly Record<string, unknown>[]>> = {
  'get /api/v1/impact': [
    query(
      'of',
      'what the question is about: an artifact IRI or id, a release IRI or id, a content identifier (ni:///sha-256;…, sha256:<hex>, a hex digest) or a container image digest',
      true,
    ),
    query('depth', 'generations followed down (1–6, default 6)'),
    query('max_nodes', 'runs and artifacts per answer (2–2000, default 250)'),
    query('max_edges', 'edges per answer (default four per node)'),
    query(
      'time_budget_ms',
      'time after which the answer stops and gives a cursor (default 2000, at most 10000)',
    ),
    query('as_of', 'impact as the registry had recorded it at this time'),
    query('cursor', 'continues a partial answer'),
  ],
  'get /api/v1/software/{id}/observed-capability': [DAYS],
  'get /api/v1/instances/{id}/observed-capability': [DAYS],
  'get /api/v1/capabilities': [
    query('produces', 'artifact type IRIs (or slugs of types minted here) the record must produce'),
    query('consumes', 'artifact type IRIs (or slugs of types minted here) the record must consume'),
    query('basis', 'declared (the default), observed (what runs did) or both'),
    query(
      'artifact',
      'an artifact id or IRI: its types are asked as consumes, and the answer lists who already consumed it',
    ),
  ],
};
