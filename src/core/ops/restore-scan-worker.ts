/**
 * A worker thread of a restore's scan (`restore-scan.ts`): reads the whole file as the restore does, checks the
 * batches of its part and reports each as it goes, then what it found.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { scanNQuadsFile, type LineProblem } from './restore-reader.js';
import type { ScanInput, ScanMessage } from './restore-scan.js';

const port = parentPort;
const input = workerData as ScanInput;
const send = (message: ScanMessage): void => port?.postMessage(message);
const problems: LineProblem[] = [];
try {
  const found = await scanNQuadsFile(
    input.file,
    problems,
    (batch, plain) => send({ batch, plain }),
    input.defaultGraph,
    input.part,
  );
  send({ done: { problems, inDefaultGraph: found.inDefaultGraph } });
} catch (error) {
  send({ failed: (error as Error).message });
}
