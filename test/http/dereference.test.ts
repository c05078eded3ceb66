import type * as RDF from '@rdfjs/types';
import { Hono } from 'hono';
import { Parser } from 'n3';
import * as ox from 'oxigraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { GRAPHS } from '../../src/core/ns.js';
import { recordToQuads } from '../../src/core/records/mapper.js';
import { INSTANCE, RELEASE } from '../../src/core/records/specs.js';
import { signpostingLinks } from '../../src/core/discovery/signposting.js';
import { parseNQuads } from '../../src/core/store/nquads.js';
import { getSoftware } from '../../src/core/catalogue/software.js';
import { getType } from '../../src/core/catalogue/types.js';
import { createApp } from '../../src/http/app.js';
import type { AppEnv } from '../../src/http/env.js';
import { requestId } from '../../src/http/middleware.js';
import { recordRoutes } from '../../src/http/routes/records.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

const BASE = 'http://registry.test';
const APACHE = 'https://spdx.org/licenses/Apache-2.0';
const ROR = 'https://ror.org/02jz4aj89';
const REPO = 'https://github.com/example/shacl-manager';
const auth = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };

let core: Core;
let app: ReturnType<typeof createApp>;
let software: Record<string, any>;

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  const response = await app.request('/api/v1/software', {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      name: 'shacl-manager',
      kinds: ['service'],
      license: APACHE,
      code_repository: REPO,
      publisher: { name: 'Example Lab', kind: 'organization', identifier: ROR },
      api_docs: [{ url: 'https://example.org/openapi.json', format: 'openapi' }],
      capability: { produces: ['http://edamontology.org/data_0006'], consumes: [] },
    }),
  });
  software = (await response.json()) as Record<string, any>;
  expect(response.status, JSON.stringify(software)).toBe(201);
});
afterAll(async () => core.close());

const get = (path: string, accept?: string) =>
  app.request(path, accept === undefined ? {} : { headers: { accept } });
const path = () => `/software/${software.id}`;

/** Triples as comparable strings: the same for any RDF/JS terms, whichever parser made them. */
function triples(quads: Iterable<RDF.Quad>): string[] {
  // oxigraph writes timestamps in their canonical form (`.300Z` as `.3Z`), so instants are compared as instants.
  const value = (t: RDF.Literal): string =>
    t.datatype.value.endsWith('#dateTime') ? new Date(t.value).toISOString() : t.value;
  const term = (t: RDF.Term): string =>
    t.termType === 'Literal' ? JSON.stringify([value(t), t.language, t.datatype.value]) : `<${t.value}>`;
  return [...quads].map((q) => `${term(q.subject)} ${term(q.predicate)} ${term(q.object)}`).sort();
}

async function storedTriples(iri: string): Promise<string[]> {
  return triples(parseNQuads((await core.graph.readRecord(GRAPHS.local, iri)) ?? ''));
}

function links(response: Response): { href: string; rel: string; type?: string }[] {
  const header = response.headers.get('link') ?? '';
  return [...header.matchAll(/<([^>]*)>; rel="([^"]+)"(?:; type="([^"]+)")?/g)].map(([, href, rel, type]) =>
    type === undefined ? { href: href!, rel: rel! } : { href: href!, rel: rel!, type },
  );
}

