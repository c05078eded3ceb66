/**
 * `reg sparql` against a running registry: SELECT as a table and in the SPARQL 1.1 JSON, CSV and TSV results
 * formats, ASK as true or false, CONSTRUCT as the registry's Turtle, the query from a file and from standard
 * input, and the exit codes of refusals.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';

let server: ServerProcess;
let env: Record<string, string>;
let software: Record<string, any>;

/** A name with a comma, a quote and a language-free literal: what CSV must quote and TSV must escape. */
const NAME = 'Tally, the "counting" tool';
const byName = `SELECT ?s ?name WHERE { GRAPH ?g { ?s <https://schema.org/name> ?name } FILTER(?name = ${JSON.stringify(NAME)}) }`;

beforeAll(async () => {
  server = await startServe(testEnv({ REG_SPARQL_PUBLIC: 'false' }));
  env = { REG_URL: server.url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
  const created = await runReg(['software', 'create', '--name', NAME, '--json'], env);
  expect(created.code, created.stderr).toBe(0);
  software = JSON.parse(created.stdout) as Record<string, any>;
});
afterAll(async () => {
  await server.stop();
});

describe('reg sparql', () => {
  it('prints SELECT results as a table, and the SPARQL JSON results under --json', async () => {
    const table = await runReg(['sparql', byName], env);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^s +name$/);
    expect(lines[1]).toBe(`${software.iri}  ${NAME}`);
    expect(lines).toHaveLength(2);
    expect(table.stderr).toContain('1 row');

    const json = await runReg(['sparql', byName, '--json'], env);
    expect(json.code).toBe(0);
    const results = JSON.parse(json.stdout) as Record<string, any>;
    expect(results.head.vars).toEqual(['s', 'name']);
    expect(results.results.bindings).toEqual([
      { s: { type: 'uri', value: software.iri }, name: { type: 'literal', value: NAME } },
    ]);
    const formatJson = await runReg(['sparql', byName, '--format', 'json'], env);
    expect(JSON.parse(formatJson.stdout)).toEqual(results);
  });

  it('writes CSV with RFC 4180 quoting and CRLF, and TSV with N-Triples terms', async () => {
    const csv = await runReg(['sparql', byName, '--format', 'csv'], env);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe(`s,name\r\n${software.iri},"Tally, the ""counting"" tool"\r\n`);

    const query = `SELECT ?s ?name ?n ?missing WHERE { GRAPH ?g { ?s <https://schema.org/name> ?name } FILTER(?name = ${JSON.stringify(NAME)}) BIND(42 AS ?n) BIND("x"@en AS ?tag) }`;
    const tsv = await runReg(['sparql', query, '-f', 'tsv'], env);
    expect(tsv.code, tsv.stderr).toBe(0);
    expect(tsv.stdout).toBe(
      `?s\t?name\t?n\t?missing\n<${software.iri}>\t"Tally, the \\"counting\\" tool"\t42\t\n`,
    );
    const tagged = await runReg(['sparql', 'SELECT ?t WHERE { BIND("a\tb"@en AS ?t) }', '-f', 'tsv'], env);
    expect(tagged.stdout).toBe('?t\n"a\\tb"@en\n');
  });

  it('answers ASK with true or false, exit 0 either way', async () => {
    const yes = await runReg(['sparql', `ASK { GRAPH ?g { <${software.iri}> ?p ?o } }`], env);
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stdout).toBe('true\n');
    const no = await runReg(['sparql', 'ASK { GRAPH ?g { <http://registry.test/nothing> ?p ?o } }'], env);
    expect(no.code).toBe(0);
    expect(no.stdout).toBe('false\n');
    const json = await runReg(
      ['sparql', 'ASK { GRAPH ?g { <http://registry.test/nothing> ?p ?o } }', '--json'],
      env,
    );
    expect(JSON.parse(json.stdout)).toMatchObject({ boolean: false });
  });

  it('prints CONSTRUCT as the Turtle the registry sends, and reads queries from a file and standard input', async () => {
    const dir = tempDir('reg-sparql-');
    const file = path.join(dir, 'construct.rq');
    fs.writeFileSync(
      file,
      `CONSTRUCT { ?s <https://schema.org/name> ?name } WHERE { GRAPH ?g { ?s <https://schema.org/name> ?name } FILTER(?s = <${software.iri}>) }`,
    );
    const turtle = await runReg(['sparql', `@${file}`], env);
    expect(turtle.code, turtle.stderr).toBe(0);
    expect(turtle.stdout).toContain(`<${software.iri}>`);
    expect(turtle.stdout).toContain('"Tally, the \\"counting\\" tool"');
    const json = await runReg(['sparql', `@${file}`, '--json'], env);
    const graph = JSON.parse(json.stdout) as Record<string, any>;
    expect(graph.content_type).toMatch(/^text\/turtle/);
    expect(graph.data).toBe(turtle.stdout);

    const piped = await runReg(['sparql', '-', '--format', 'csv'], env, byName);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout.split('\r\n')[1]).toBe(`${software.iri},"Tally, the ""counting"" tool"`);
  });

  it('exits with the documented codes for bad input and refusals', async () => {
    const missing = await runReg(['sparql', '@/nonexistent/query.rq'], env);
    expect(missing.code).toBe(5);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('/nonexistent/query.rq');
    const empty = await runReg(['sparql', '-'], env, '  \n');
    expect(empty.code).toBe(5);

    const syntax = await runReg(['sparql', 'SELECT WHERE {', '--json'], env);
    expect(syntax.code).toBe(8);
    expect(JSON.parse(syntax.stdout).error.status).toBe(400);
    const update = await runReg(['sparql', 'INSERT DATA { <a:b> <a:c> <a:d> }'], env);
    expect(update.code).toBe(9);
    expect(update.stderr).toMatch(/^reg: 403 .*read-only/);
    // This registry answers no anonymous queries.
    const { REG_TOKEN: _token, ...anonymous } = env;
    const refused = await runReg(['sparql', byName], anonymous);
    expect(refused.code).toBe(9);
    const badFormat = await runReg(['sparql', byName, '--format', 'xml'], env);
    expect(badFormat.code).toBe(2);
    const unreachable = await runReg(['sparql', byName, '--url', 'http://127.0.0.1:9'], env);
    expect(unreachable.code).toBe(10);
  });
});
