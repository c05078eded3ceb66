import { parentPort } from 'node:worker_threads';
import { Parser } from 'n3';
import { createValidator, type RecordValidator } from './validator.js';

/*
 * SHACL validation in a worker thread: validating a record costs a fraction of a millisecond of CPU, which
 * would otherwise be spent on the thread that serves HTTP. The shapes arrive once; each request carries the
 * records of one write (an advertisement's run and artifacts together) as N-Quads, with the JSON locations of
 * their owned nodes.
 */

interface Init {
  readonly shapes: string;
}
interface Request {
  readonly id: number;
  readonly records: { readonly nquads: string; readonly locate: [string, string][] }[];
}

const port = parentPort;
if (port === null) throw new Error('validator-worker must run in a worker thread');
let validator: RecordValidator | undefined;

port.on('message', (message: Init | Request) => {
  if ('shapes' in message) {
    validator = createValidator(message.shapes);
    port.postMessage({ id: 0, ok: true });
    return;
  }
  const run = async () => {
    if (validator === undefined) throw new Error('validator not initialised');
    return validator.validateMany(
      message.records.map((record) => ({
        quads: new Parser({ format: 'N-Quads' }).parse(record.nquads),
        options: { locate: new Map(record.locate) },
      })),
    );
  };
  run().then(
    (reports) => port.postMessage({ id: message.id, ok: true, reports }),
    (error: unknown) =>
      port.postMessage({
        id: message.id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      }),
  );
});