describe('record IRIs dereference', () => {
  it('serves Turtle with absolute prefixes, holding exactly the stored triples', async () => {
    for (const response of [await get(path(), 'text/turtle'), await get(`${path()}.ttl`)]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/turtle; charset=utf-8');
      expect(response.headers.get('vary')).toBe('Accept');
      const text = await response.text();
      expect(text).toContain('@prefix schema: <https://schema.org/>.');
      expect(text).not.toMatch(/@base|@prefix [a-z]*: <(?!https?:)/);
      expect(text).toContain(`<${software.iri}#api-doc-0>`);
      expect(triples(new Parser({ format: 'text/turtle' }).parse(text))).toEqual(
        await storedTriples(software.iri),
      );
    }
  });

  it('serves JSON-LD that a JSON-LD parser reads back to the same triples', async () => {
    for (const response of [await get(path(), 'application/ld+json'), await get(`${path()}.jsonld`)]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/ld+json');
      const text = await response.text();
      const document = JSON.parse(text);
      expect(document['@context'].schema).toBe('https://schema.org/');
      expect(document['@graph'][0]['@id']).toBe(software.iri);
      const store = new ox.Store();
      store.load(text, { format: 'application/ld+json' });
      expect(triples(store.match())).toEqual(await storedTriples(software.iri));
    }
  });

  it('serves N-Quads in the local graph and JSON equal to the API body', async () => {
    const nquads = await get(`${path()}.nq`);
    expect(nquads.headers.get('content-type')).toBe('application/n-quads');
    expect(await nquads.text()).toBe(await core.graph.readRecord(GRAPHS.local, software.iri));
    const api = await (await get(`/api/v1/software/${software.id}`)).json();
    for (const response of [await get(path(), 'application/json'), await get(`${path()}.json`)]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(api);
    }
  });

  it('honours q-values and wildcards', async () => {
    const typeFor = async (accept: string | undefined) =>
      (await get(path(), accept)).headers.get('content-type');
    expect(await typeFor('text/turtle;q=0.5, application/n-quads')).toBe('application/n-quads');
    expect(await typeFor('application/ld+json;q=0.2, text/turtle;q=0.9')).toBe('text/turtle; charset=utf-8');
    expect(await typeFor('text/turtle;q=0, application/json;q=0.1')).toMatch(/^application\/json/);
    expect(await typeFor('application/*')).toBe('application/ld+json');
    expect(await typeFor('*/*')).toBe('text/turtle; charset=utf-8');
    expect(await typeFor(undefined)).toBe('text/turtle; charset=utf-8');
    expect(await typeFor('application/*;q=0.3, */*;q=0.1, application/json')).toMatch(/^application\/json/);
  });

  it('answers 406 when nothing offered is acceptable, the web page to browsers, and 404 for unknown ids', async () => {
    const refused = await get(path(), 'image/png, text/turtle;q=0');
    expect(refused.status).toBe(406);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(refused.headers.get('vary')).toBe('Accept');
    expect(await refused.json()).toMatchObject({ code: 'not-acceptable', status: 406 });

    const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const browser = await get(path(), BROWSER);
    expect(browser.status).toBe(200);
    expect(browser.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await browser.text()).toContain('<div id="app">');
    expect(links(browser).find((link) => link.rel === 'cite-as')?.href).toBe(software.iri);
    const missingPage = await get('/software/019a0000-0000-7000-8000-000000000000', BROWSER);
    expect(missingPage.status).toBe(404);
    expect(missingPage.headers.get('content-type')).toMatch(/^text\/html/);

    for (const unknown of [
      get('/software/019a0000-0000-7000-8000-000000000000', 'text/turtle'),
      get('/software/019a0000-0000-7000-8000-000000000000.ttl'),
      get('/software/019a0000-0000-7000-8000-000000000000.json'),
      get('/software/not%20an%20id'),
    ]) {
      const response = await unknown;
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.headers.get('vary')).toBe('Accept');
      expect(((await response.json()) as { code: string }).code).toBe('not-found');
    }
  });

  it('sends FAIR Signposting links on every representation', async () => {
    for (const response of [
      await get(`${path()}.ttl`),
      await get(`${path()}.json`),
      await get(`${path()}.nq`),
    ]) {
      const found = links(response);
      expect(found).toEqual(
        expect.arrayContaining([
          { href: software.iri, rel: 'cite-as' },
          { href: `${software.iri}.ttl`, rel: 'describedby', type: 'text/turtle' },
          { href: `${software.iri}.jsonld`, rel: 'describedby', type: 'application/ld+json' },
          { href: 'https://schema.org/SoftwareSourceCode', rel: 'type' },
          { href: APACHE, rel: 'license' },
          { href: ROR, rel: 'author' },
          { href: REPO, rel: 'item' },
          { href: `${BASE}/api/v1/software`, rel: 'collection' },
        ]),
      );
      expect(found.filter((link) => link.rel === 'describedby')).toHaveLength(2);
    }
  });

  it('keeps resolving a withdrawn record', async () => {
    const created = await app.request('/api/v1/software', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'short-lived', license: APACHE }),
    });
    const { id, iri } = (await created.json()) as { id: string; iri: string };
    expect((await app.request(`/api/v1/software/${id}`, { method: 'DELETE', headers: auth })).status).toBe(
      204,
    );
    const response = await get(`/software/${id}.ttl`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('reg:tombstoned true');
    expect(links(response)[0]).toEqual({ href: iri, rel: 'cite-as' });
  });

  it('dereferences minted artifact types when given their reader', async () => {
    const minted = await app.request('/api/v1/types', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ slug: 'variant-table', label: 'Variant table' }),
    });
    const type = (await minted.json()) as Record<string, any>;
    expect(minted.status, JSON.stringify(type)).toBe(201);
    const typed = new Hono<AppEnv>();
    typed.use('*', requestId(core));
    typed.route('/', recordRoutes({ software: getSoftware, type: getType }));

    const turtle = await typed.request('/type/variant-table', { headers: { accept: 'text/turtle' } });
    expect(turtle.status).toBe(200);
    expect(await turtle.text()).toContain('skos:prefLabel "Variant table"');
    expect(links(turtle)).toEqual(
      expect.arrayContaining([
        { href: `${BASE}/type/variant-table`, rel: 'cite-as' },
        { href: `${BASE}/api/v1/types`, rel: 'collection' },
      ]),
    );
    expect(await (await typed.request('/type/variant-table.json')).json()).toEqual(
      await (await app.request('/api/v1/types/variant-table')).json(),
    );
    // A software IRI is not a type, and a kind without a reader is not routed.
    expect((await typed.request(`/type/${software.id}.ttl`)).status).toBe(404);
    expect((await typed.request(`/release/${software.id}.ttl`)).status).toBe(404);
  });
});

