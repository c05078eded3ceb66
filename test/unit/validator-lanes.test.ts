import { describe, expect, it } from 'vitest';
import { DataFactory } from 'n3';
import { GRAPHS } from '../../src/core/ns.js';
import { ARTIFACT } from '../../src/core/records/activity-specs.js';
import { recordToQuads, type JsonObject } from '../../src/core/records/mapper.js';
import { SmallDataset } from '../../src/core/validate/small-dataset.js';
import { LARGE_GROUP_CHARS, ValidatorPool } from '../../src/core/validate/validator-pool.js';
import { canonicalTextOf } from '../../src/core/store/nquads.js';
import { buildBundles } from '../../src/core/vocab/bundles.js';

const shapes = buildBundles('http://registry.test').find(
  (bundle) => bundle.graph === GRAPHS.shapes,
)!.ntriples;

/** An artifact record as the write path maps it (no list limit: these records are validated, not written). */
const artifact = (id: string, extra: JsonObject = {}) =>
  recordToQuads(
    ARTIFACT,
    `http://registry.test/artifact/${id}`,
    {
      title: id,
      conforms_to: 'http://edamontology.org/data_0006',
      attributed_to: ['urn:reg:root'],
      ...extra,
    },
    GRAPHS.local,
    true,
  );

describe('validation lanes of the worker pool', () => {
  it('answers an ordinary validation while a large one is still being validated', async () => {
    const sources = Array.from({ length: 8000 }, (_, at) => `https://data.example.org/source/${at}`);
    const large = Array.from({ length: 6 }, (_, at) =>
      artifact(`large-${at}`, { was_derived_from: sources }),
    );
    expect(large.reduce((sum, record) => sum + canonicalTextOf(record.quads).length, 0)).toBeGreaterThan(
      LARGE_GROUP_CHARS,
    );
    const small = artifact('small');
    const pool = new ValidatorPool(shapes, 1);
    try {
      await pool.validate(small.quads);
      let largeDone = false;
      const largeReports = pool
        .validateMany(large.map((record) => ({ quads: record.quads, options: { locate: record.locate } })))
        .finally(() => (largeDone = true));
      // A later request, as one arriving while the large validation runs.
      await new Promise((resolve) => setImmediate(resolve));
      const report = await pool.validate(small.quads, { locate: small.locate });
      expect(report.conforms).toBe(true);
      expect(largeDone).toBe(false);
      expect((await largeReports).map((one) => one.conforms)).toEqual(large.map(() => true));
    } finally {
      await pool.close();
    }
  });
});

describe('the dataset of one record', () => {
  const { namedNode, literal, quad, blankNode, variable } = DataFactory;
  const s = namedNode('http://a.test/s');
  const p = namedNode('http://a.test/p');
  const q = namedNode('http://a.test/q');

  it('keeps each quad once and finds it by subject and predicate', () => {
    const data = new SmallDataset([
      quad(s, p, literal('a')),
      quad(s, p, literal('a')),
      quad(s, p, literal('a', 'en')),
      quad(s, q, namedNode('http://a.test/o')),
    ]);
    expect(data.size).toBe(3);
    expect(data.objectsOf(s, p).map((term) => term.value)).toEqual(['a', 'a']);
    expect(data.match(s, q).size).toBe(1);
    expect(data.match(null, null, literal('a', 'en')).size).toBe(1);
    expect(data.has(quad(s, p, literal('a', 'de')))).toBe(false);
    data.delete(quad(s, p, literal('a')));
    expect(data.objectsOf(s, p).map((term) => (term as ReturnType<typeof literal>).language)).toEqual(['en']);
    expect([...data]).toHaveLength(2);
  });

  it('tells apart terms whose text could be read as another term', () => {
    // A literal whose text holds what would follow it in a key made by joining strings.
    const tricky = literal('x"@^^http://a.test/dt', namedNode('http://a.test/dt2'));
    const plain = literal('x', namedNode('http://a.test/dt"@^^http://a.test/dt2'));
    const data = new SmallDataset([
      quad(s, p, tricky),
      quad(s, p, plain),
      quad(s, p, namedNode('http://a.test/x')),
    ]);
    expect(data.size).toBe(3);
    expect(data.has(quad(s, p, literal('http://a.test/x')))).toBe(false);
  });

  it('tells apart a named subject from a blank node of the same label, and one statement in two graphs', () => {
    const blank = blankNode('http://a.test/s');
    const g = namedNode('http://a.test/g');
    const data = new SmallDataset([
      quad(s, p, literal('a')),
      quad(blank, p, literal('b')),
      quad(s, p, literal('a'), g),
      quad(s, p, literal('a'), g),
    ]);
    expect(data.size).toBe(3);
    expect(data.objectsOf(blank, p).map((term) => term.value)).toEqual(['b']);
    expect(data.objectsOf(s, p).map((term) => term.value)).toEqual(['a', 'a']);
    expect(data.match(null, null, null, g).size).toBe(1);
    data.delete(quad(s, p, literal('a')));
    expect(data.has(quad(s, p, literal('a')))).toBe(false);
    expect(data.has(quad(s, p, literal('a'), g))).toBe(true);
    expect([...data].map((q) => q.object.value)).toEqual(['b', 'a']);

    // A variable predicate with a named object in the default graph, and the named predicate of the same text
    // with a variable object in a graph named like that object: two quads.
    const odd = new SmallDataset([
      quad(s, variable('x'), namedNode('http://a.test/o')),
      quad(s, namedNode('x'), variable('x'), namedNode('http://a.test/o')),
    ]);
    expect(odd.size).toBe(2);
  });
});
