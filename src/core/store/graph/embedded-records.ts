/**
 * The embedded store's records as they sit in `registry.db`, read without starting its query index: what a move
 * of the graph to an external store takes from the data directory, whichever store the registry is now set to.
 */
import fs from 'node:fs';
import type { Database } from '../database.js';
import { markedRecord } from '../nquads.js';
import { countRecordsByKind, iterateRecords, recordTotalsByGraph } from './embedded/record-table.js';

/** One graph of the embedded store: its records and quads, and its records of each kind. */
export interface EmbeddedGraphCounts {
  readonly records: number;
  readonly quads: number;
  readonly kinds: ReadonlyMap<string, number>;
}

/** The embedded store's records, by graph. */
export function embeddedRecordCounts(db: Database): Map<string, EmbeddedGraphCounts> {
  return new Map(
    [...recordTotalsByGraph(db)].map(([graph, totals]) => [
      graph,
      { ...totals, kinds: countRecordsByKind(db, graph) },
    ]),
  );
}

/**
 * Writes every embedded record to `file` as N-Quads, each after its record marker (as `reg dump` writes them), so
 * a restore rebuilds exactly these records; those of the `skip` graphs are left out. Resolves with the records
 * written.
 */
export async function writeEmbeddedRecords(
  db: Database,
  file: string,
  skip: ReadonlySet<string> = new Set(),
): Promise<number> {
  const out = fs.createWriteStream(file, { encoding: 'utf8' });
  let records = 0;
  try {
    for (const row of iterateRecords(db)) {
      if (skip.has(row.graph)) continue;
      records++;
      if (!out.write(markedRecord(row.graph, row.subject, row.nquads)))
        await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  } finally {
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
  return records;
}
