import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parser } from 'n3';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { apiOf, type Json } from '../support/api.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

/*
 * The SPARQL 1.1 Protocol on /sparql, through the HTTP API, on both graph stores: every results and graph
 * serialisation by content negotiation, the dataset parameters, the service description and entity tags.
 */

const REG = 'https://w3id.org/reg/ns#';
const NAMES = ['alpha', 'beta', 'gamma'];
// With a LIMIT of its own: a stock Virtuoso sorts at most 10,000 rows (MaxSortedTopRows), fewer than the row
// budget the endpoint would otherwise ask for.
const SOFTWARE = `SELECT ?s ?name WHERE { ?s a <${REG}Software> ; <https://schema.org/name> ?name } ORDER BY ?name LIMIT 100`;
const COUNT = `SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a <${REG}Software> }`;
const GRAPHS = `SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s a <${REG}Software> } }`;
const CONSTRUCT = `CONSTRUCT { ?s a <${REG}Software> ; <https://schema.org/name> ?name } WHERE { ?s a <${REG}Software> ; <https://schema.org/name> ?name }`;

let core: Core;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof apiOf>;
const software: Json[] = [];

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  api = apiOf(app);
  for (const name of NAMES) software.push(await api.call('POST', '/api/v1/software', 201, { name }));
});
afterAll(async () => core.close());

async function sparql(query: string, headers: Record<string, string> = {}, params = ''): Promise<Response> {
  return app.request(`/sparql?query=${encodeURIComponent(query)}${params}`, { headers });
}

async function ok(response: Response, type: string): Promise<string> {
  const body = await response.text();
  expect(response.status, body).toBe(200);
  expect(response.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
  return body;
}

function triples(text: string, format: string): { subject: string; predicate: string; object: string }[] {
  return new Parser({ format }).parse(text).map((quad) => ({
    subject: quad.subject.value,
    predicate: quad.predicate.value,
    object: quad.object.value,
  }));
}

const nameTriples = (): { subject: string; predicate: string; object: string }[] =>
  software
    .map((record) => ({
      subject: record.iri as string,
      predicate: 'https://schema.org/name',
      object: record.name as string,
    }))
    .sort((a, b) => a.object.localeCompare(b.object));

describe('SELECT and ASK answers', () => {
  it('are SPARQL JSON results by default and for */*', async () => {
    for (const headers of [{}, { accept: '*/*' }, { accept: 'application/sparql-results+json' }]) {
      const json = JSON.parse(
        await ok(await sparql(SOFTWARE, headers), 'application/sparql-results+json'),
      ) as {
        head: { vars: string[] };
        results: { bindings: Json[] };
      };
      expect(json.head.vars).toEqual(['s', 'name']);
      expect(json.results.bindings.map((row) => row.name.value)).toEqual(NAMES);
    }
  });

  it('are SPARQL XML results, with every term kind written as the format has it', async () => {
    const xml = await ok(
      await sparql(SOFTWARE, { accept: 'application/sparql-results+xml' }),
      'application/sparql-results+xml',
    );
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<sparql xmlns="http:\/\/www.w3.org\/2005\/sparql-results#">/,
    );
    expect(xml).toContain('<head><variable name="s"/><variable name="name"/></head>');
    for (const record of software) {
      expect(xml).toContain(
        `<result><binding name="s"><uri>${record.iri as string}</uri></binding><binding name="name"><literal>${record.name as string}</literal></binding></result>`,
      );
    }
    const ask = await ok(
      await sparql(`ASK { ?s a <${REG}Software> }`, { accept: 'application/sparql-results+xml' }),
      'application/sparql-results+xml',
    );
    expect(ask).toContain('<boolean>true</boolean>');
  });

  it('are CSV and TSV, with quoting and term syntax as the formats require', async () => {
    const tricky = `SELECT ?s ?text ?n WHERE { BIND(<urn:x:1> AS ?s) BIND("a, \\"b\\"\\ttab" AS ?text) BIND(42 AS ?n) }`;
    const csv = await ok(await sparql(tricky, { accept: 'text/csv' }), 'text/csv');
    expect(csv).toBe('s,text,n\r\nurn:x:1,"a, ""b""\ttab",42\r\n');
    const tsv = await ok(
      await sparql(tricky, { accept: 'text/tab-separated-values' }),
      'text/tab-separated-values',
    );
    expect(tsv).toBe(
      '?s\t?text\t?n\n<urn:x:1>\t"a, \\"b\\"\\ttab"\t"42"^^<http://www.w3.org/2001/XMLSchema#integer>\n',
    );
    const rows = (await ok(await sparql(SOFTWARE, { accept: 'text/csv' }), 'text/csv')).trim().split('\r\n');
    expect(rows).toEqual([
      's,name',
      ...software.map((record) => `${record.iri as string},${record.name as string}`),
    ]);
  });

  it('honour q-values, and answer 406 naming what is offered when nothing asked for is', async () => {
    const xml = await sparql(SOFTWARE, {
      accept: 'text/csv;q=0.4, application/sparql-results+xml;q=0.9, */*;q=0.1',
    });
    expect(xml.headers.get('content-type')).toBe('application/sparql-results+xml; charset=utf-8');
    const refused = await sparql(SOFTWARE, { accept: 'image/png' });
    expect(refused.status).toBe(406);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await refused.json()) as Json;
    expect(problem.code).toBe('not-acceptable');
    expect(problem.detail).toContain('application/sparql-results+json');
    expect(problem.detail).toContain('text/tab-separated-values');
    // CSV and TSV are defined for SELECT only.
    const ask = await sparql(`ASK { ?s ?p ?o }`, { accept: 'text/csv' });
    expect(ask.status).toBe(406);
    expect(((await ask.json()) as Json).detail).toContain('ASK');
  });
});

