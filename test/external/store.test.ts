import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { GRAPHS, RDF, SCHEMA, XSD } from '../../src/core/ns.js';
import { restoreNQuads } from '../../src/core/ops/restore.js';
import { checkVocabulary } from '../../src/core/discovery/vocabulary-rule.js';
import { listAudit } from '../../src/core/store/audit.js';
import type { ExternalGraphStore } from '../../src/core/store/graph/external/external.js';
import type { RecordWrite } from '../../src/core/store/graph/types.js';
import { factory, type Quad } from '../../src/core/store/nquads.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, tempDir } from '../helpers.js';
import { externalStoreEnv, startVirtuosoSync, type VirtuosoServer } from '../support/virtuoso.js';

const { namedNode, literal, quad } = factory;
const local = namedNode(GRAPHS.local);
const sent = (core: Core) => (core.graph as ExternalGraphStore).client.sent;
const q = (s: string, p: string, o: Quad['object']) => quad(namedNode(s), namedNode(p), o, local);

let server: VirtuosoServer;
let core: Core;

beforeAll(async () => {
  server = startVirtuosoSync(inject('virtuosoTemplate'));
  core = await openTestCore({ ...externalStoreEnv(server), REG_SPARQL_TIMEOUT: '1s' }, true);
});

afterAll(async () => {
  await core.close();
  await server.dispose();
});

/** Every line the server holds about a subject in the local graph, asked directly. */
async function onServer(subject: string): Promise<number> {
  const rows = await core.graph.select(
    `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${GRAPHS.local}> { <${subject}> ?p ?o } }`,
  );
  return Number(rows[0]?.n?.value);
}

/** Each bundle's triples, as the package holds them. */
function bundleTriples(of: Core): Record<string, number> {
  return Object.fromEntries(of.reference.bundles.map((bundle) => [bundle.graph, bundle.tripleCount]));
}

/** Each bundle graph's triples, counted by the server. */
async function bundleTriplesOnServer(of: Core): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const bundle of of.reference.bundles) {
    const rows = await of.graph.select(
      `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${bundle.graph}> { ?s ?p ?o } }`,
    );
    counts[bundle.graph] = Number(rows[0]?.n?.value);
  }
  return counts;
}

describe('reference bundles in the external store', () => {
  it('are written on a cold start only; a warm start, or a new data directory on the same server, writes nothing', async () => {
    const fresh = startVirtuosoSync();
    try {
      const dir = tempDir();
      const settings = { ...externalStoreEnv(fresh), REG_DATA_DIR: dir };
      const cold = await openTestCore(settings, true);
      // Each bundle's graph is dropped (one update) and its triples posted over the Graph Store Protocol.
      expect(sent(cold).graphPosts).toBeGreaterThanOrEqual(6);
      expect(sent(cold).updates).toBeLessThan(20);
      expect(await bundleTriplesOnServer(cold)).toEqual(bundleTriples(cold));
      const loads = listAudit(cold.db, { limit: 100, action: 'bundle.load' });
      expect(loads).toHaveLength(6);
      expect(loads.every((entry) => !(entry.detail ?? '').includes('already'))).toBe(true);
      await cold.close();

      const warm = await openTestCore(settings, true);
      expect(sent(warm)).toMatchObject({ updates: 0, graphPosts: 0 });
      expect((await warm.graph.countQuads()) > 28_000).toBe(true);
      await warm.close();

      const other = await openTestCore({ ...externalStoreEnv(fresh), REG_DATA_DIR: tempDir() }, true);
      expect(sent(other)).toMatchObject({ updates: 0, graphPosts: 0 });
      const taken = listAudit(other.db, { limit: 100, action: 'bundle.load' });
      expect(
        taken.every((entry) => (entry.detail ?? '').includes('already in the external graph store')),
      ).toBe(true);
      await other.close();
    } finally {
      await fresh.dispose();
    }
  });

  it('are written as INSERT DATA, 500 lines a request, when the server has no Graph Store Protocol endpoint', async () => {
    const fresh = startVirtuosoSync();
    try {
      const { REG_SPARQL_GRAPH_STORE_ENDPOINT: _posts, ...settings } = externalStoreEnv(fresh);
      const cold = await openTestCore({ ...settings, REG_DATA_DIR: tempDir() }, true);
      expect(sent(cold).graphPosts).toBe(0);
      expect(sent(cold).updates).toBeGreaterThan(20);
      expect(await bundleTriplesOnServer(cold)).toEqual(bundleTriples(cold));
      await cold.close();
    } finally {
      await fresh.dispose();
    }
  });

  it('answer the vocabulary rule for bundled terms from memory, without a round trip', async () => {
    const subject = 'http://registry.test/artifact/vocab-check';
    const quads = [
      q(subject, RDF('type'), namedNode('http://www.w3.org/ns/dcat#Dataset')),
      q(subject, 'http://purl.org/dc/terms/conformsTo', namedNode('http://edamontology.org/data_0006')),
      q(subject, 'http://purl.org/dc/terms/license', namedNode('https://spdx.org/licenses/CC-BY-4.0')),
    ];
    const before = { ...sent(core) };
    expect(await checkVocabulary(core, quads, new Map())).toEqual([]);
    expect(sent(core)).toEqual(before);
  });
});