describe('Signposting items and collections', () => {
  it('links a deployment to its endpoint and its software', () => {
    const iri = `${BASE}/instance/019a0000-0000-7000-8000-000000000001`;
    const { quads } = recordToQuads(
      INSTANCE,
      iri,
      { label: 'prod', software: software.iri, endpoint_url: 'https://api.example.org/' },
      GRAPHS.local,
    );
    const found = signpostingLinks(BASE, { iri, kind: 'instance', quads });
    expect(found).toEqual(
      expect.arrayContaining([
        { href: 'https://api.example.org/', rel: 'item' },
        { href: software.iri, rel: 'collection' },
        { href: 'http://www.w3.org/ns/dcat#DataService', rel: 'type' },
      ]),
    );
  });

  it('links a release to the bytes that exist, not to metadata-only downloads', () => {
    const iri = `${BASE}/release/019a0000-0000-7000-8000-000000000002`;
    const { quads } = recordToQuads(
      RELEASE,
      iri,
      {
        version: '1.0.0',
        software: software.iri,
        downloads: [
          { url: 'https://example.org/tool-1.0.0.tar.gz' },
          { url: 'https://example.org/private.tar.gz', availability: 'metadata-only' },
        ],
      },
      GRAPHS.local,
      true,
    );
    const items = signpostingLinks(BASE, { iri, kind: 'release', quads }).filter(
      (link) => link.rel === 'item',
    );
    expect(items).toEqual([{ href: 'https://example.org/tool-1.0.0.tar.gz', rel: 'item' }]);
  });
});