describe('CONSTRUCT and DESCRIBE answers', () => {
  const cases: [string, string, string][] = [
    ['text/turtle', 'text/turtle', 'text/turtle'],
    ['application/n-triples', 'application/n-triples', 'application/n-triples'],
    ['application/n-quads', 'application/n-quads', 'application/n-quads'],
  ];
  for (const [accept, type, parser] of cases) {
    it(`come as ${type}`, async () => {
      const text = await ok(await sparql(CONSTRUCT, { accept }), type);
      const named = triples(text, parser)
        .filter((triple) => triple.predicate === 'https://schema.org/name')
        .sort((a, b) => a.object.localeCompare(b.object));
      expect(named).toEqual(nameTriples());
    });
  }

  it('come as JSON-LD', async () => {
    const json = JSON.parse(
      await ok(await sparql(CONSTRUCT, { accept: 'application/ld+json' }), 'application/ld+json'),
    ) as Json[];
    const names = json
      .map((node) => [node['@id'], (node['https://schema.org/name'] as Json[] | undefined)?.[0]?.['@value']])
      .filter(([, name]) => name !== undefined)
      .sort((a, b) => String(a[1]).localeCompare(String(b[1])));
    expect(names).toEqual(nameTriples().map((triple) => [triple.subject, triple.object]));
  });

  it('come as RDF/XML, the serialisation RDF/XML clients ask for first', async () => {
    const xml = await ok(await sparql(CONSTRUCT, { accept: 'application/rdf+xml' }), 'application/rdf+xml');
    expect(xml).toContain('<rdf:RDF');
    for (const record of software) {
      expect(xml).toContain(`rdf:about="${record.iri as string}"`);
      expect(xml).toContain(`>${record.name as string}</`);
    }
  });

  it('refuse SPARQL results types with 406', async () => {
    const refused = await sparql(CONSTRUCT, { accept: 'application/sparql-results+json' });
    expect(refused.status).toBe(406);
    expect(((await refused.json()) as Json).detail).toContain('application/rdf+xml');
  });
});

describe('the dataset of a request', () => {
  const count = async (params: string, init?: RequestInit): Promise<number> => {
    const response =
      init === undefined ? await sparql(COUNT, {}, params) : await app.request(`/sparql${params}`, init);
    const json = JSON.parse(await ok(response, 'application/sparql-results+json')) as {
      results: { bindings: Json[] };
    };
    return Number(json.results.bindings[0]?.n?.value ?? 0);
  };

  it('is the union of every graph when the request names none', async () => {
    expect(await count('')).toBe(NAMES.length);
  });

  it('is the graphs named by default-graph-uri, overriding the query’s own FROM', async () => {
    expect(await count('&default-graph-uri=urn%3Areg%3Alocal')).toBe(NAMES.length);
    expect(await count('&default-graph-uri=urn%3Areg%3Abundle%3Aspdx')).toBe(0);
    const from = `SELECT (COUNT(DISTINCT ?s) AS ?n) FROM <urn:reg:bundle:spdx> WHERE { ?s a <${REG}Software> }`;
    const response = await sparql(from, {}, '&default-graph-uri=urn%3Areg%3Alocal');
    const json = JSON.parse(await ok(response, 'application/sparql-results+json')) as {
      results: { bindings: Json[] };
    };
    expect(json.results.bindings[0]?.n?.value).toBe(String(NAMES.length));
  });

  it('has only the named graphs named by named-graph-uri, and an empty default graph then', async () => {
    const graphsOf = async (params: string): Promise<string[]> => {
      const json = JSON.parse(
        await ok(await sparql(GRAPHS, {}, params), 'application/sparql-results+json'),
      ) as {
        results: { bindings: Json[] };
      };
      return json.results.bindings.map((row) => row.g.value as string);
    };
    expect(await graphsOf('')).toEqual(['urn:reg:local']);
    expect(await graphsOf('&named-graph-uri=urn%3Areg%3Alocal')).toEqual(['urn:reg:local']);
    expect(await graphsOf('&named-graph-uri=urn%3Areg%3Abundle%3Aspdx')).toEqual([]);
    expect(await count('&named-graph-uri=urn%3Areg%3Alocal')).toBe(0);
  });

  it('is read from a form body, and from the URL when the query is the body', async () => {
    const form = new URLSearchParams([
      ['query', COUNT],
      ['default-graph-uri', 'urn:reg:bundle:spdx'],
    ]);
    expect(
      await count('', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      }),
    ).toBe(0);
    expect(
      await count('?default-graph-uri=urn%3Areg%3Abundle%3Aspdx', {
        method: 'POST',
        headers: { 'content-type': 'application/sparql-query' },
        body: COUNT,
      }),
    ).toBe(0);
    expect(
      await count('?default-graph-uri=urn%3Areg%3Alocal', {
        method: 'POST',
        headers: { 'content-type': 'application/sparql-query' },
        body: COUNT,
      }),
    ).toBe(NAMES.length);
  });

  it('must name absolute IRIs: 400 naming the parameter', async () => {
    const refused = await sparql(COUNT, {}, '&named-graph-uri=not%20an%20iri');
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as Json).detail).toContain('named-graph-uri must be an absolute IRI');
  });
});

