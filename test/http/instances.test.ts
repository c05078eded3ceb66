import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { getInstance } from '../../src/core/catalogue/instances.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
const auth = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const anonymous = { 'content-type': 'application/json' };
const DATA = 'http://edamontology.org/data_0006';
const REG = 'https://w3id.org/reg/ns#';
const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const MISSING = '0190aaaa-0000-7000-8000-000000000000';

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
});
afterAll(async () => core.close());

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = auth) =>
  app.request(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const json = async (response: Response) => (await response.json()) as Record<string, any>;
const iris = (list: Record<string, any>) => list.items.map((item: { iri: string }) => item.iri) as string[];
const fieldsOf = (problem: Record<string, any>) =>
  (problem.errors as { field: string }[]).map((error) => error.field).sort();
/** Whether any deployment with this label was written, in any graph. */
const labelled = (label: string) =>
  core.graph.ask(`ASK { GRAPH ?g { ?s a <${REG}Instance> ; <${RDFS_LABEL}> ${JSON.stringify(label)} } }`);

async function created(path: string, body: unknown): Promise<Record<string, any>> {
  const response = await send('POST', path, body);
  const result = await json(response);
  expect(response.status, JSON.stringify(result)).toBe(201);
  return result;
}
const software = (body: Record<string, unknown> = {}) =>
  created('/api/v1/software', { name: 'deploy-test', ...body });
const release = (sw: Record<string, any>, body: Record<string, unknown>) =>
  created(`/api/v1/software/${sw.id}/releases`, body);
const instance = (body: Record<string, unknown>) => created('/api/v1/instances', body);
// Reads as the root token (a curator), who also sees token_count.
const read = async (path: string) =>
  json(await app.request(path, { headers: { authorization: `Bearer ${ROOT_TOKEN}` } }));

describe('deployments', () => {
  it('registers a deployment from a bare software id and returns the full record', async () => {
    const sw = await software({ name: 'shacl-manager' });
    const body = await instance({
      label: 'Production',
      software: sw.id,
      endpoint_url: 'https://shacl.example.org/api',
      availability: 'public',
      jurisdiction: 'NL',
      operator: { name: 'Example Lab', kind: 'organization' },
      oidc_client_id: 'shacl-manager',
      oidc_issuer: 'https://id.example.org/realms/reg',
      allowed_scopes: ['advertise:produce'],
      self_registered_by: 'urn:someone',
      instance_key: 'node-1',
      health: 'up',
      software_name: 'ignored because derived',
    });
    expect(body.iri).toMatch(/^http:\/\/registry\.test\/instance\/[0-9a-f-]{36}$/);
    expect(body).toMatchObject({
      id: body.iri.slice(body.iri.lastIndexOf('/') + 1),
      label: 'Production',
      software: sw.iri,
      software_name: 'shacl-manager',
      endpoint_url: 'https://shacl.example.org/api',
      availability: 'public',
      operator: { name: 'Example Lab', kind: 'organization' },
      health: 'unknown',
      runs_30d: 0,
      failures_30d: 0,
      artifact_count: 0,
      token_count: 0,
      allowed_scopes: ['advertise:produce'],
      origin: { kind: 'local' },
    });
    for (const ignored of ['self_registered_by', 'instance_key', 'tombstoned', 'outdated', 'release_version'])
      expect(body[ignored], ignored).toBeUndefined();
    for (const predicate of ['selfRegisteredBy', 'instanceKey', 'health'])
      expect(await core.graph.ask(`ASK { GRAPH ?g { <${body.iri}> <${REG}${predicate}> ?v } }`)).toBe(false);
    const service = `ASK { GRAPH ?g { <${body.iri}> a <http://www.w3.org/ns/dcat#DataService> } }`;
    expect(await core.graph.ask(service)).toBe(true);

    expect(await read(`/api/v1/instances/${body.id}`)).toEqual(body);
    expect({ ...(await getInstance(core, body.iri)), token_count: 0 }).toEqual(body);
    const anonymous = await json(await app.request(`/api/v1/instances/${body.id}`));
    expect(anonymous.token_count).toBeUndefined();
    expect((await read(`/api/v1/software/${sw.id}`)).instance_count).toBe(1);
    const audit = await json(await app.request('/api/v1/audit?action=instance.create', { headers: auth }));
    expect(audit.items.map((entry: { target: string }) => entry.target)).toContain(body.iri);
  });

  it('defaults allowed_scopes to a list and types no data service without an endpoint', async () => {
    const sw = await software();
    const body = await instance({ label: 'Minimal', software: sw.iri });
    expect(body.allowed_scopes).toEqual([]);
    expect(body.endpoint_url).toBeUndefined();
    const service = `ASK { GRAPH ?g { <${body.iri}> a <http://www.w3.org/ns/dcat#DataService> } }`;
    expect(await core.graph.ask(service)).toBe(false);
  });

  it('reports the release version, the latest version and whether it is outdated', async () => {
    const sw = await software();
    const old = await release(sw, { version: '1.0', date_published: '2025-01-01' });
    const current = await release(sw, { version: '2.0', date_published: '2025-06-01' });
    const behind = await instance({ label: 'Behind', software: sw.id, release: old.id });
    expect(behind).toMatchObject({
      release: old.iri,
      release_version: '1.0',
      latest_version: '2.0',
      outdated: true,
    });
    const upToDate = await instance({ label: 'Current', software: sw.id, release: current.iri });
    expect(upToDate).toMatchObject({ release_version: '2.0', latest_version: '2.0' });
    expect(upToDate.outdated).toBeUndefined();
  });

  it('refuses a release of another software, naming release, and writes nothing', async () => {
    const sw = await software();
    const other = await software();
    const foreign = await release(other, { version: '1.0' });
    const response = await send('POST', '/api/v1/instances', {
      label: 'Wrong release',
      software: sw.id,
      release: foreign.id,
    });
    const problem = await json(response);
    expect(response.status).toBe(422);
    expect(problem.code).toBe('shacl-validation-failed');
    expect(fieldsOf(problem)).toEqual(['release']);
    expect(problem.detail).toContain(other.iri);
    expect(await labelled('Wrong release')).toBe(false);

    const unknown = await send('POST', '/api/v1/instances', {
      label: 'Unknown release',
      software: sw.id,
      release: MISSING,
    });
    expect(unknown.status).toBe(422);
    const unheld = await json(unknown);
    expect(fieldsOf(unheld)).toEqual(['release']);
    expect(unheld.detail).toContain('is not a release this registry holds');
    expect(await labelled('Unknown release')).toBe(false);
  });

  it('refuses a missing, unknown or withdrawn software, naming software, and writes nothing', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['No software', {}],
      ['Unknown software', { software: MISSING }],
      ['Not an id', { software: 'not an id!' }],
    ];
    for (const [label, body] of cases) {
      const response = await send('POST', '/api/v1/instances', { label, ...body });
      const problem = await json(response);
      expect(response.status, label).toBe(422);
      // A malformed reference is named twice (not an IRI, hence no software): every error names software.
      expect([...new Set(fieldsOf(problem))], label).toEqual(['software']);
      expect(await labelled(label)).toBe(false);
    }
    const sw = await software();
    expect((await send('DELETE', `/api/v1/software/${sw.id}`)).status).toBe(204);
    const response = await send('POST', '/api/v1/instances', { label: 'On withdrawn', software: sw.id });
    const problem = await json(response);
    expect(response.status).toBe(422);
    expect(fieldsOf(problem)).toEqual(['software']);
    expect(problem.detail).toContain('withdrawn');
    expect(await labelled('On withdrawn')).toBe(false);
  });

  it('refuses other violations with every field named', async () => {
    const sw = await software();
    const response = await send('POST', '/api/v1/instances', {
      software: sw.id,
      availability: 'everyone',
      allowed_scopes: ['do:anything'],
      endpoint_url: 'not a url',
      oidc_issuer: 'https://id.example.org/realms/reg',
    });
    const problem = await json(response);
    expect(response.status).toBe(422);
    expect(fieldsOf(problem)).toEqual([
      'allowed_scopes',
      'availability',
      'endpoint_url',
      'label',
      'oidc_issuer',
    ]);
    expect(problem.report_media_type).toBe('text/turtle');
  });

  it('refuses an endpoint on a software that cannot be hosted', async () => {
    const sw = await software({ deployable: false });
    const response = await send('POST', '/api/v1/instances', {
      label: 'Hosted library',
      software: sw.id,
      endpoint_url: 'https://lib.example.org',
    });
    const problem = await json(response);
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(problem).toMatchObject({
      type: 'https://w3id.org/reg/problem/not-deployable',
      code: 'not-deployable',
      field: 'endpoint_url',
      status: 422,
    });
    expect(await labelled('Hosted library')).toBe(false);

    const plain = await instance({ label: 'Installed library', software: sw.id });
    const patched = await send('PATCH', `/api/v1/instances/${plain.id}`, {
      endpoint_url: 'https://lib.example.org',
    });
    expect(patched.status).toBe(422);
    expect((await json(patched)).code).toBe('not-deployable');
    expect((await read(`/api/v1/instances/${plain.id}`)).endpoint_url).toBeUndefined();
  });

  it('patches with a merge: absent keeps, null clears, and the whole record is validated again', async () => {
    const sw = await software();
    const body = await instance({
      label: 'Staging',
      software: sw.id,
      description: 'for testing',
      jurisdiction: 'DE',
      availability: 'restricted',
    });
    const response = await send('PATCH', `/api/v1/instances/${body.id}`, {
      description: null,
      label: 'Staging 2',
      instance_key: 'sneaky',
    });
    const after = await json(response);
    expect(response.status, JSON.stringify(after)).toBe(200);
    expect(after.description).toBeUndefined();
    expect(after).toMatchObject({ label: 'Staging 2', jurisdiction: 'DE', availability: 'restricted' });
    expect(after.created).toBe(body.created);
    expect(after.instance_key).toBeUndefined();
    expect(await read(`/api/v1/instances/${body.id}`)).toEqual(after);

    const invalid = await send('PATCH', `/api/v1/instances/${body.id}`, {
      label: null,
      availability: 'open',
    });
    expect(invalid.status).toBe(422);
    expect(fieldsOf(await json(invalid))).toEqual(['availability', 'label']);
    expect((await read(`/api/v1/instances/${body.id}`)).label).toBe('Staging 2');

    const audit = await json(await app.request('/api/v1/audit?action=instance.update', { headers: auth }));
    expect(audit.items.map((entry: { target: string }) => entry.target)).toContain(body.iri);
  });

  it('withdraws a deployment: still readable, gone from lists and counts', async () => {
    const sw = await software();
    const kept = await instance({ label: 'Kept', software: sw.id });
    const body = await instance({ label: 'Retired', software: sw.id });
    expect((await read(`/api/v1/software/${sw.id}`)).instance_count).toBe(2);

    const deleted = await send('DELETE', `/api/v1/instances/${body.id}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    const withdrawn = await app.request(`/api/v1/instances/${body.id}`);
    expect(withdrawn.status).toBe(200);
    expect(await json(withdrawn)).toMatchObject({ iri: body.iri, label: 'Retired', tombstoned: true });
    const list = await read(`/api/v1/instances?software=${sw.id}`);
    expect(iris(list)).toEqual([kept.iri]);
    expect(list.total).toBe(1);
    expect((await read(`/api/v1/software/${sw.id}`)).instance_count).toBe(1);
    const edit = await send('PATCH', `/api/v1/instances/${body.id}`, { label: 'Back' });
    expect(edit.status).toBe(410);
    const audit = await json(await app.request('/api/v1/audit?action=tombstone', { headers: auth }));
    expect(audit.items.map((entry: { target: string }) => entry.target)).toContain(body.iri);
  });

  it('declares a capability for one deployment, held to the vocabulary rule', async () => {
    const sw = await software();
    const body = await instance({ label: 'Capable', software: sw.id });
    const response = await send('PUT', `/api/v1/instances/${body.id}/capability`, { produces: [DATA] });
    const capability = await json(response);
    expect(response.status, JSON.stringify(capability)).toBe(200);
    expect(capability).toMatchObject({
      iri: `${body.iri}#capability`,
      declared_at: 'instance',
      consumes: [],
    });
    expect(capability.produces).toEqual([{ iri: DATA, label: 'Data', source: 'bundled' }]);
    expect((await read(`/api/v1/instances/${body.id}`)).capability).toEqual(capability);

    const refused = await send('PUT', `/api/v1/instances/${body.id}/capability`, {
      consumes: ['https://example.org/unknown-type'],
    });
    expect(refused.status).toBe(422);
    expect(fieldsOf(await json(refused))).toEqual(['capability.consumes']);
    expect((await read(`/api/v1/instances/${body.id}`)).capability).toEqual(capability);
    const audit = await json(await app.request('/api/v1/audit?action=capability.declare', { headers: auth }));
    expect(audit.items.map((entry: { target: string }) => entry.target)).toContain(body.iri);
    const missing = await send('PUT', `/api/v1/instances/${MISSING}/capability`, { produces: [DATA] });
    expect(missing.status).toBe(404);
  });

  it('lists no runs or artifacts yet, and 404s for an unknown deployment', async () => {
    const sw = await software();
    const body = await instance({ label: 'Idle', software: sw.id });
    for (const what of ['runs', 'artifacts']) {
      expect(await read(`/api/v1/instances/${body.id}/${what}`)).toEqual({ items: [], total: 0 });
      const missing = await app.request(`/api/v1/instances/${MISSING}/${what}`);
      expect(missing.status).toBe(404);
      expect((await json(missing)).code).toBe('not-found');
    }
    expect((await app.request(`/api/v1/instances/${MISSING}`)).status).toBe(404);
  });

  it('filters by software, release, health, availability and text, and pages', async () => {
    const sw = await software();
    const other = await software();
    const r1 = await release(sw, { version: '1' });
    const a = await instance({
      label: 'Alpha node',
      software: sw.id,
      release: r1.id,
      availability: 'public',
    });
    const b = await instance({ label: 'Beta node', software: sw.iri, availability: 'restricted' });
    const c = await instance({ label: 'Gamma', software: sw.id, description: 'the NODE in Gamma' });
    const elsewhere = await instance({ label: 'Alpha node', software: other.id, availability: 'public' });
    const list = (query: string) => read(`/api/v1/instances?software=${sw.id}&${query}`);

    expect(iris(await list(''))).toEqual([c.iri, b.iri, a.iri]);
    expect(iris(await read(`/api/v1/instances?software=${encodeURIComponent(sw.iri)}`))).toEqual([
      c.iri,
      b.iri,
      a.iri,
    ]);
    expect(iris(await list('availability=public'))).toEqual([a.iri]);
    expect(iris(await list(`release=${r1.id}`))).toEqual([a.iri]);
    expect(iris(await read(`/api/v1/instances?release=${encodeURIComponent(r1.iri)}`))).toEqual([a.iri]);
    expect(iris(await list('q=node'))).toEqual([c.iri, b.iri, a.iri]);
    expect(iris(await list('q=alpha'))).toEqual([a.iri]);
    expect(iris(await list('health=unknown'))).toEqual([c.iri, b.iri, a.iri]);
    expect(await list('health=up')).toEqual({ items: [], total: 0 });
    expect(iris(await list('registry=local'))).toEqual([c.iri, b.iri, a.iri]);
    expect((await list('registry=some-peer')).total).toBe(0);
    expect(iris(await read(`/api/v1/instances?software=${other.id}`))).toEqual([elsewhere.iri]);

    const first = await list('limit=2');
    expect(iris(first)).toEqual([c.iri, b.iri]);
    expect(first.total).toBe(3);
    expect(first.next_cursor).toBe(b.iri);
    const second = await list(`limit=2&cursor=${encodeURIComponent(first.next_cursor)}`);
    expect(iris(second)).toEqual([a.iri]);
    expect(second.next_cursor).toBeUndefined();

    for (const bad of ['health=ok', 'availability=open', 'limit=many'])
      expect((await list(bad)).code, bad).toBe('bad-request');
  });

  it('needs a credential for every write (only the root token exists, so 403 cannot occur yet)', async () => {
    const sw = await software();
    const body = await instance({ label: 'Guarded', software: sw.id });
    const writes: [string, string, unknown][] = [
      ['POST', '/api/v1/instances', { label: 'Anonymous', software: sw.id }],
      ['PATCH', `/api/v1/instances/${body.id}`, { label: 'Anonymous' }],
      ['PUT', `/api/v1/instances/${body.id}/capability`, { produces: [DATA] }],
      ['DELETE', `/api/v1/instances/${body.id}`, undefined],
    ];
    for (const [method, path, payload] of writes) {
      const response = await send(method, path, payload, anonymous);
      expect(response.status, `${method} ${path}`).toBe(401);
      expect((await json(response)).code).toBe('unauthorized');
    }
    expect(await labelled('Anonymous')).toBe(false);
    expect(await read(`/api/v1/instances/${body.id}`)).toEqual(body);
  });
});
