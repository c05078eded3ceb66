import { fileURLToPath } from 'node:url';
import { runTimed } from './children.js';

const LOADER = fileURLToPath(new URL('./load-child.mjs', import.meta.url));

/** Requests per second a separate loader process achieved against `url`. */
export interface Throughput {
  readonly rps: number;
  readonly requests: number;
  readonly failures: number;
}

/** Loads `url` from a separate process for `seconds` with `connections` keep-alive connections. */
export async function measureThroughput(
  url: string,
  seconds = 5,
  connections = 50,
  authorization?: string,
): Promise<Throughput> {
  const args = [
    LOADER,
    url,
    String(seconds),
    String(connections),
    ...(authorization === undefined ? [] : [authorization]),
  ];
  const run = await runTimed(process.execPath, args);
  if (run.code !== 0) throw new Error(`load generator failed: ${run.stderr}`);
  const result = JSON.parse(run.stdout) as { requests: number; failures: number; ms: number };
  return { rps: (result.requests * 1000) / result.ms, requests: result.requests, failures: result.failures };
}
