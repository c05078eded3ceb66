/**
 * The endpoints that take a JSON body other than a record: tokens, subscriptions and their deliveries, digests
 * to identify, OpenLineage events, peers and announcements.
 */
import type { BodyEndpoint } from './endpoints.js';

const openLineageEvent = {
  eventType: 'COMPLETE',
  eventTime: '2026-01-01T00:00:00Z',
  run: { runId: '01a21746-c88b-76cd-9470-{unique}' },
  job: { namespace: 'corpus', name: 'job' },
  producer: 'https://example.org/producer',
  inputs: [{ namespace: 's3://bucket', name: 'in.csv' }],
  outputs: [{ namespace: 's3://bucket', name: 'out.csv' }],
};

/** The endpoints, in the order of their route files. */

/** The endpoints, in the order of their route files. */
export const OPERATIONAL_ENDPOINTS: readonly BodyEndpoint[] = [
  {
    method: 'POST',
    path: '/api/v1/software/{software}/tokens',
    credential: 'root',
    base: {},
    fields: { scopes: 'texts', label: 'text', expires_in: 'other' },
  },
  {
    method: 'POST',
    path: '/api/v1/instances/{instance}/tokens',
    credential: 'root',
    base: {},
    fields: { scopes: 'texts', label: 'text', expires_in: 'other' },
  },
  {
    method: 'POST',
    path: '/api/v1/instances/{instance}/subscriptions',
    credential: 'root',
    base: { label: 'corpus subscription' },
    fields: {
      label: 'text',
      'filter.conforms_to': 'iris',
      'filter.software': 'iris',
      'filter.license': 'iris',
      'filter.keywords': 'texts',
      'filter.q': 'text',
      webhook_secret: 'text',
    },
  },
  {
    method: 'PATCH',
    path: '/api/v1/subscriptions/{subscription}',
    credential: 'root',
    base: { label: 'edited' },
    fields: { label: 'text', 'filter.conforms_to': 'iris', 'filter.instance': 'iris' },
  },
  {
    method: 'POST',
    path: '/api/v1/subscriptions/{subscription}/deliveries/ack',
    credential: 'root',
    base: { cursor: '0' },
    fields: { cursor: 'text' },
  },
  {
    method: 'POST',
    path: '/api/v1/artifacts/identify',
    credential: 'anonymous',
    base: { algorithm: 'sha256', value: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
    fields: { algorithm: 'text', value: 'text' },
  },
  {
    method: 'POST',
    path: '/api/v1/openlineage',
    credential: 'deployment',
    base: openLineageEvent,
    fields: {
      eventType: 'text',
      eventTime: 'text',
      'run.runId': 'text',
      'job.namespace': 'text',
      'job.name': 'text',
      producer: 'text',
      'inputs[0].namespace': 'text',
      'inputs[0].name': 'text',
      'outputs[0].namespace': 'text',
      'outputs[0].name': 'text',
      'outputs[0].facets': 'other',
    },
  },
  {
    method: 'POST',
    path: '/api/v1/peers',
    credential: 'root',
    base: { base_iri: 'http://127.0.0.1:1', announce: false },
    fields: { base_iri: 'iri', announce: 'other' },
    iriBase: 'http://127.0.0.1:1/',
  },
  {
    method: 'POST',
    path: '/api/v1/peers/announce',
    credential: 'anonymous',
    base: { base_iri: 'http://127.0.0.1:1', title: 'corpus peer' },
    fields: { base_iri: 'text', title: 'text' },
    iriBase: 'http://127.0.0.1:1/',
  },
];
