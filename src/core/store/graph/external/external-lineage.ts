/**
 * Filling the lineage index from the external store (a data directory from before it, or one that moved here
 * from the embedded store): the records are listed from the subject table in order and read from the server a
 * batch at a time; a record written while its batch was read keeps what its own commit indexed.
 */
import type { Database } from '../../database.js';
import {
  refillLineageIndex,
  type RefillOptions,
  type RefillPosition,
  type RefillRecord,
} from '../../lineage/lineage-index.js';
import { linesOf } from '../../nquads.js';
import { groupBy } from './external-commit.js';
import { iterateExternalRecords, readExternalRecord, type ExternalRecord } from './external-table.js';

/** Records listed per batch; their reads are grouped by graph within the store's quad budget. */
const BATCH = 200;

/** Fills the lineage index; `read` reads records of one graph as the store does. */
export function refillExternalLineage(
  db: Database,
  read: (graph: string, subjects: readonly string[]) => Promise<Map<string, string>>,
  options: Omit<RefillOptions, 'size'>,
): Promise<void> {
  const readBatch = async (after: RefillPosition, size: number): Promise<RefillRecord[]> => {
    const listed: ExternalRecord[] = [];
    for (const record of iterateExternalRecords(db, { after: [after.graph, after.subject], batch: size })) {
      listed.push(record);
      if (listed.length >= size) break;
    }
    const out: RefillRecord[] = [];
    for (const [graph, records] of groupBy(listed, (record) => record.graph)) {
      // A reference bundle's catalogue entry is no record of lineage; it is passed over unread.
      const wanted = records.filter((record) => record.kind !== 'bundle').map((record) => record.subject);
      const texts = wanted.length === 0 ? new Map<string, string>() : await read(graph, wanted);
      for (const record of records)
        out.push({
          graph,
          subject: record.subject,
          lines: linesOf(texts.get(record.subject) ?? ''),
          current: () => readExternalRecord(db, graph, record.subject)?.version === record.version,
        });
    }
    return out;
  };
  return refillLineageIndex(db, readBatch, { ...options, size: BATCH });
}
