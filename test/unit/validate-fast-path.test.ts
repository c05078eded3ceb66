import { DataFactory, Parser, type Quad } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { GRAPHS, XSD } from '../../src/core/ns.js';
import { recordToQuads } from '../../src/core/records/mapper.js';
import { ARTIFACT } from '../../src/core/records/activity-specs.js';
import { seedExample } from '../../src/core/ops/seed.js';
import { iterateRecords } from '../../src/core/store/graph/embedded/record-table.js';
import { createValidator, type RecordValidator } from '../../src/core/validate/index.js';
import { openTestCore } from '../helpers.js';

const { namedNode, literal, blankNode, quad } = DataFactory;

/** A small deterministic generator, so a failure names a case that can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;

/** Values a broken writer or a hostile payload could put where another belongs. */
const REPLACEMENTS = [
  literal(''),
  literal('x'),
  literal('not a date', namedNode(XSD('dateTime'))),
  literal('2026-01-31T12:00:00Z', namedNode(XSD('dateTime'))),
  literal('-1', namedNode(XSD('integer'))),
  literal('12', namedNode(XSD('integer'))),
  literal('true', namedNode(XSD('boolean'))),
  literal('metadata-only'),
  literal('success'),
  literal('sha256'),
  literal('hello', 'en'),
  namedNode('http://example.org/thing'),
  namedNode('http://edamontology.org/data_0006'),
  namedNode('https://w3id.org/reg/ns#Checksum'),
  blankNode('b0'),
];

/** One change to a record: drop a quad, add a second value, replace a value, or retype a node. */
function mutate(quads: readonly Quad[], next: () => number): Quad[] {
  if (quads.length === 0) return [];
  const out = [...quads];
  const at = Math.floor(next() * out.length);
  const target = out[at] as Quad;
  switch (Math.floor(next() * 4)) {
    case 0:
      out.splice(at, 1);
      break;
    case 1:
      out.push(quad(target.subject, target.predicate, pick(next, REPLACEMENTS), target.graph));
      break;
    case 2:
      out[at] = quad(target.subject, target.predicate, pick(next, REPLACEMENTS), target.graph);
      break;
    default: {
      // Give a node another node's type (or lose its own), which moves it between shapes' targets.
      const typed = out.filter((q) => q.predicate.value.endsWith('#type'));
      const retyped = pick(next, typed.length > 0 ? typed : out);
      const other = pick(next, typed.length > 0 ? typed : out).object;
      out[out.indexOf(retyped)] = quad(retyped.subject, retyped.predicate, other, retyped.graph);
    }
  }
  return out;
}

describe('the SHACL fast path', () => {
  let core: Core;
  let records: Quad[][];
  let fast: RecordValidator;
  let engine: RecordValidator;

  beforeAll(async () => {
    core = await openTestCore({}, true);
    await core.graph.open();
    // The shapes bundle the registry validates writes with.
    const shapes = core.reference.bundles.find((bundle) => bundle.graph === GRAPHS.shapes);
    if (shapes === undefined) throw new Error('no shapes bundle');
    fast = createValidator(shapes.ntriples);
    engine = createValidator(shapes.ntriples, { strategy: 'engine' });
    await seedExample(core);
    records = [...iterateRecords(core.db, { graph: GRAPHS.local })].map((row) =>
      new Parser({ format: 'N-Quads' }).parse(row.nquads),
    );
    // An artifact with every nested kind: distributions (checksum, availability), producers and a series.
    const full = recordToQuads(
      ARTIFACT,
      `${core.config.baseIri}/artifacts/full`,
      {
        title: 'full',
        conforms_to: 'http://edamontology.org/data_0006',
        attributed_to: [`${core.config.baseIri}/instances/x`],
        produced_by: [{ name: 'Ada', kind: 'person', identifier: 'https://orcid.org/0000-0002-1825-0097' }],
        distributions: [
          {
            download_url: 'https://example.org/a',
            checksum: { algorithm: 'sha256', value: 'ab'.repeat(32) },
          },
          { availability: 'metadata-only' },
        ],
        created: '2026-01-31T12:00:00Z',
      },
      GRAPHS.local,
      true,
    );
    records.push(full.quads as Quad[]);
  }, 120_000);

  afterAll(async () => {
    await core.close();
  });

  it('finds exactly what shacl-engine finds on every stored record of the worked example', async () => {
    expect(records.length).toBeGreaterThan(20);
    for (const record of records) {
      expect((await fast.validate(record)).results).toEqual((await engine.validate(record)).results);
    }
  });

  it('finds exactly what shacl-engine finds on 3,000 broken variants of them', async () => {
    const next = random(20261121);
    let broken = 0;
    for (let n = 0; n < 3000; n++) {
      let variant = pick(next, records);
      const changes = 1 + Math.floor(next() * 3);
      for (let c = 0; c < changes; c++) variant = mutate(variant, next);
      const expected = (await engine.validate(variant)).results;
      if (expected.length > 0) broken++;
      expect((await fast.validate(variant)).results, `case ${n}`).toEqual(expected);
    }
    // The mutations must actually break records, or the comparison proves nothing.
    expect(broken).toBeGreaterThan(1000);
  }, 120_000);
});
