/**
 * Dumping the external store: the reference bundles from the package (the catalogue's digests vouch that the
 * server holds the same), then the records, read from the server a batch at a time in the subject table's order,
 * never the whole graph at once.
 */
import type { Database } from '../../database.js';
import { markedRecord, toNQuads, toNTriples } from '../../nquads.js';
import type { ReadRecord } from './external-read.js';
import { iterateExternalRecords, type ExternalRecord } from './external-table.js';
import type { BundleGraph } from '../types.js';

/** Bytes of N-Quads per chunk a dump yields. */
const DUMP_CHUNK_BYTES = 1 << 20;
/** Records, and their quads, read per query while dumping. */
const DUMP_BATCH_RECORDS = 200;
const DUMP_BATCH_QUADS = 5000;

/**
 * The whole dataset as N-Quads with a record marker before each record, or one graph as N-Triples. `read` reads
 * records of one graph from the server.
 */
export async function* dumpExternal(
  db: Database,
  bundles: readonly BundleGraph[],
  read: (graph: string, records: readonly ExternalRecord[]) => Promise<Map<string, ReadRecord>>,
  options: { graph?: string },
): AsyncGenerator<string> {
  const graph = options.graph;
  for (const bundle of bundles) {
    if (graph === undefined) yield toNQuads(bundle.ntriples, bundle.graph);
    else if (graph === bundle.graph) yield bundle.ntriples;
  }
  let chunk: string[] = [];
  let size = 0;
  let batch: ExternalRecord[] = [];
  let quads = 0;
  const flush = async function* (): AsyncGenerator<string> {
    const first = batch[0];
    if (first === undefined) return;
    const texts = await read(first.graph, batch);
    for (const record of batch) {
      const text = texts.get(record.subject)?.text ?? '';
      // A full dump marks where each record starts, so a restore rebuilds exactly these records.
      chunk.push(
        graph === undefined
          ? markedRecord(record.graph, record.subject, text)
          : toNTriples(text, record.graph),
      );
      size += text.length;
      if (size >= DUMP_CHUNK_BYTES) {
        yield chunk.join('');
        chunk = [];
        size = 0;
      }
    }
    batch = [];
    quads = 0;
  };
  for (const record of iterateExternalRecords(db, graph === undefined ? {} : { graph })) {
    const first = batch[0];
    if (
      first !== undefined &&
      (first.graph !== record.graph ||
        batch.length >= DUMP_BATCH_RECORDS ||
        quads + record.quadCount > DUMP_BATCH_QUADS)
    ) {
      yield* flush();
    }
    batch.push(record);
    quads += record.quadCount;
  }
  yield* flush();
  if (chunk.length > 0) yield chunk.join('');
}
