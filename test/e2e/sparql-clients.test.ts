import fs from 'node:fs';
import path from 'node:path';
import { SparqlEndpointFetcher } from 'fetch-sparql-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  ROOT,
  ROOT_TOKEN,
  runProcess,
  startServe,
  testEnv,
  type ServerProcess,
} from '../helpers.js';

/*
 * The registry's /sparql read by real clients: fetch-sparql-endpoint (the JavaScript client Comunica builds on) and
 * the Python clients data people use, Debian's python3-sparqlwrapper and
 * python3-rdflib (.ci/run installs them), each sending its own Accept headers: SPARQLWrapper's default XML results
 * and RDF/XML graphs, JSON, CSV and TSV, and rdflib's SPARQLStore. Against a real `reg serve` on loopback.
 */

const PYTHON = '/usr/bin/python3';
const SCRIPT = path.join(ROOT, 'test', 'support', 'python', 'sparql_clients.py');
const NAMES = ['Alpha tool', 'Beta, "quoted"', 'Gamma'];

function clientsInstalled(): boolean {
  return ['rdflib', 'SPARQLWrapper'].every((name) =>
    fs.existsSync(path.join('/usr/lib/python3/dist-packages', name)),
  );
}
const installed = clientsInstalled();
if (!installed && process.env.CI === 'true')
  throw new Error('python3-rdflib and python3-sparqlwrapper are missing: install them (see .ci/run)');

let server: ServerProcess;
const software: [string, string][] = [];

beforeAll(async () => {
  // Record IRIs that dereference here: the base is the address the server listens on.
  const port = await freePort();
  server = await startServe(
    testEnv({ REG_LISTEN: `127.0.0.1:${port}`, REG_BASE_IRI: `http://127.0.0.1:${port}` }),
  );
  for (const name of NAMES) {
    const response = await fetch(`${server.url}/api/v1/software`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    expect(response.status).toBe(201);
    software.push([((await response.json()) as { iri: string }).iri, name]);
  }
  software.sort((a, b) => a[1].localeCompare(b[1]));
});
afterAll(async () => server?.stop());

const REG = 'https://w3id.org/reg/ns#';
const SELECT = `SELECT ?s ?name WHERE { ?s a <${REG}Software> ; <https://schema.org/name> ?name } ORDER BY ?name LIMIT 100`;

describe('fetch-sparql-endpoint', () => {
  it('reads bindings, an ASK and a CONSTRUCT, each in the serialisation it asks for', async () => {
    const fetcher = new SparqlEndpointFetcher();
    const endpoint = `${server.url}/sparql`;
    const rows: [string, string][] = [];
    for await (const row of await fetcher.fetchBindings(endpoint, SELECT)) {
      const bindings = row as unknown as Record<'s' | 'name', { value: string }>;
      rows.push([bindings.s.value, bindings.name.value]);
    }
    expect(rows).toEqual(software);
    expect(await fetcher.fetchAsk(endpoint, `ASK { ?s a <${REG}Software> }`)).toBe(true);
    const names: [string, string][] = [];
    const construct = `CONSTRUCT { ?s <https://schema.org/name> ?name } WHERE { ?s a <${REG}Software> ; <https://schema.org/name> ?name }`;
    for await (const quad of await fetcher.fetchTriples(endpoint, construct))
      names.push([quad.subject.value, quad.object.value]);
    expect(names.sort((a, b) => a[1].localeCompare(b[1]))).toEqual(software);
  });

  it('sends a dataset in the URL that the endpoint applies', async () => {
    const fetcher = new SparqlEndpointFetcher({
      additionalUrlParams: new URLSearchParams([['default-graph-uri', 'urn:reg:bundle:spdx']]),
    });
    const rows: unknown[] = [];
    for await (const row of await fetcher.fetchBindings(`${server.url}/sparql`, SELECT)) rows.push(row);
    expect(rows).toEqual([]);
  });
});

describe.skipIf(!installed)('the Python SPARQL clients', () => {
  it('read every answer in the serialisation each asks for', async () => {
    const run = await runProcess(PYTHON, [SCRIPT, `${server.url}/sparql`, ...software.map(([iri]) => iri)], {
      cwd: ROOT,
      env: process.env,
    });
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(out.wrapper_xml).toEqual(software);
    expect(out.wrapper_json).toEqual(software);
    expect(out.wrapper_csv).toEqual([['s', 'name'], ...software]);
    expect(out.wrapper_tsv).toEqual([
      ['?s', '?name'],
      ...software.map(([iri, name]) => [`<${iri}>`, JSON.stringify(name)]),
    ]);
    expect(out.wrapper_ask_xml).toBe('true');
    expect(out.wrapper_construct).toEqual(software);
    expect(out.store_select).toEqual(software);
    expect(out.store_ask).toBe(true);
    expect(out.store_construct).toEqual(software);
    expect(out.graph_construct).toEqual(software);
    // Graph().parse(<record IRI>) gets RDF (RDF/XML, first in rdflib's Accept), the same triples as the Turtle.
    expect(out.records).toEqual(
      software.map(([, name]) => ({ triples: expect.any(Number), same_as_turtle: true, names: [name] })),
    );
    for (const record of out.records as { triples: number }[]) expect(record.triples).toBeGreaterThan(5);
  });
});
