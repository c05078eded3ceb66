import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { VIRTUOSO_BIN } from '../test/support/virtuoso.js';

/** What to run. */
export interface Options {
  /** Dataset sizes in quads, ascending. */
  readonly sizes: readonly number[];
  /** Repetitions of each start-up measurement; the median is reported. */
  readonly runs: number;
  /** Which parts to run. */
  readonly parts: readonly (
    'startup' | 'records' | 'openlineage' | 'search' | 'ui' | 'validation' | 'hostile' | 'ratelimit'
  )[];
  /** Seconds of load per throughput figure. */
  readonly seconds: number;
  /** Size of the store the lineage figure is measured on. */
  readonly lineageQuads: number;
  /** Records in the store the search figures are measured on. */
  readonly searchRecords: number;
  /** Quads in the store the hostile-client figures are measured on. */
  readonly hostileQuads: number;
  /** The graph stores measured, side by side: embedded, and/or an external SPARQL store (a local Virtuoso). */
  readonly graphs: readonly ('embedded' | 'sparql')[];
}

/** Every part; all of them run by default. */
const PARTS: Options['parts'] = [
  'startup',
  'records',
  'openlineage',
  'search',
  'ui',
  'validation',
  'hostile',
  'ratelimit',
];

/** A bad command line: reported with the usage, without a stack trace. */
export class UsageError extends Error {}

export const USAGE = `usage: npm run bench [-- --sizes 10k,100k,1M] [--runs 3] [--parts startup,records,openlineage,search,ui,validation,hostile,ratelimit] [--seconds 5]
  --sizes    dataset sizes in quads (k = thousand, M = million); default 10k,100k,1M
  --runs     repetitions of each start-up measurement, median reported; default 3
  --parts    startup (start-up, restore, dump by size), records (record API reads and writes) and/or
             openlineage (OpenLineage RunEvents per second, single and 50 per request, against native
             advertising; lineage paged with max_nodes and a time budget through 10,001 nodes) and/or search
             (search and matchmaking latency) and/or ui (the web page's weight and load time on a slow link,
             in Debian's chromium) and/or validation (validation time by list length, and a small validation
             beside a large one) and/or hostile (ordinary clients' latency beside an expensive anonymous SPARQL
             loop and advertisements near the payload limit, against a quiet run) and/or ratelimit
             (advertising throughput with the rate limiter on, as a ratio to it switched off); default all eight
  --seconds  seconds of load per throughput figure; default 5
  --lineage-size  store size for the lineage figure; default 1M
  --search-size   records in the store for the search figures; default 100k
  --hostile-size  quads in the store for the hostile-client figures; default 10k
  --graph    embedded, sparql (a local Virtuoso per data directory) or both; default both when virtuoso-t is
             installed, else embedded`;

/** Parses `--sizes` and `--runs`; null for `--help`; throws with the usage on anything else. */
export function parseOptions(argv: readonly string[]): Options | null {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      sizes: { type: 'string', default: '10k,100k,1M' },
      runs: { type: 'string', default: '3' },
      parts: { type: 'string', default: PARTS.join(',') },
      seconds: { type: 'string', default: '5' },
      'lineage-size': { type: 'string', default: '1M' },
      'search-size': { type: 'string', default: '100k' },
      'hostile-size': { type: 'string', default: '10k' },
      graph: { type: 'string', default: defaultGraph() },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help === true) return null;
  const sizes = values.sizes.split(',').map(parseSize);
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1)
    throw new UsageError(`--runs must be a positive integer\n${USAGE}`);
  const parts = values.parts.split(',').map((part) => part.trim());
  for (const part of parts) {
    if (!(PARTS as readonly string[]).includes(part))
      throw new UsageError(`unknown part "${part}"\n${USAGE}`);
  }
  const seconds = Number(values.seconds);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new UsageError(`--seconds must be a positive number\n${USAGE}`);
  return {
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    runs,
    parts: parts as Options['parts'][number][],
    seconds,
    lineageQuads: parseSize(values['lineage-size']),
    searchRecords: parseSize(values['search-size']),
    hostileQuads: parseSize(values['hostile-size']),
    graphs: parseGraph(values.graph),
  };
}

function defaultGraph(): string {
  return fs.existsSync(VIRTUOSO_BIN) ? 'both' : 'embedded';
}

function parseGraph(text: string): ('embedded' | 'sparql')[] {
  if (text === 'both') return ['embedded', 'sparql'];
  if (text === 'embedded' || text === 'sparql') return [text];
  throw new UsageError(`--graph must be embedded, sparql or both, got "${text}"\n${USAGE}`);
}

/** Parses `10k`, `1M`, `250000` into a number of quads. */
export function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(text.trim());
  if (match === null) throw new UsageError(`bad size "${text}"\n${USAGE}`);
  const unit = match[2]?.toLowerCase() === 'k' ? 1e3 : match[2]?.toLowerCase() === 'm' ? 1e6 : 1;
  const quads = Math.round(Number(match[1]) * unit);
  if (quads < 10) throw new UsageError(`size "${text}" is too small: a record has 10 quads`);
  return quads;
}

/** `10k`, `1M`: a size as it was asked for. */
export function sizeLabel(quads: number): string {
  if (quads >= 1e6 && quads % 1e6 === 0) return `${quads / 1e6}M`;
  if (quads >= 1e3 && quads % 1e3 === 0) return `${quads / 1e3}k`;
  return String(quads);
}