describe('the service description', () => {
  it('answers GET /sparql without a query, in Turtle or another graph serialisation', async () => {
    const turtle = await ok(
      await app.request('/sparql', { headers: { accept: 'text/turtle' } }),
      'text/turtle',
    );
    const parsed = triples(turtle, 'text/turtle');
    const SD = 'http://www.w3.org/ns/sparql-service-description#';
    const service = 'http://registry.test/sparql#service';
    expect(parsed).toContainEqual({
      subject: service,
      predicate: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type',
      object: `${SD}Service`,
    });
    expect(parsed).toContainEqual({
      subject: service,
      predicate: `${SD}endpoint`,
      object: 'http://registry.test/sparql',
    });
    expect(parsed).toContainEqual({
      subject: service,
      predicate: `${SD}supportedLanguage`,
      object: `${SD}SPARQL11Query`,
    });
    expect(parsed).toContainEqual({
      subject: service,
      predicate: `${SD}feature`,
      object: `${SD}UnionDefaultGraph`,
    });
    const formats = parsed
      .filter((triple) => triple.predicate === `${SD}resultFormat`)
      .map((triple) => triple.object);
    expect(formats).toEqual(
      expect.arrayContaining([
        'http://www.w3.org/ns/formats/SPARQL_Results_XML',
        'http://www.w3.org/ns/formats/SPARQL_Results_CSV',
        'http://www.w3.org/ns/formats/RDF_XML',
        'http://www.w3.org/ns/formats/JSON-LD',
      ]),
    );
    const graphNames = parsed
      .filter((triple) => triple.predicate === `${SD}name`)
      .map((triple) => triple.object);
    expect(graphNames).toEqual(expect.arrayContaining(['urn:reg:local', 'urn:reg:bundle:spdx']));
    const jsonld = JSON.parse(
      await ok(
        await app.request('/sparql', { headers: { accept: 'application/ld+json' } }),
        'application/ld+json',
      ),
    ) as Json[];
    expect(jsonld.some((node) => node['@id'] === service)).toBe(true);
  });
});

describe('entity tags', () => {
  it('answer a repeated query with 304 until a commit changes the data', async () => {
    const first = await sparql(SOFTWARE, { accept: 'text/csv' });
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^W\/".+"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(first.headers.get('vary')).toBe('Accept, Authorization');
    const again = await sparql(SOFTWARE, { accept: 'text/csv', 'if-none-match': tag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // Another serialisation, or a caller with another budget, is another answer.
    expect(
      (await sparql(SOFTWARE, { accept: 'text/tab-separated-values', 'if-none-match': tag! })).status,
    ).toBe(200);
    const credentialed = await sparql(SOFTWARE, {
      accept: 'text/csv',
      authorization: `Bearer ${ROOT_TOKEN}`,
      'if-none-match': tag!,
    });
    expect(credentialed.status).toBe(200);
    expect(credentialed.headers.get('cache-control')).toBe('private, no-cache');
    software.push(await api.call('POST', '/api/v1/software', 201, { name: 'zeta' }));
    const changed = await sparql(SOFTWARE, { accept: 'text/csv', 'if-none-match': tag! });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
    expect(await changed.text()).toContain('zeta');
  });
});
