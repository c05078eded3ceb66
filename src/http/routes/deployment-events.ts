import { Hono } from 'hono';
import { readDeploymentEvent } from '../../core/deployment/cdevent.js';
import { applyDeploymentEvent } from '../../core/deployment/deployment-events.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';
import { readJson } from '../body.js';

/**
 * `POST /api/v1/deployment-events`: CDEvents about deployments (service deployed, upgraded, rolled back, removed;
 * environment created, modified, deleted; artifact published), carried by CloudEvents 1.0 in structured mode
 * (`application/cloudevents+json`, or the CDEvent alone as `application/json`) or binary mode (`ce-*` headers),
 * plain or compressed. 201 with the history entry the event made; 200 with the entry of its first receipt when
 * it is a replay. A curator names the deployment with `?instance=`.
 */
export function deploymentEventRoutes(): Mounts {
  const events = new Hono<AppEnv>();
  events.post('/', async (c) => {
    const event = readDeploymentEvent({ body: await readJson(c), header: (name) => c.req.header(name) });
    const answer = await applyDeploymentEvent(c.get('core'), c.get('act'), event, c.req.query('instance'));
    return c.json(answer, answer.replayed ? 200 : 201);
  });
  return [['/api/v1/deployment-events', events]];
}

const TEXT = { type: 'string' } as const;
const MAYBE_TEXT = { type: ['string', 'null'] } as const;
const STATE = {
  type: 'object',
  properties: {
    release: MAYBE_TEXT,
    version: MAYBE_TEXT,
    environment: MAYBE_TEXT,
    running: { type: 'boolean' },
  },
  required: ['release', 'version', 'environment', 'running'],
} as const;

/** One entry of a deployment's history. */
export const HISTORY_ENTRY = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    at: { ...TEXT, description: "when it happened: the event's timestamp, or the time of the announcement" },
    received_at: TEXT,
    type: { ...TEXT, description: 'the CDEvents kind (service.deployed, …) or announced' },
    event_id: MAYBE_TEXT,
    event_source: MAYBE_TEXT,
    sender: { ...TEXT, description: 'the subject of the credential that sent it' },
    previous: STATE,
    current: STATE,
    artifact_id: MAYBE_TEXT,
    changed: { type: 'boolean' },
    applied: { type: 'boolean', description: 'false for an event older than the newest one applied' },
  },
  required: ['id', 'at', 'received_at', 'type', 'sender', 'previous', 'current', 'changed', 'applied'],
} as const;

/** The answer to a deployment event. */
export const EVENT_ANSWER = {
  type: 'object',
  properties: {
    instance: TEXT,
    replayed: { type: 'boolean' },
    entry: HISTORY_ENTRY,
    release: {
      type: 'object',
      properties: { iri: TEXT, version: MAYBE_TEXT, created: { type: 'boolean' } },
      required: ['iri', 'version', 'created'],
    },
  },
  required: ['instance', 'replayed', 'entry'],
} as const;

/** A page of a deployment's history. */
export const HISTORY_PAGE = {
  type: 'object',
  properties: {
    items: { type: 'array', items: HISTORY_ENTRY },
    total: { type: 'integer' },
    next_cursor: TEXT,
  },
  required: ['items', 'total'],
} as const;

/** What runs where: a software's deployments with their drift. */
export const DEPLOYMENTS_VIEW = {
  type: 'object',
  properties: {
    software: TEXT,
    latest_release: { type: ['object', 'null'] },
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          iri: TEXT,
          id: TEXT,
          label: MAYBE_TEXT,
          environment: MAYBE_TEXT,
          release: MAYBE_TEXT,
          release_version: MAYBE_TEXT,
          version: MAYBE_TEXT,
          artifact_id: MAYBE_TEXT,
          running: { type: 'boolean' },
          removed_at: MAYBE_TEXT,
          since: MAYBE_TEXT,
          health: TEXT,
          last_run: { type: ['object', 'null'] },
          behind_latest: { type: 'boolean' },
          versions_differ: { type: 'boolean' },
        },
      },
    },
    total: { type: 'integer' },
    environments: { type: 'array' },
    drift: { type: 'object' },
  },
  required: ['software', 'latest_release', 'items', 'total', 'environments', 'drift'],
} as const;
