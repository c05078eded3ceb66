/**
 * Refilling the search index from the external store when it was marked for a rebuild (its tables were missing):
 * the searchable records are read from the server a batch at a time, and each batch is indexed in one
 * transaction, so requests are served between batches and writes meanwhile keep their own rows current.
 */
import type { Logger } from '../../../log.js';
import { GRAPHS } from '../../../ns.js';
import type { Database } from '../../database.js';
import { parseNQuads } from '../../nquads.js';
import type { SearchReader } from '../../search-entry.js';
import { indexRecordsForSearch } from '../../search-index.js';
import { readExternalRecords } from './external-read.js';
import { iterateExternalRecords, type ExternalRecord } from './external-table.js';
import type { SparqlClient } from './sparql-client.js';

const BATCH = 200;

/** Rebuilds the search index from the records on the server; `stopped` ends it early (it resumes next open). */
export async function rebuildExternalSearch(
  db: Database,
  client: SparqlClient,
  search: SearchReader,
  log: Logger,
  stopped: () => boolean,
): Promise<void> {
  const started = Date.now();
  const kinds = search.kinds;
  let batch: ExternalRecord[] = [];
  let records = 0;
  const index = async (): Promise<void> => {
    const read = await readExternalRecords(client, GRAPHS.local, batch);
    db.transaction(() =>
      indexRecordsForSearch(
        db,
        search,
        batch.map((record) => ({ ...record, quads: parseNQuads(read.get(record.subject)?.text ?? '') })),
      ),
    );
    records += batch.length;
    batch = [];
  };
  try {
    for (const record of iterateExternalRecords(db, { graph: GRAPHS.local })) {
      if (stopped()) return;
      if (!kinds.includes(record.kind ?? '')) continue;
      batch.push(record);
      if (batch.length >= BATCH) await index();
    }
    if (batch.length > 0) await index();
    if (stopped()) return;
    // The rebuild marker of the search index: every searchable record is indexed again.
    db.transaction(() => db.prepare('DELETE FROM search_rebuild').run());
    log.info('search index rebuilt from the external graph store', { records, ms: Date.now() - started });
  } catch (error) {
    log.error('search index rebuild failed', { detail: (error as Error).message });
  }
}
