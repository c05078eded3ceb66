import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parser, type Quad } from 'n3';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { apiOf, type Json } from '../support/api.js';
import { openTestCore } from '../helpers.js';

/*
 * FAIR Signposting level 2 and the record IRIs as RDF clients read them: every record links a linkset of its
 * typed links (RFC 9264, JSON and text), its metadata documents say what they describe, every representation
 * says when the record last changed, and RDF/XML and N-Triples are offered beside Turtle, JSON-LD and N-Quads.
 */

const APACHE = 'https://spdx.org/licenses/Apache-2.0';
let core: Core;
let app: ReturnType<typeof createApp>;
let software: Json;
let path: string;

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  software = await apiOf(app).call('POST', '/api/v1/software', 201, {
    name: 'linked',
    license: APACHE,
    code_repository: 'https://example.org/linked.git',
  });
  path = new URL(software.iri as string).pathname;
});
afterAll(async () => core.close());

/** The links of a Link header as `rel <href> type` strings. */
function links(header: string | null): string[] {
  return [...(header ?? '').matchAll(/<([^>]*)>; rel="([^"]+)"(?:; type="([^"]+)")?/g)].map(
    ([, href, rel, type]) => [rel, `<${href}>`, type].filter((part) => part !== undefined).join(' '),
  );
}

