/**
 * `reg migrate-graph`: a stopped registry's graph moved from the embedded store to a Virtuoso, in place. Records
 * read back exactly as before; large inserts go as Graph Store Protocol POSTs when the server has an endpoint for
 * them (as INSERT DATA when not); a refused POST is undone and a second run finishes the move; a second run over
 * a finished move finds nothing new.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GENEROUS_RATE_LIMITS, ROOT_TOKEN, runReg, startServe, tempDir } from '../helpers.js';
import { readSparqlLog } from '../support/strict-sparql.js';
import {
  externalStoreEnv,
  startVirtuosoSync,
  VIRTUOSO_PASSWORD,
  VIRTUOSO_USER,
  type VirtuosoServer,
} from '../support/virtuoso.js';

const BASE = 'http://registry.test';
/** Generated software records restored into the embedded store: 10 quads each, well past one INSERT DATA. */
const GENERATED = 300;

let servers: VirtuosoServer[] = [];

beforeAll(() => {
  servers = [];
});

afterAll(async () => {
  for (const server of servers) await server.dispose();
});

function virtuoso(): VirtuosoServer {
  const server = startVirtuosoSync(inject('virtuosoTemplate'));
  servers.push(server);
  return server;
}

/** An embedded registry's settings on a fresh data directory. */
function embeddedEnv(): Record<string, string> {
  return {
    REG_BASE_IRI: BASE,
    REG_DATA_DIR: tempDir(),
    REG_ROOT_TOKEN: ROOT_TOKEN,
    REG_LISTEN: '127.0.0.1:0',
    REG_LOG_LEVEL: 'warn',
    ...GENEROUS_RATE_LIMITS,
  };
}

