import { parentPort } from 'node:worker_threads';
import { Parser } from 'n3';
import { createValidator, type RecordValidator } from './validator.js';

/*
 * SHACL validation in a worker thread: validating a record costs about a millisecond of CPU, which would
 * otherwise be spent on the thread that serves HTTP. The shapes arrive once; each request carries one
 * candidate's quads as N-Quads and the JSON locations of its owned nodes.
 */

interface Init {
  readonly shapes: string;
}
interface Request {
  readonly id: number;
  readonly nquads: string;
  readonly locate: [string, string][];
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
    const quads = new Parser({ format: 'N-Quads' }).parse(message.nquads);
    return validator.validate(quads, { locate: new Map(message.locate) });
  };
  run().then(
    (report) => port.postMessage({ id: message.id, ok: true, report }),
    (error: unknown) =>
      port.postMessage({
        id: message.id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      }),
  );
});
