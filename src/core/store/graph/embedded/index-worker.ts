import fs from 'node:fs';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import ox from 'oxigraph';
import type { IndexEnvelope, IndexFailure, IndexReply, IndexRequest } from './index-protocol.js';

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

/** An answer with more solutions than the request allows. */
class TooManyRows extends Error {}

/** Whether a JSON results document holds more than `max` solutions (each takes at least 3 characters). */
function overRows(body: string, max: number): boolean {
  if (body.length < 3 * max) return false;
  const parsed = JSON.parse(body) as { results?: { bindings?: unknown[] } };
  return (parsed.results?.bindings?.length ?? 0) > max;
}

function runQuery(request: IndexRequest & { op: 'query' }): string {
  const { dataset } = request;
  const body = store.query(request.query, {
    results_format: request.format === 'json' ? 'application/sparql-results+json' : 'text/turtle',
    ...(dataset === undefined
      ? { use_default_graph_as_union: request.union }
      : {
          default_graph: dataset.defaultGraphs.map((iri) => ox.namedNode(iri)),
          named_graphs: dataset.namedGraphs.map((iri) => ox.namedNode(iri)),
        }),
  }) as string;
  if (request.maxRows !== undefined && request.format === 'json' && overRows(body, request.maxRows))
    throw new TooManyRows(`more than ${request.maxRows} solutions`);
  return body;
}

/**
 * Lowers this thread's priority: on Linux a thread is a task with a nice value of its own, set through its
 * thread id. Whether it worked is the answer; nowhere else does it matter enough to fail over.
 */
function lowerPriority(value: number): boolean {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    os.setPriority(tid, value);
    return true;
  } catch {
    return false;
  }
}

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
      return runQuery(request);
    case 'size':
      return store.size;
    case 'nice':
      return lowerPriority(request.value);
    case 'clear':
      store = new ox.Store();
      return null;
  }
}

/**
 * What kind of failure `error` is. A WebAssembly trap ("memory access out of bounds" when a deeply nested query
 * exhausts the engine's stack) or a JavaScript stack overflow leaves the engine's memory in an unknown state:
 * such a failure is fatal, and the worker is replaced rather than asked anything again.
 */
function failureOf(request: IndexRequest, error: unknown, message: string): IndexFailure {
  // WebAssembly.RuntimeError, known by name: Node's types declare WebAssembly as a namespace only.
  if (error instanceof RangeError || (error instanceof Error && error.name === 'RuntimeError'))
    return 'fatal';
  if (error instanceof TooManyRows) return 'rows';
  if (request.op === 'query' && /^error at \d+:\d+/.test(message)) return 'syntax';
  return 'other';
}

port.on('message', (envelope: IndexEnvelope) => {
  let reply: IndexReply;
  try {
    reply = { id: envelope.id, ok: true, result: handle(envelope.request) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    reply = { id: envelope.id, ok: false, message, failure: failureOf(envelope.request, error, message) };
  }
  port.postMessage(reply);
});
port.postMessage({ id: 0, ok: true, result: 'ready' } satisfies IndexReply);
