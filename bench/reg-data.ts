import fs from 'node:fs';
import { runTimed } from './children.js';
import { countLines } from './line-chunks.js';
import { BIN, regEnv } from './reg-cli.js';

/** What `reg restore --nquads FILE --json` printed, and how long it took from spawn to exit. */
export interface RestoreRun {
  readonly ms: number;
  /** Peak resident memory of `reg restore` in MiB. */
  readonly peakMb: number;
  readonly read: number;
  readonly new: number;
  readonly reference: number;
  readonly records: number;
}

/** Runs `reg restore --nquads file --json` into `dataDir`. */
export async function runRestore(dataDir: string, file: string): Promise<RestoreRun> {
  const result = await runTimed(process.execPath, [BIN, 'restore', '--nquads', file, '--json'], {
    env: regEnv(dataDir),
    peak: true,
  });
  if (result.code !== 0)
    throw new Error(`reg restore exited with ${result.code}:\n${result.stderr}${result.stdout}`);
  const printed = JSON.parse(result.stdout) as Omit<RestoreRun, 'ms' | 'peakMb'>;
  return { ...printed, ms: result.ms, peakMb: result.peakMb };
}

/** What `reg dump > file` wrote, and how long it took from spawn to exit. */
export interface DumpRun {
  readonly ms: number;
  readonly lines: number;
  /** Lines in the urn:reg:local graph: every generated quad should be among them. */
  readonly localLines: number;
  readonly bytes: number;
}

/** Runs `reg dump` on `dataDir` with stdout redirected to `file`. */
export async function runDump(dataDir: string, file: string): Promise<DumpRun> {
  const result = await runTimed(process.execPath, [BIN, 'dump'], { env: regEnv(dataDir), stdoutFile: file });
  if (result.code !== 0) throw new Error(`reg dump exited with ${result.code}:\n${result.stderr}`);
  const counted = await countLines(file, ' <urn:reg:local> .');
  return { ms: result.ms, lines: counted.lines, localLines: counted.matching, bytes: fs.statSync(file).size };
}