/** Software records as N-Quads, with the literal forms a store may keep differently (times, language tags). */
function generatedRecords(count: number): string {
  const lines: string[] = [];
  for (let n = 0; n < count; n++) {
    const s = `<${BASE}/software/gen-${n}>`;
    const g = '<urn:reg:local>';
    lines.push(
      `${s} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/reg/ns#Software> ${g} .`,
      `${s} <https://schema.org/name> "Generated \\"${n}\\" – é" ${g} .`,
      `${s} <http://purl.org/dc/terms/description> "Line one\\nline two"@en ${g} .`,
      `${s} <http://purl.org/dc/terms/identifier> "gen-${n}" ${g} .`,
      `${s} <http://purl.org/dc/terms/created> "2026-01-0${(n % 9) + 1}T10:00:00.000Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> ${g} .`,
      `${s} <http://purl.org/dc/terms/modified> "2026-02-01T10:00:00.120Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> ${g} .`,
      `${s} <https://schema.org/keywords> "topic-${n % 7}" ${g} .`,
      `${s} <https://w3id.org/reg/ns#hasCapability> <${BASE}/software/gen-${n}#capability> ${g} .`,
      `<${BASE}/software/gen-${n}#capability> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/reg/ns#Capability> ${g} .`,
      `${s} <http://www.w3.org/ns/prov#wasDerivedFrom> <${BASE}/software/gen-${Math.max(0, n - 1)}> ${g} .`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** An embedded registry holding one software record made through the API and `GENERATED` restored ones. */
async function embeddedRegistry(): Promise<{ env: Record<string, string>; id: string; quads: number }> {
  const env = embeddedEnv();
  const file = path.join(env.REG_DATA_DIR as string, 'generated.nq');
  fs.writeFileSync(file, generatedRecords(GENERATED));
  const restored = await runReg(['restore', '--nquads', file, '--json'], env);
  expect(restored.code, restored.stderr).toBe(0);
  fs.rmSync(file);
  const registry = await startServe(env);
  try {
    const created = await fetch(`${registry.url}/api/v1/software`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Moved by migrate-graph', description: 'A record made through the API' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const dump = await fetch(`${registry.url}/admin/dump`, {
      headers: { authorization: `Bearer ${ROOT_TOKEN}` },
    });
    const quads = (await dump.text())
      .split('\n')
      .filter((line) => line.endsWith(' <urn:reg:local> .')).length;
    return { env, id, quads };
  } finally {
    await registry.stop();
  }
}

/** A record's JSON and N-Quads as a server answers them. */
async function readRecord(url: string, id: string): Promise<{ json: string; nquads: string }> {
  const headers = { authorization: `Bearer ${ROOT_TOKEN}` };
  const json = await (await fetch(`${url}/api/v1/software/${id}`, { headers })).text();
  const nquads = await (
    await fetch(`${url}/api/v1/software/${id}`, { headers: { ...headers, accept: 'application/n-quads' } })
  ).text();
  return { json, nquads };
}

/** Statements of `urn:reg:local` on the server, asked anonymously of it directly. */
async function localQuadsOn(server: VirtuosoServer): Promise<number> {
  const query = 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH <urn:reg:local> { ?s ?p ?o } }';
  const response = await fetch(`${server.sparqlUrl}?query=${encodeURIComponent(query)}`, {
    headers: { accept: 'application/sparql-results+json' },
  });
  const body = (await response.json()) as { results: { bindings: { n: { value: string } }[] } };
  return Number(body.results.bindings[0]?.n.value);
}

/** The settings `reg migrate-graph` runs with: the embedded registry's, plus the server's credentials and a log. */
function migrateEnv(env: Record<string, string>, server: VirtuosoServer): Record<string, string> {
  return {
    ...env,
    REG_SPARQL_USERNAME: VIRTUOSO_USER,
    REG_SPARQL_PASSWORD: VIRTUOSO_PASSWORD,
    REG_SPARQL_LOG: path.join(server.dir, 'migrate-sparql.log'),
  };
}

/** `reg migrate-graph --json` to `server`, posting inserts to its Graph Store Protocol endpoint. */
function migrateWithPosts(server: VirtuosoServer, settings: Record<string, string>) {
  return runReg(
    [
      'migrate-graph',
      '--to',
      server.sparqlAuthUrl,
      '--graph-store-endpoint',
      server.graphStoreAuthUrl,
      '--json',
    ],
    settings,
  );
}

describe('reg migrate-graph', () => {
  it('moves every record to the external store over the Graph Store Protocol, and reads them back unchanged', async () => {
    const server = virtuoso();
    const { env, id, quads } = await embeddedRegistry();
    const before = await startServe(env);
    const seen = await readRecord(before.url, id);
    const generated = await readRecord(before.url, 'gen-17');
    await before.stop();

    const settings = migrateEnv(env, server);
    const moved = await migrateWithPosts(server, settings);
    expect(moved.code, moved.stderr).toBe(0);
    const result = JSON.parse(moved.stdout);
    expect(result.records).toBe(GENERATED + 1);
    expect(result.quads).toBe(quads);
    expect(result.new).toBe(quads);
    expect(result.externalBefore).toBe(0);
    expect(result.kinds).toContainEqual({
      graph: 'urn:reg:local',
      kind: 'software',
      embedded: GENERATED + 1,
      external: GENERATED + 1,
    });
    // The records' lines went as POSTs of N-Triples, none as INSERT DATA into the registry's graph.
    const log = readSparqlLog(settings.REG_SPARQL_LOG as string);
    const posts = log.filter((entry) => entry.kind === 'graph-store' && entry.text.includes('urn:reg:local'));
    expect(posts.length).toBeGreaterThanOrEqual(1);
    expect(posts.every((entry) => entry.error === undefined)).toBe(true);
    expect(
      log.some((entry) => entry.kind === 'update' && /INSERT DATA \{ GRAPH <urn:reg:local>/.test(entry.text)),
    ).toBe(false);
    expect(await localQuadsOn(server)).toBe(quads);

    const after = await startServe({
      ...env,
      ...externalStoreEnv(server),
      REG_SPARQL_LOG: path.join(server.dir, 'serve-sparql.log'),
    });
    try {
      expect(await readRecord(after.url, id)).toEqual(seen);
      // Times and escaped literals come back in the forms they were written in.
      expect(await readRecord(after.url, 'gen-17')).toEqual(generated);
      expect(generated.nquads).toContain('"2026-02-01T10:00:00.120Z"');
    } finally {
      await after.stop();
    }

    const again = await runReg(['migrate-graph', '--to', server.sparqlAuthUrl, '--json'], settings);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ new: 0, externalBefore: GENERATED + 1 });
    expect(await localQuadsOn(server)).toBe(quads);
  });

  it('sends INSERT DATA when the server has no Graph Store Protocol endpoint', async () => {
    const server = virtuoso();
    const { env, quads } = await embeddedRegistry();
    const settings = migrateEnv(env, server);
    const moved = await runReg(['migrate-graph', '--to', server.sparqlAuthUrl, '--json'], settings);
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout).new).toBe(quads);
    const log = readSparqlLog(settings.REG_SPARQL_LOG as string);
    expect(log.some((entry) => entry.kind === 'graph-store')).toBe(false);
    // 500 lines per request at most: the generated records alone need several.
    const inserts = log.filter((entry) => entry.kind === 'update' && entry.text.includes('<urn:reg:local>'));
    expect(inserts.length).toBeGreaterThanOrEqual(Math.ceil(quads / 500));
    expect(await localQuadsOn(server)).toBe(quads);
  });

  it('undoes a move whose POST the server refuses, and a second run completes it', async () => {
    const server = virtuoso();
    const { env, quads } = await embeddedRegistry();
    const settings = migrateEnv(env, server);
    const wrong = `http://127.0.0.1:${server.httpPort}/no-graph-store-here`;
    const refused = await runReg(
      ['migrate-graph', '--to', server.sparqlAuthUrl, '--graph-store-endpoint', wrong],
      settings,
    );
    expect(refused.code).not.toBe(0);
    // Progress lines, then the one line of the refusal, naming the endpoint.
    expect(refused.stderr.trim().split('\n').at(-1)).toMatch(
      /^reg: the SPARQL endpoint http:\/\/127\.0\.0\.1:\d+\/no-graph-store-here failed \(HTTP 404/,
    );
    expect(await localQuadsOn(server)).toBe(0);

    const moved = await migrateWithPosts(server, settings);
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({ records: GENERATED + 1, new: quads });
    expect(await localQuadsOn(server)).toBe(quads);
  });

  it('refuses without an external store to move to, and on a data directory without records', async () => {
    const none = await runReg(['migrate-graph'], embeddedEnv());
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(
      /^reg: give the external store to move to: --to <endpoint> or REG_SPARQL_ENDPOINT\n$/,
    );

    const server = virtuoso();
    const empty = await runReg(
      ['migrate-graph', '--to', server.sparqlAuthUrl],
      migrateEnv(embeddedEnv(), server),
    );
    expect(empty.code).not.toBe(0);
    expect(empty.stderr).toMatch(/^reg: the data directory .* holds no records of the embedded store\n$/);
  });
});
