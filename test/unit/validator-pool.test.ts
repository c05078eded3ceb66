import { describe, expect, it } from 'vitest';
import { GRAPHS } from '../../src/core/ns.js';
import { recordToQuads } from '../../src/core/records/mapper.js';
import { SOFTWARE } from '../../src/core/records/specs.js';
import { createValidator } from '../../src/core/validate/index.js';
import { ValidatorPool } from '../../src/core/validate/validator-pool.js';
import { buildBundles } from '../../src/core/vocab/bundles.js';

describe('validation in worker threads', () => {
  it('reports exactly what the in-thread validator reports', async () => {
    const shapes = buildBundles('http://registry.test').find(
      (bundle) => bundle.graph === GRAPHS.shapes,
    )!.ntriples;
    const mapped = recordToQuads(
      SOFTWARE,
      'http://registry.test/software/x',
      { kinds: ['spaceship'], api_docs: [{ format: 'nonsense' }], publisher: { kind: 'person' } },
      GRAPHS.local,
      true,
    );
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
});