describe('records in the external store', () => {
  /** A record with every kind of literal a server may keep in another lexical form. */
  const awkward = (
    subject: string,
    name: string,
    agent = 'https://orcid.org/0000-0002-1825-0097',
  ): Quad[] => [
    q(subject, RDF('type'), namedNode('https://w3id.org/reg/ns#Software')),
    q(subject, SCHEMA('name'), literal(name)),
    q(subject, 'https://w3id.org/reg/ns#deployable', literal('true', namedNode(XSD('boolean')))),
    q(subject, 'https://w3id.org/reg/ns#tombstoned', literal('false', namedNode(XSD('boolean')))),
    q(
      subject,
      'http://purl.org/dc/terms/created',
      literal('2026-01-02T03:04:05.000Z', namedNode(XSD('dateTime'))),
    ),
    q(
      subject,
      'http://purl.org/dc/terms/modified',
      literal('2026-01-02T03:04:05.120Z', namedNode(XSD('dateTime'))),
    ),
    q(subject, 'https://schema.org/datePublished', literal('2026-01-31', namedNode(XSD('date')))),
    q(subject, 'http://www.w3.org/ns/dcat#byteSize', literal('1024', namedNode(XSD('integer')))),
    q(
      subject,
      'http://purl.org/dc/terms/description',
      literal('Beschreibung: "zitiert"\nzweite Zeile 😀', 'de-CH'),
    ),
    q(
      `${subject}#capability`,
      'https://w3id.org/reg/ns#produces',
      namedNode('http://edamontology.org/data_0006'),
    ),
    q(subject, 'http://purl.org/dc/terms/publisher', namedNode(agent)),
    q(agent, SCHEMA('name'), literal('Ada')),
  ];
  const write = (subject: string, quads: Quad[] | null): RecordWrite => ({
    graph: GRAPHS.local,
    subject,
    quads,
    kind: 'software',
  });

  it('read back exactly as written, as the embedded store keeps them', async () => {
    const subject = 'http://registry.test/software/awkward';
    const quads = awkward(subject, 'Awkward');
    await core.graph.commit([write(subject, quads)], () => undefined);
    const embedded = await openTestCore({ REG_SPARQL_ENDPOINT: '' });
    try {
      expect(embedded.graph.kind).toBe('embedded');
      await embedded.graph.commit([write(subject, quads)], () => undefined);
      const expected = await embedded.graph.readRecord(GRAPHS.local, subject);
      expect(await core.graph.readRecord(GRAPHS.local, subject)).toBe(expected);
      // A second read, after the first learnt the server's forms, and a dump give the same text.
      expect(await core.graph.readRecord(GRAPHS.local, subject)).toBe(expected);
      const dumped: string[] = [];
      for await (const chunk of core.graph.dump({})) dumped.push(chunk);
      expect(dumped.join('')).toContain(`# reg:record <${subject}> <${GRAPHS.local}>\n${expected}`);
    } finally {
      await embedded.close();
    }
  });

  it('keep lines two records assert about the same outside subject while either still asserts them', async () => {
    const first = 'http://registry.test/software/shared-1';
    const second = 'http://registry.test/software/shared-2';
    const agent = 'https://orcid.org/0000-0001-5109-3700';
    await core.graph.commit(
      [write(first, awkward(first, 'One', agent)), write(second, awkward(second, 'Two', agent))],
      () => undefined,
    );
    const agentLine = `<${agent}> <${SCHEMA('name')}> "Ada" <${GRAPHS.local}> .`;
    // The first record drops the agent: the second still reads it.
    await core.graph.commit([write(first, awkward(first, 'One', agent).slice(0, 9))], () => undefined);
    expect(await core.graph.readRecord(GRAPHS.local, first)).not.toContain(agentLine);
    expect(await core.graph.readRecord(GRAPHS.local, second)).toContain(agentLine);
    // Withdrawn too, the agent stays while the second record asserts it; once neither does, it is gone.
    await core.graph.commit([write(first, null)], () => undefined);
    expect(await core.graph.readRecord(GRAPHS.local, first)).toBeUndefined();
    expect(await onServer(agent)).toBe(1);
    await core.graph.commit([write(second, null)], () => undefined);
    expect(await onServer(agent)).toBe(0);
    expect(await onServer(second)).toBe(0);
  });

  it('send nothing for a write that changes nothing, and one update request for one that does', async () => {
    const subject = 'http://registry.test/software/steady';
    await core.graph.commit([write(subject, awkward(subject, 'Steady'))], () => undefined);
    const before = { ...sent(core) };
    await core.graph.commit([write(subject, awkward(subject, 'Steady'))], () => undefined);
    expect(sent(core).updates).toBe(before.updates);
    await core.graph.commit([write(subject, awkward(subject, 'Steadier'))], () => undefined);
    expect(sent(core).updates).toBe(before.updates + 1);
    expect(await core.graph.readRecord(GRAPHS.local, subject)).toContain('"Steadier"');
  });

  it('refuse a restore of quads in the default graph before writing anything', async () => {
    const file = path.join(tempDir(), 'triples.nt');
    fs.writeFileSync(
      file,
      '# written by hand\n' +
        `<http://registry.test/software/r1> <${SCHEMA('name')}> "kept out" <${GRAPHS.local}> .\n` +
        `<http://registry.test/software/r2> <${SCHEMA('name')}> "no graph" .\n`,
    );
    const before = { ...sent(core) };
    await expect(restoreNQuads(core, file)).rejects.toThrow(/line 3 of the file is in the default graph/);
    expect(sent(core).updates).toBe(before.updates);
    expect(await core.graph.readRecord(GRAPHS.local, 'http://registry.test/software/r1')).toBeUndefined();
  });

  it('hold every commit of a restore until the whole file is checked: a bad last line writes nothing', async () => {
    const file = path.join(tempDir(), 'late-problem.nq');
    // More quads than one commit of a bulk load takes, so that the load would commit before reading the end.
    const records = 6_000;
    const lines: string[] = [];
    for (let n = 0; n < records; n++) {
      const subject = `<http://registry.test/software/bulk-${n}>`;
      lines.push(`# reg:record ${subject} <${GRAPHS.local}>`);
      lines.push(`${subject} <${RDF('type')}> <https://w3id.org/reg/ns#Software> <${GRAPHS.local}> .`);
      for (let k = 0; k < 9; k++)
        lines.push(`${subject} <${SCHEMA('keywords')}> "word ${k}" <${GRAPHS.local}> .`);
    }
    lines.push(`<http://registry.test/software/late> <${SCHEMA('name')}> "late" <${GRAPHS.local}>`);
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const before = { ...sent(core) };
    await expect(restoreNQuads(core, file)).rejects.toThrow(new RegExp(`late-problem.nq:${lines.length}: `));
    expect(sent(core).updates).toBe(before.updates);
    expect(sent(core).graphPosts).toBe(before.graphPosts);
    expect(await core.graph.readRecord(GRAPHS.local, 'http://registry.test/software/bulk-0')).toBeUndefined();
    expect(await onServer('http://registry.test/software/bulk-0')).toBe(0);
  });

  it('undo the graph update at once when the operational rows of the act fail', async () => {
    const subject = 'http://registry.test/software/refused';
    const before = { ...sent(core) };
    await expect(
      core.graph.commit([write(subject, awkward(subject, 'Refused'))], () => {
        throw new Error('the operational rows failed');
      }),
    ).rejects.toThrow('the operational rows failed');
    // One request for the commit (its lines posted), one update for its undo.
    expect(sent(core).graphPosts - before.graphPosts).toBe(1);
    expect(sent(core).updates - before.updates).toBe(1);
    expect(await core.graph.readRecord(GRAPHS.local, subject)).toBeUndefined();
    expect(await onServer(subject)).toBe(0);
  });

  it('journal the undo when the server is away, and send it before the next commit', async () => {
    const subject = 'http://registry.test/software/interrupted';
    await expect(
      core.graph.commit([write(subject, awkward(subject, 'Interrupted'))], () => {
        // The graph update went through; now the server hangs and the act fails.
        server.signal('SIGSTOP');
        throw new Error('crashed between the two stores');
      }),
    ).rejects.toThrow('crashed between the two stores');
    server.signal('SIGCONT');
    const journal = () =>
      (core.db.prepare('SELECT count(*) AS n FROM external_intent').get() as { n: number }).n;
    expect(journal()).toBe(1);
    const next = 'http://registry.test/software/after';
    await core.graph.commit([write(next, awkward(next, 'After'))], () => undefined);
    expect(journal()).toBe(0);
    expect(await onServer(subject)).toBe(0);
    expect(await core.graph.readRecord(GRAPHS.local, next)).toContain('"After"');
  });

  it('write a bulk load’s new records while the server takes their lines, and forget them when it does not', async () => {
    const store = core.graph as ExternalGraphStore;
    const journal = () =>
      (core.db.prepare('SELECT count(*) AS n FROM external_intent').get() as { n: number }).n;
    const rows = (table: string, column: string, iri: string) =>
      (core.db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`).get(iri) as { n: number }).n;
    const loaded = 'http://registry.test/software/loaded';
    await store.commitLoaded([write(loaded, awkward(loaded, 'Loaded'))]);
    expect(journal()).toBe(0);
    expect(await core.graph.readRecord(GRAPHS.local, loaded)).toContain('"Loaded"');
    expect(await onServer(loaded)).toBe(10);
    expect(rows('search_entry', 'iri', loaded)).toBe(1);
    expect(rows('lineage_node', 'record', loaded)).toBeGreaterThan(0);

    const lost = 'http://registry.test/software/lost-in-load';
    server.signal('SIGSTOP');
    try {
      await expect(store.commitLoaded([write(lost, awkward(lost, 'Lost'))])).rejects.toThrow();
      // Its rows were written while the server should have taken the lines; the journalled undo names them.
      expect(journal()).toBe(1);
      expect(rows('external_record', 'subject', lost)).toBe(1);
    } finally {
      server.signal('SIGCONT');
    }
    // The server may still take the post it had received when it stopped; the undo takes the lines back anyway.
    for (let tries = 0; tries < 20 && (await onServer(lost)) === 0; tries++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const next = 'http://registry.test/software/after-load';
    await core.graph.commit([write(next, awkward(next, 'After'))], () => undefined);
    expect(journal()).toBe(0);
    expect(await core.graph.readRecord(GRAPHS.local, lost)).toBeUndefined();
    expect(await onServer(lost)).toBe(0);
    for (const [table, column] of [
      ['external_record', 'subject'],
      ['external_subject', 'record'],
      ['search_entry', 'iri'],
      ['lineage_node', 'record'],
      ['lineage_link', 'record'],
    ] as const)
      expect(rows(table, column, lost)).toBe(0);
  });

  it('refuse SPARQL updates on /sparql before anything is sent', async () => {
    const app = createApp(core);
    const before = { ...sent(core) };
    for (const update of [
      'INSERT DATA { GRAPH <urn:x> { <urn:a> <urn:b> <urn:c> } }',
      'DROP ALL',
      'PREFIX x: <urn:x#> CLEAR GRAPH <urn:reg:local>',
    ]) {
      const bodies: [string, string][] = [
        ['application/sparql-update', update],
        ['application/sparql-query', update],
        ['application/x-www-form-urlencoded', new URLSearchParams({ update }).toString()],
        ['application/x-www-form-urlencoded', new URLSearchParams({ query: update }).toString()],
      ];
      for (const [type, body] of bodies) {
        const response = await app.request('/sparql', {
          method: 'POST',
          headers: { 'content-type': type },
          body,
        });
        expect(response.status, `${type} ${body}`).toBe(403);
      }
      const get = await app.request(`/sparql?query=${encodeURIComponent(update)}`);
      expect(get.status).toBe(403);
    }
    expect(sent(core)).toEqual(before);
  });
});