describe('linksets', () => {
  it('are linked from every representation of a record and from its API read', async () => {
    const iri = software.iri as string;
    for (const response of [
      await app.request(path, { headers: { accept: 'text/turtle' } }),
      await app.request(`/api/v1/software/${software.id as string}`),
    ]) {
      expect(links(response.headers.get('link'))).toEqual(
        expect.arrayContaining([
          `linkset <${iri}.linkset> application/linkset+json`,
          `linkset <${iri}.linkset> application/linkset`,
        ]),
      );
    }
  });

  it('hold the record’s typed links in RFC 9264 JSON, with the metadata documents anchored back', async () => {
    const iri = software.iri as string;
    const response = await app.request(`${path}.linkset`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/linkset+json');
    const document = (await response.json()) as { linkset: Json[] };
    // RFC 9264 section 4.2: a `linkset` array of context objects, each with an anchor and arrays of targets.
    expect(Object.keys(document)).toEqual(['linkset']);
    for (const context of document.linkset) {
      expect(typeof context.anchor).toBe('string');
      for (const [rel, targets] of Object.entries(context).filter(([key]) => key !== 'anchor')) {
        expect(Array.isArray(targets), rel).toBe(true);
        for (const target of targets as Json[]) {
          expect(typeof target.href).toBe('string');
          expect(Object.keys(target).every((key) => ['href', 'type'].includes(key))).toBe(true);
        }
      }
    }
    const [record, turtle, jsonld] = document.linkset;
    expect(record).toMatchObject({
      anchor: iri,
      'cite-as': [{ href: iri }],
      describedby: [
        { href: `${iri}.ttl`, type: 'text/turtle' },
        { href: `${iri}.jsonld`, type: 'application/ld+json' },
      ],
      license: [{ href: APACHE }],
      item: [{ href: 'https://example.org/linked.git' }],
    });
    expect(record).not.toHaveProperty('linkset');
    expect(turtle).toEqual({ anchor: `${iri}.ttl`, describes: [{ href: iri, type: 'text/html' }] });
    expect(jsonld).toEqual({ anchor: `${iri}.jsonld`, describes: [{ href: iri, type: 'text/html' }] });
    // The record's own links are the same in the header and in the linkset.
    const header = links(
      (await app.request(path, { headers: { accept: 'text/turtle' } })).headers.get('link'),
    );
    const fromSet = Object.entries(record!)
      .filter(([key]) => key !== 'anchor')
      .flatMap(([rel, targets]) =>
        (targets as Json[]).map((target) =>
          [rel, `<${target.href as string}>`, target.type as string | undefined].filter(Boolean).join(' '),
        ),
      );
    expect(fromSet.sort()).toEqual(header.filter((link) => !link.startsWith('linkset ')).sort());
  });

  it('come as application/linkset when asked, one anchored link a line', async () => {
    const iri = software.iri as string;
    const response = await app.request(`${path}.linkset`, { headers: { accept: 'application/linkset' } });
    expect(response.headers.get('content-type')).toBe('application/linkset');
    const lines = (await response.text()).trim().split(',\n');
    expect(lines).toContain(`<${iri}>; rel="cite-as"; anchor="${iri}"`);
    expect(lines).toContain(`<${iri}>; rel="describes"; type="text/html"; anchor="${iri}.ttl"`);
    // The record IRI itself answers a client asking for a linkset.
    const negotiated = await app.request(path, { headers: { accept: 'application/linkset+json' } });
    expect(negotiated.headers.get('content-type')).toBe('application/linkset+json');
  });

  it('answer If-None-Match with 304', async () => {
    const first = await app.request(`${path}.linkset`);
    const tag = first.headers.get('etag');
    expect(tag).toBeTruthy();
    expect((await app.request(`${path}.linkset`, { headers: { 'if-none-match': tag! } })).status).toBe(304);
  });
});

describe('record representations', () => {
  it('say what a metadata document describes, and when the record last changed', async () => {
    const iri = software.iri as string;
    const modified = new Date(software.modified as string).toUTCString();
    for (const extension of ['ttl', 'jsonld', 'nq', 'nt', 'rdf', 'json', 'md']) {
      const response = await app.request(`${path}.${extension}`);
      expect(response.status, extension).toBe(200);
      expect(links(response.headers.get('link')), extension).toContain(`describes <${iri}> text/html`);
      expect(response.headers.get('last-modified'), extension).toBe(modified);
    }
    const negotiated = await app.request(path, { headers: { accept: 'text/turtle' } });
    expect(links(negotiated.headers.get('link'))).not.toContain(`describes <${iri}> text/html`);
    expect(negotiated.headers.get('last-modified')).toBe(modified);
  });

  it('answer HEAD with the headers of GET and no body', async () => {
    const head = await app.request(`${path}.ttl`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/turtle; charset=utf-8');
    expect(head.headers.get('etag')).toBe((await app.request(`${path}.ttl`)).headers.get('etag'));
    expect(await head.text()).toBe('');
  });

  it('are RDF/XML and N-Triples too, and RDF/XML for the Accept header rdflib sends by default', async () => {
    const iri = software.iri as string;
    // Times are compared by value: the N-Triples writer gives the canonical form (`.13Z` for `.130Z`).
    const line = (quad: Quad) =>
      `${quad.subject.value} ${quad.predicate.value} ${
        quad.object.termType === 'Literal' &&
        quad.object.datatype.value === 'http://www.w3.org/2001/XMLSchema#dateTime'
          ? new Date(quad.object.value).toISOString()
          : quad.object.value
      }`;
    const turtle = new Parser({ format: 'text/turtle' })
      .parse(await (await app.request(`${path}.ttl`)).text())
      .map(line)
      .sort();
    const nt = await app.request(path, { headers: { accept: 'application/n-triples' } });
    expect(nt.headers.get('content-type')).toBe('application/n-triples');
    const triples = new Parser({ format: 'application/n-triples' })
      .parse(await nt.text())
      .map(line)
      .sort();
    expect(triples).toEqual(turtle);
    const rdflib = await app.request(path, {
      headers: { accept: 'application/rdf+xml,text/rdf+n3;q=0.9,application/xhtml+xml;q=0.5, */*;q=0.1' },
    });
    expect(rdflib.status).toBe(200);
    expect(rdflib.headers.get('content-type')).toBe('application/rdf+xml');
    const xml = await rdflib.text();
    expect(xml).toContain(`rdf:about="${iri}"`);
    expect(xml).toContain('linked');
    expect((await app.request(`${path}.rdf`)).headers.get('content-type')).toBe('application/rdf+xml');
  });
});
