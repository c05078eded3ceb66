import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ROOT_TOKEN, runProcess, startServe, testEnv, type ServerProcess } from '../helpers.js';

/*
 * The registry's /sparql read by the Python clients data people use, Debian's python3-sparqlwrapper and
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

describe.skipIf(!installed)('the Python SPARQL clients', () => {
  let server: ServerProcess;
  const software: [string, string][] = [];

  beforeAll(async () => {
    server = await startServe(testEnv());
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

  it('read every answer in the serialisation each asks for', async () => {
    const run = await runProcess(PYTHON, [SCRIPT, `${server.url}/sparql`], { cwd: ROOT, env: process.env });
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
  });
});
