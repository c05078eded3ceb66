import { parentPort } from 'node:worker_threads';
import ox from 'oxigraph';
import type { IndexEnvelope, IndexReply, IndexRequest } from './index-protocol.js';

/*
 * The oxigraph query index, alone in a worker thread: its calls are synchronous and a large load or scan would
 * otherwise stall HTTP. It holds no truth; the main thread rebuilds it from the stored records whenever it fails.
 */

const port = parentPort;
if (port === null) throw new Error('index-worker must run in a worker thread');
let store = new ox.Store();

// Everything the index loads was written by the registry as canonical N-Quads, so the parser may skip IRI
// validation (lenient), and bulk loads skip the per-call transaction: a failed load is followed by a rebuild
// anyway. Together these load about a third faster.
const BULK = { lenient: true, no_transaction: true } as const;

function handle(request: IndexRequest): unknown {
  switch (request.op) {
    case 'load':
      store.load(request.nquads, { format: 'application/n-quads', ...BULK });
      return null;
    case 'loadGraph':
      store.load(request.ntriples, {
        format: 'application/n-triples',
        to_graph_name: ox.namedNode(request.graph),
        ...BULK,
      });
      return null;
    case 'replace':
      if (request.remove.length > 0) {
        for (const quad of ox.parse(request.remove, { format: 'application/n-quads' })) store.delete(quad);
      }
      if (request.add.length > 0) store.load(request.add, { format: 'application/n-quads', lenient: true });
      return null;
    case 'query':
      return store.query(request.query, {
        results_format: request.format === 'json' ? 'application/sparql-results+json' : 'text/turtle',
        use_default_graph_as_union: request.union,
      });
    case 'size':
      return store.size;
    case 'clear':
      store = new ox.Store();
      return null;
  }
}

port.on('message', (envelope: IndexEnvelope) => {
  let reply: IndexReply;
  try {
    reply = { id: envelope.id, ok: true, result: handle(envelope.request) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    reply = {
      id: envelope.id,
      ok: false,
      message,
      syntax: envelope.request.op === 'query' && /^error at \d+:\d+/.test(message),
    };
  }
  port.postMessage(reply);
});
port.postMessage({ id: 0, ok: true, result: 'ready' } satisfies IndexReply);
