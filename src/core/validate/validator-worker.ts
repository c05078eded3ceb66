import { parentPort } from 'node:worker_threads';
import { Parser } from 'n3';
import { createValidator, type RecordValidator } from './validator.js';
import type { Group, GroupsRequest } from './validator-messages.js';

/*
 * SHACL validation in a worker thread: validating a record costs a fraction of a millisecond of CPU, which
 * would otherwise be spent on the thread that serves HTTP. The shapes arrive once; each message carries groups,
 * one per caller: the records of one write (an advertisement's run and artifacts together) as N-Quads, with the
 * JSON locations of their owned nodes. Each group is answered on its own, so one that cannot be read fails alone.
 */

interface Init {
  readonly shapes: string;
}

const port = parentPort;
if (port === null) throw new Error('validator-worker must run in a worker thread');
let validator: RecordValidator | undefined;

const failure = (error: unknown) => ({
  ok: false as const,
  message: error instanceof Error ? error.message : String(error),
});

port.on('message', (message: Init | GroupsRequest) => {
  if ('shapes' in message) {
    validator = createValidator(message.shapes);
    port.postMessage({ id: 0, ok: true });
    return;
  }
  const one = async (group: Group) => {
    if (validator === undefined) throw new Error('validator not initialised');
    return validator.validateMany(
      group.records.map((record) => ({
        quads: new Parser({ format: 'N-Quads' }).parse(record.nquads),
        options: { locate: new Map(record.locate) },
      })),
    );
  };
  Promise.all(
    message.groups.map((group) => one(group).then((reports) => ({ ok: true as const, reports }), failure)),
  ).then(
    (groups) => port.postMessage({ id: message.id, ok: true, groups }),
    (error: unknown) => port.postMessage({ id: message.id, ...failure(error) }),
  );
});
