import { GRAPHS } from '../src/core/ns.js';
import { ARTIFACT } from '../src/core/records/activity-specs.js';
import { recordToQuads, type JsonObject } from '../src/core/records/mapper.js';
import { createValidator } from '../src/core/validate/index.js';
import { ValidatorPool } from '../src/core/validate/validator-pool.js';
import { buildBundles } from '../src/core/vocab/bundles.js';
import { note } from './progress.js';
import { median, timed } from './stats.js';

/*
 * How validation time grows with the length of a list field, and whether a large validation delays small ones.
 * Run alone with `tsx bench/validation-bench.ts`, or as the `validation` part of `npm run bench`. Records are
 * mapped without the list limit (REG_MAX_LIST_ITEMS), which would refuse the longer ones before validation.
 */

/** List lengths measured; the ratios are to the first. */
const LENGTHS = [1000, 4000, 8000] as const;
const RUNS = 5;
const BASE = 'http://registry.test';

/** Validation of one record with a list of `items` values, beside an ordinary record (the baseline). */
export interface ListFigure {
  readonly field: string;
  readonly items: number;
  readonly ms: number;
  /** ms / ms at the first length, against items / items at the first length (linear: the two agree). */
  readonly ratio: number;
  readonly itemsRatio: number;
}

/** Everything the validation part measures. */
export interface ValidationResult {
  /** Median validation of an artifact with no lists: the floor of every figure. */
  readonly baselineMs: number;
  readonly lists: ListFigure[];
  /** A small validation through the worker pool, alone and while a large one runs in it. */
  readonly smallAloneMs: number;
  readonly smallBesideLargeMs: number;
  readonly largeMs: number;
}

function artifact(id: string, extra: JsonObject): ReturnType<typeof recordToQuads> {
  const candidate: JsonObject = {
    title: `artifact ${id}`,
    conforms_to: 'http://edamontology.org/data_0006',
    attributed_to: ['urn:reg:root'],
    distributions: [{ download_url: `https://data.example.org/${id}.ttl`, availability: 'public' }],
    ...extra,
  };
  return recordToQuads(ARTIFACT, `${BASE}/artifact/${id}`, candidate, GRAPHS.local, true);
}

const listOf = (field: string, items: number): JsonObject => ({
  [field]: Array.from({ length: items }, (_, at) =>
    field === 'keywords' ? `keyword ${at}` : `https://data.example.org/source/${at}`,
  ),
});

/** Measures validation by list length (in this thread), then a small validation beside a large one (workers). */
export async function benchValidation(): Promise<ValidationResult> {
  const shapes = buildBundles(BASE).find((bundle) => bundle.graph === GRAPHS.shapes)?.ntriples ?? '';
  const validator = createValidator(shapes);
  const medianOf = async (mapped: ReturnType<typeof artifact>): Promise<number> => {
    await validator.validate(mapped.quads, { locate: mapped.locate });
    const samples: number[] = [];
    for (let run = 0; run < RUNS; run++)
      samples.push((await timed(() => validator.validate(mapped.quads, { locate: mapped.locate }))).ms);
    return median(samples);
  };
  const baselineMs = await medianOf(artifact('plain', {}));
  const lists: ListFigure[] = [];
  for (const field of ['keywords', 'was_derived_from']) {
    let first: number | undefined;
    for (const items of LENGTHS) {
      note(`validation of ${items} ${field}`);
      const ms = await medianOf(artifact(`${field}-${items}`, listOf(field, items)));
      first ??= ms;
      lists.push({ field, items, ms, ratio: ms / first, itemsRatio: items / LENGTHS[0] });
    }
  }
  return { baselineMs, lists, ...(await besideLarge(shapes)) };
}

/** A small validation's latency in the pool, alone and while several large records are validated. */
async function besideLarge(
  shapes: string,
): Promise<Pick<ValidationResult, 'smallAloneMs' | 'smallBesideLargeMs' | 'largeMs'>> {
  const pool = new ValidatorPool(shapes, 1);
  try {
    const small = artifact('small', {});
    const large = Array.from({ length: 8 }, (_, at) =>
      artifact(`large-${at}`, listOf('was_derived_from', 8000)),
    );
    const validateSmall = () => pool.validate(small.quads, { locate: small.locate });
    await validateSmall();
    await pool.validateMany(large.slice(0, 1).map((record) => ({ quads: record.quads })));
    const smallAloneMs = (await timed(validateSmall)).ms;
    const started = performance.now();
    const largeDone = pool.validateMany(large.map((record) => ({ quads: record.quads })));
    // Sent a turn later, as a request arriving while the large validation runs.
    await new Promise((resolve) => setImmediate(resolve));
    const smallBesideLargeMs = (await timed(validateSmall)).ms;
    await largeDone;
    return { smallAloneMs, smallBesideLargeMs, largeMs: performance.now() - started };
  } finally {
    await pool.close();
  }
}

/** The figures as a table. */
export function renderValidation(result: ValidationResult): string {
  const rows = result.lists.map(
    (figure) =>
      `  ${figure.field.padEnd(18)} ${String(figure.items).padStart(6)} items  ${figure.ms.toFixed(1).padStart(8)} ms` +
      `  x${figure.ratio.toFixed(1)} for x${figure.itemsRatio} items (linear: equal; quadratic: x${figure.itemsRatio ** 2})`,
  );
  return [
    'Validation by list length (in-thread shacl validation of one artifact record)',
    `  baseline: an artifact without lists  ${result.baselineMs.toFixed(2)} ms`,
    ...rows,
    'A small validation in the worker pool',
    `  alone ${result.smallAloneMs.toFixed(1)} ms; while 8 records of 8,000 values are validated ` +
      `(${result.largeMs.toFixed(0)} ms): ${result.smallBesideLargeMs.toFixed(1)} ms`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchValidation().then(
    (result) => process.stdout.write(`${renderValidation(result)}\n`),
    (error: unknown) => {
      process.stderr.write(`bench: ${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
