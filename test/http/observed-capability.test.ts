import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { apiOf, artifact, type Json } from '../support/api.js';
import { openTestCore } from '../helpers.js';

const DATA = 'http://edamontology.org/data_0006';
const ONTOLOGY = 'http://edamontology.org/data_0582';
const IDENTIFIER = 'http://edamontology.org/data_0842';

/**
 * A software declared to consume ontologies and produce data. Its busy deployment's runs consumed an ontology and
 * produced identifiers (never declared), and produced data only long ago; its idle deployment never ran.
 */
let core: Core;
let api: ReturnType<typeof apiOf>;
let software: Json;
let busy: Json;
let idle: Json;
let ontology: Json;

beforeAll(async () => {
  core = await openTestCore({}, true);
  api = apiOf(createApp(core));
  software = await api.call('POST', '/api/v1/software', 201, {
    name: 'annotator',
    capability: { produces: [DATA], consumes: [ONTOLOGY] },
  });
  busy = await api.deployment(software, 'busy');
  idle = await api.deployment(software, 'idle');
  ontology = await api.call('POST', '/api/v1/artifacts', 201, artifact('Terms', { conforms_to: ONTOLOGY }));
  await api.send(
    'POST',
    '/api/v1/advertise/produced',
    {
      run: { external_key: 'old', started_at: '2020-01-01T00:00:00Z', ended_at: '2020-01-01T01:00:00Z' },
      artifacts: [artifact('Old data')],
    },
    busy.token,
  );
  await api.advertise(busy.token, 'consumed', 'new', [{ iri: ontology.iri }]);
  await api.advertise(busy.token, 'produced', 'new', [
    artifact('Ids 1', { conforms_to: IDENTIFIER }),
    artifact('Ids 2', { conforms_to: IDENTIFIER }),
  ]);
});
afterAll(async () => core.close());

const observed = (path: string, query = '') => api.send('GET', `${path}/observed-capability${query}`);
const types = (list: Json[]) => Object.fromEntries(list.map((t) => [t.type, [t.artifacts, t.runs]]));

describe('observed capability', () => {
  it('shows what a deployment’s runs produced and consumed beside its declaration, and flags the difference', async () => {
    const body = await api.expectStatus(await observed(`/api/v1/instances/${busy.instance.id}`), 200);
    expect(body).toMatchObject({ iri: busy.instance.iri, entity_type: 'instance', days: 30 });
    expect(body.declared).toEqual({ produces: [DATA], consumes: [ONTOLOGY], declared_on: [software.iri] });
    expect(types(body.observed.produces)).toEqual({ [IDENTIFIER]: [2, 1], [DATA]: [1, 1] });
    expect(types(body.observed.consumes)).toEqual({ [ONTOLOGY]: [1, 1] });
    const old = body.observed.produces.find((t: Json) => t.type === DATA);
    expect(old.last_seen).toMatch(/^2020-01-01T00:00:00/);
    expect(body.observed_undeclared).toEqual({ produces: [IDENTIFIER], consumes: [] });
    // Data was last produced in 2020: declared, but not seen in the last 30 days.
    expect(body.declared_unobserved).toEqual({ produces: [DATA], consumes: [] });
    const decade = await api.expectStatus(
      await observed(`/api/v1/instances/${busy.instance.id}`, '?days=3650'),
      200,
    );
    expect(decade.declared_unobserved).toEqual({ produces: [], consumes: [] });
  });

  it('flags every declared type of a deployment that never ran', async () => {
    const body = await api.expectStatus(await observed(`/api/v1/instances/${idle.instance.id}`), 200);
    expect(body.observed).toEqual({ produces: [], consumes: [] });
    expect(body.declared_unobserved).toEqual({ produces: [DATA], consumes: [ONTOLOGY] });
    expect(body.observed_undeclared).toEqual({ produces: [], consumes: [] });
  });

  it('sums the runs of every deployment for a software', async () => {
    const body = await api.expectStatus(await observed(`/api/v1/software/${software.id}`), 200);
    expect(body.entity_type).toBe('software');
    expect(types(body.observed.produces)).toEqual({ [IDENTIFIER]: [2, 1], [DATA]: [1, 1] });
    expect(body.observed_undeclared.produces).toEqual([IDENTIFIER]);
  });

  it('refuses a bad days with a 400 naming it and answers 404 for an unknown record', async () => {
    for (const days of ['0', 'x', '99999']) {
      const body = await api.expectStatus(
        await observed(`/api/v1/instances/${busy.instance.id}`, `?days=${days}`),
        400,
      );
      expect(body.errors[0].field).toBe('days');
    }
    await api.expectStatus(await observed('/api/v1/instances/0190f5d2-8a1b-7c3d-9e4f-0123456789ab'), 404);
  });
});

describe('GET /api/v1/capabilities with basis', () => {
  const ask = (query: string) => api.send('GET', `/api/v1/capabilities?${query}`);
  const q = (iri: string) => encodeURIComponent(iri);

  it('answers as before by default: declarations only', async () => {
    const body = await api.expectStatus(await ask(`produces=${q(IDENTIFIER)}`), 200);
    expect(body).toEqual({ items: [], total: 0, truncated: false });
  });

  it('finds what runs actually produced with basis observed', async () => {
    const body = await api.expectStatus(await ask(`produces=${q(IDENTIFIER)}&basis=observed`), 200);
    expect(body.basis).toBe('observed');
    expect(body.items.map((item: Json) => [item.entity_type, item.iri, item.basis])).toEqual([
      ['software', software.iri, 'observed'],
      ['instance', busy.instance.iri, 'observed'],
    ]);
    expect(body.items[1].observed.produces).toEqual([
      expect.objectContaining({ type: IDENTIFIER, artifacts: 2, runs: 1 }),
    ]);
  });

  it('merges both bases, a record found both ways listed once', async () => {
    const body = await api.expectStatus(await ask(`produces=${q(DATA)}&basis=both`), 200);
    const bases = Object.fromEntries(body.items.map((item: Json) => [item.iri, item.basis]));
    expect(bases).toEqual({ [software.iri]: 'both', [busy.instance.iri]: 'observed' });
  });

  it('answers what can consume an artifact, and what already did', async () => {
    const body = await api.expectStatus(await ask(`artifact=${ontology.id}&basis=both`), 200);
    expect(body.artifact).toBe(ontology.iri);
    expect(body.artifact_types).toEqual([ONTOLOGY]);
    expect(body.consumed_by).toEqual([
      expect.objectContaining({ instance: busy.instance.iri, name: 'busy', software: software.iri, runs: 1 }),
    ]);
    expect(body.items.map((item: Json) => item.iri)).toContain(software.iri);
  });

  it('refuses an unknown basis with a 400 naming it', async () => {
    const body = await api.expectStatus(await ask(`produces=${q(DATA)}&basis=guessed`), 400);
    expect(body.errors[0].field).toBe('basis');
  });
});
