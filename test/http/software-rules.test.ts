import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { GRAPHS } from '../../src/core/ns.js';
import { listAudit } from '../../src/core/store/audit.js';
import { factory } from '../../src/core/store/nquads.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
const auth = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
});
afterAll(async () => core.close());

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = auth) =>
  app.request(path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
const json = async (response: Response) => (await response.json()) as Record<string, any>;

describe('software write rules', () => {
  it('refuses an edit of any field while the record cites a retired term, until it is replaced or cleared', async () => {
    const created = await json(await send('POST', '/api/v1/software', { name: 'old tool' }));
    const retired = core.reference.index
      .retiredTerms()
      .find((term) => term.graph === GRAPHS.edam && term.replacedBy.length > 0)!;
    // A record written before a vocabulary change retired one of its terms.
    const stored = await core.graph.readRecord(GRAPHS.local, created.iri);
    const { namedNode, quad } = factory;
    const quads = [
      ...new (await import('n3')).Parser({ format: 'N-Quads' }).parse(stored!),
      quad(
        namedNode(created.iri),
        namedNode('https://w3id.org/reg/ns#hasCapability'),
        namedNode(`${created.iri}#capability`),
        namedNode(GRAPHS.local),
      ),
      quad(
        namedNode(`${created.iri}#capability`),
        namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'),
        namedNode('https://w3id.org/reg/ns#Capability'),
        namedNode(GRAPHS.local),
      ),
      quad(
        namedNode(`${created.iri}#capability`),
        namedNode('https://w3id.org/reg/ns#produces'),
        namedNode(retired.iri),
        namedNode(GRAPHS.local),
      ),
    ];
    await core.graph.commit(
      [{ graph: GRAPHS.local, subject: created.iri, quads, kind: 'software' }],
      () => undefined,
    );

    const refused = await send('PATCH', `/api/v1/software/${created.id}`, { tagline: 'new words' });
    expect(refused.status).toBe(422);
    const problem = await json(refused);
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'capability.produces' })]);
    expect(problem.detail).toContain(`<${retired.iri}> is a retired term; use <${retired.replacedBy[0]}>`);
    expect((await json(await app.request(`/api/v1/software/${created.id}`))).tagline).toBeUndefined();

    const cleared = await send('PATCH', `/api/v1/software/${created.id}`, {
      tagline: 'new words',
      capability: { produces: [retired.replacedBy[0]] },
    });
    expect(cleared.status).toBe(200);
    expect((await json(cleared)).capability.produces[0].iri).toBe(retired.replacedBy[0]);
  });

  it('ignores unknown fields with a warning and registry-only ones silently, and keeps created', async () => {
    const unknown = await send('POST', '/api/v1/software', { name: 'x', colour: 'blue' });
    expect(unknown.status).toBe(201);
    const answer = await json(unknown);
    expect(answer.warnings).toEqual(['colour is not a field of this record and was ignored']);
    expect(answer.colour).toBeUndefined();
    const created = await json(
      await send('POST', '/api/v1/software', {
        name: 'y',
        created: '2001-01-01T00:00:00Z',
        tombstoned: true,
        instance_count: 99,
      }),
    );
    expect(created.created).not.toBe('2001-01-01T00:00:00.000Z');
    expect(created.tombstoned).toBeUndefined();
    expect(created.instance_count).toBe(0);
  });

  it('answers a withdrawn record with 410 on edit, and audits every write', async () => {
    const created = await json(await send('POST', '/api/v1/software', { name: 'z' }));
    await send('PATCH', `/api/v1/software/${created.id}`, { maturity: 'active' });
    expect((await send('DELETE', `/api/v1/software/${created.id}`)).status).toBe(204);
    const again = await send('PATCH', `/api/v1/software/${created.id}`, { maturity: 'retired' });
    expect(again.status).toBe(410);
    expect((await json(again)).code).toBe('tombstoned');
    const actions = listAudit(core.db, { limit: 50 })
      .filter((entry) => entry.target === created.iri)
      .map((entry) => entry.action);
    expect(actions).toEqual(['tombstone', 'software.update', 'software.create']);
    expect(listAudit(core.db, { limit: 1 })[0]).toMatchObject({
      actor: 'urn:reg:root',
      actor_kind: 'root-token',
    });
  });

  it('refuses writes without a credential, malformed bodies and other media types', async () => {
    const anonymous = await send(
      'POST',
      '/api/v1/software',
      { name: 'a' },
      { 'content-type': 'application/json' },
    );
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect((await send('POST', '/api/v1/software', '{"name":')).status).toBe(400);
    expect((await send('POST', '/api/v1/software', '[1,2]')).status).toBe(400);
    expect(
      (
        await send('POST', '/api/v1/software', 'name=a', {
          ...auth,
          'content-type': 'application/x-www-form-urlencoded',
        })
      ).status,
    ).toBe(415);
    expect((await app.request('/api/v1/software/not a valid id')).status).toBe(400);
    expect((await app.request('/api/v1/software/0190aaaa-0000-7000-8000-000000000000')).status).toBe(404);
  });

  it('refuses registration clients without an issuer when several issuers are accepted and none is primary', async () => {
    const ambiguous = await openTestCore(
      { REG_WORKLOAD_ISSUERS: 'https://a.example,https://b.example' },
      true,
    );
    try {
      const response = await createApp(ambiguous).request('/api/v1/software', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: 'w', registration_clients: ['client-1'] }),
      });
      expect(response.status).toBe(422);
      expect((await json(response)).errors[0].field).toBe('registration_issuer');
      const pinned = await createApp(ambiguous).request('/api/v1/software', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          name: 'w',
          registration_clients: ['client-1'],
          registration_issuer: 'https://a.example',
        }),
      });
      expect(pinned.status).toBe(201);
    } finally {
      await ambiguous.close();
    }
  });

  it('matches keywords against the keyword list, keeping others verbatim', async () => {
    const created = await json(
      await send('POST', '/api/v1/software', {
        name: 'kw',
        keywords: ['shacl', 'SHACL Shapes', 'rml', 'pizza-ontology', ' ', 'RDF'],
      }),
    );
    expect(created.keywords.sort()).toEqual(['Mappings', 'RDF Graphs', 'SHACL', 'pizza-ontology']);
    for (const keyword of ['shacl', 'SHACL%20shapes', 'rdf-graphs', 'pizza-ontology']) {
      const found = await json(await app.request(`/api/v1/software?keyword=${keyword}`));
      expect(
        found.items.map((item: { iri: string }) => item.iri),
        keyword,
      ).toContain(created.iri);
    }
  });

  it('filters and pages the list', async () => {
    for (const name of ['alpha search', 'beta search', 'gamma other']) {
      await send('POST', '/api/v1/software', { name, kinds: ['cli'], keywords: ['Needle'] });
    }
    const found = await json(await app.request('/api/v1/software?q=SEARCH&keyword=needle&kind=cli'));
    expect(found.items.map((item: { name: string }) => item.name).sort()).toEqual([
      'alpha search',
      'beta search',
    ]);
    const first = await json(await app.request('/api/v1/software?keyword=needle&limit=2'));
    expect(first.items).toHaveLength(2);
    expect(first.total).toBe(3);
    const second = await json(
      await app.request(
        `/api/v1/software?keyword=needle&limit=2&cursor=${encodeURIComponent(first.next_cursor)}`,
      ),
    );
    expect(second.items).toHaveLength(1);
    expect(second.next_cursor).toBeUndefined();
    expect((await app.request('/api/v1/software?topic=not-an-iri')).status).toBe(400);
  });
});
