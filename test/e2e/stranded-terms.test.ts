/**
 * Records restored with vocabulary terms the registry does not hold: `reg serve` names each record and term
 * once in its start-up log, counts them where operators look, changes nothing, and an edit is still refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRAPHS } from '../../src/core/ns.js';
import { prepareReferenceData } from '../../src/core/discovery/reference-data.js';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers.js';

const BASE = 'http://registry.test';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const REG = 'https://w3id.org/reg/ns#';
const DCT = 'http://purl.org/dc/terms/';
const GONE_TOPIC = 'http://example.org/vocab/topic-dropped-by-a-vocabulary-change';
const GONE_TYPE = 'http://example.org/vocab/type-nobody-holds';
const auth = { authorization: `Bearer ${ROOT_TOKEN}` };

const SOFTWARE = `${BASE}/software/0190a000-0000-7000-8000-000000000001`;
const TWICE = `${BASE}/software/0190a000-0000-7000-8000-000000000002`;
const ARTIFACT = `${BASE}/artifact/0190a000-0000-7000-8000-000000000003`;
const FINE = `${BASE}/artifact/0190a000-0000-7000-8000-000000000004`;
const MINTED = `${BASE}/type/held-here`;
const CACHED = 'http://peer.test/type/cached-from-a-peer';
const CACHED_BY = `${BASE}/artifact/0190a000-0000-7000-8000-000000000005`;

/** An N-Quads line in the local graph; objects starting with `"` are literals. */
const line = (s: string, p: string, o: string) =>
  `<${s}> <${p}> ${o.startsWith('"') ? o : `<${o}>`} <${GRAPHS.local}> .`;

/**
 * A dump of a few records: some cite terms nobody holds, the rest only held ones (bundled, minted here, or cached
 * from a peer).
 */
function dumpFile(stranded: boolean): string {
  const topic = prepareReferenceData(BASE).index.termsOfClass(`${REG}ResearchTopic`)[0]!.iri;
  const lines = [
    line(SOFTWARE, RDF_TYPE, `${REG}Software`),
    line(SOFTWARE, 'https://schema.org/name', '"kept as it was"'),
    line(SOFTWARE, `${DCT}subject`, topic),
    line(MINTED, RDF_TYPE, `${REG}ArtifactType`),
    line(MINTED, 'http://www.w3.org/2004/02/skos/core#prefLabel', '"Held here"'),
    line(FINE, RDF_TYPE, 'http://www.w3.org/ns/dcat#Dataset'),
    line(FINE, `${DCT}conformsTo`, MINTED),
    `<${CACHED}> <${RDF_TYPE}> <http://www.w3.org/2004/02/skos/core#Concept> <urn:reg:peer:peer.test> .`,
    line(CACHED_BY, RDF_TYPE, 'http://www.w3.org/ns/dcat#Dataset'),
    line(CACHED_BY, `${DCT}conformsTo`, CACHED),
  ];
  if (stranded) {
    lines.push(
      line(SOFTWARE, `${DCT}subject`, GONE_TOPIC),
      line(TWICE, RDF_TYPE, `${REG}Software`),
      line(TWICE, 'https://schema.org/name', '"cites one type in two fields"'),
      line(TWICE, `${REG}hasCapability`, `${TWICE}#capability`),
      line(`${TWICE}#capability`, `${REG}produces`, GONE_TYPE),
      line(`${TWICE}#capability`, `${REG}consumes`, GONE_TYPE),
      line(ARTIFACT, RDF_TYPE, 'http://www.w3.org/ns/dcat#Dataset'),
      line(ARTIFACT, `${DCT}title`, '"typed by a term nobody holds"'),
      line(ARTIFACT, `${DCT}conformsTo`, GONE_TYPE),
    );
  }
  const file = path.join(tempDir(), 'dump.nq');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Restores the dump into a fresh registry and serves it until the start-up check has been counted. */
async function restoreAndServe(stranded: boolean): Promise<{ server: ServerProcess; summary: any }> {
  const env = testEnv();
  const restored = await runReg(['restore', '--nquads', dumpFile(stranded)], env);
  expect(restored.code, restored.stderr).toBe(0);
  if (stranded) {
    // The restore itself reports what it kept that an edit would refuse, naming the record.
    expect(restored.stderr).toMatch(/restored records fail today's shapes or vocabulary; they were kept/);
    expect(restored.stderr).toContain(SOFTWARE);
  }
  const server = await startServe(env);
  let summary: any;
  await waitFor(async () => {
    summary = await (await fetch(`${server.url}/api/v1/registry`, { headers: auth })).json();
    return summary.stranded_citations !== null;
  });
  // The log lines come before the count on another pipe; let them arrive.
  await waitFor(() => citationWarnings(server).length >= summary.stranded_citations.citations);
  return { server, summary };
}

/** The start-up log's warnings about cited terms. */
function citationWarnings(server: ServerProcess): { record: string; field: string; term: string }[] {
  return server
    .logs()
    .split('\n')
    .filter((text) => text.startsWith('{'))
    .map((text) => JSON.parse(text) as { level: string; msg: string; record?: string; term?: string })
    .filter((entry) => entry.level === 'warn' && entry.term !== undefined)
    .map((entry) => {
      const { record, field, term } = entry as unknown as { record: string; field: string; term: string };
      return { record, field, term };
    });
}

describe('records citing terms the registry does not hold', () => {
  it('are named once per record and term at start, counted, kept, and refused on their next edit', async () => {
    const { server, summary } = await restoreAndServe(true);
    try {
      const named = citationWarnings(server);
      expect(named).toHaveLength(3);
      expect(named).toEqual(
        expect.arrayContaining([
          { record: SOFTWARE, field: 'topics', term: GONE_TOPIC },
          { record: TWICE, field: 'capability.produces, capability.consumes', term: GONE_TYPE },
          { record: ARTIFACT, field: 'conforms_to', term: GONE_TYPE },
        ]),
      );
      expect(summary.stranded_citations).toMatchObject({ records: 3, citations: 3 });
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toMatch(/^reg_stranded_records 3$/m);

      // Nothing was deleted, and an edit of another field is refused naming the stranded term.
      const read = await fetch(`${server.url}/api/v1/software/${SOFTWARE.split('/').pop()!}`, {
        headers: auth,
      });
      expect(((await read.json()) as { name: string }).name).toBe('kept as it was');
      const edit = await fetch(`${server.url}/api/v1/software/${SOFTWARE.split('/').pop()!}`, {
        method: 'PATCH',
        headers: { ...auth, 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ description: 'an edit of another field' }),
      });
      const refusal = (await edit.json()) as { errors?: { field: string; message: string }[] };
      expect(edit.status, JSON.stringify(refusal)).toBe(422);
      expect(refusal.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'topics', message: expect.stringContaining(GONE_TOPIC) }),
        ]),
      );
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('are not reported on a registry whose records cite only terms it holds', async () => {
    const { server, summary } = await restoreAndServe(false);
    try {
      expect(citationWarnings(server)).toEqual([]);
      expect(summary.stranded_citations).toMatchObject({ records: 0, citations: 0 });
      expect(await (await fetch(`${server.url}/metrics`)).text()).toMatch(/^reg_stranded_records 0$/m);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
