import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { GRAPHS } from '../../src/core/ns.js';
import { recordToQuads, type JsonObject } from '../../src/core/records/mapper.js';
import { SOFTWARE } from '../../src/core/records/specs.js';
import { createValidator } from '../../src/core/validate/index.js';
import { ValidatorPool } from '../../src/core/validate/validator-pool.js';
import { buildBundles } from '../../src/core/vocab/bundles.js';

/** The registry's shapes graph, as the pool's workers receive it. */
const shapes = buildBundles('http://registry.test').find(
  (bundle) => bundle.graph === GRAPHS.shapes,
)!.ntriples;

/** A software record's quads and node locations, as the write path maps them. */
const software = (id: string, candidate: JsonObject) =>
  recordToQuads(SOFTWARE, `http://registry.test/software/${id}`, candidate, GRAPHS.local, true);

describe('validation in worker threads', () => {
  it('reports exactly what the in-thread validator reports', async () => {
    const mapped = software('x', {
      kinds: ['spaceship'],
      api_docs: [{ format: 'nonsense' }],
      publisher: { kind: 'person' },
    });
    const pool = new ValidatorPool(shapes, 2);
    try {
      const [inWorker, again] = await Promise.all([
        pool.validate(mapped.quads, { locate: mapped.locate }),
        pool.validate(mapped.quads, { locate: mapped.locate }),
      ]);
      const inThread = await createValidator(shapes).validate(mapped.quads, { locate: mapped.locate });
      expect(inWorker).toEqual(inThread);
      expect(again).toEqual(inThread);
      expect(inThread.conforms).toBe(false);
      expect(inThread.results.map((result) => result.field)).toContain('api_docs[0].format');
    } finally {
      await pool.close();
    }
  });

  it('sends the calls of one turn together and answers each on its own', async () => {
    const good = software('a', { name: 'A' });
    const bad = software('b', { kinds: ['spaceship'] });
    // A variable is no N-Quads term: the worker cannot read this group, and only this group fails.
    const unreadable = [
      DataFactory.quad(
        DataFactory.namedNode('http://registry.test/software/c'),
        DataFactory.namedNode('http://schema.org/name'),
        DataFactory.variable('x'),
      ),
    ];
    const pool = new ValidatorPool(shapes, 1);
    try {
      const outcomes = await Promise.allSettled([
        pool.validate(good.quads, { locate: good.locate }),
        pool.validate(unreadable),
        pool.validateMany([
          { quads: bad.quads, options: { locate: bad.locate } },
          { quads: good.quads, options: { locate: good.locate } },
        ]),
      ]);
      const [first, second, third] = outcomes;
      expect(first.status === 'fulfilled' && first.value.conforms).toBe(true);
      expect(second.status).toBe('rejected');
      expect(third.status).toBe('fulfilled');
      const reports = third.status === 'fulfilled' ? third.value : [];
      expect(reports.map((report) => report.conforms)).toEqual([false, true]);
      expect(reports[0]?.results.map((result) => result.field)).toContain('kinds');
    } finally {
      await pool.close();
    }
  });

  it('rejects calls still waiting when the pool closes', async () => {
    const pool = new ValidatorPool(shapes, 1);
    const mapped = software('a', { name: 'A' });
    await pool.validate(mapped.quads);
    const pending = expect(pool.validate(mapped.quads)).rejects.toThrow('closed');
    await pool.close();
    await pending;
  });
});
