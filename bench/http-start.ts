import { type ChildProcess } from 'node:child_process';
import { exitOf, memoryOf, spawnTracked } from './children.js';

/** Interval between readiness probes. */
const POLL_MS = 20;
/** Give up on a server that is not ready after this long. */
const TIMEOUT_MS = 180_000;

/** What starting one server took. */
export interface StartFigures {
  /** Spawn to the first 200 answer of the probe path. */
  readonly readyMs: number;
  /** Spawn to the log line that gives the URL. */
  readonly listeningMs: number;
  /** Resident and peak resident memory (MiB) once ready. */
  readonly rssMb: number;
  readonly peakMb: number;
}

/** A started HTTP server process. */
export interface StartedServer {
  readonly child: ChildProcess;
  readonly figures: StartFigures;
  /** The URL the server logged. */
  readonly url: string;
  /** Everything the process has written to stderr so far. */
  logs(): string;
  /** Sends SIGTERM and resolves with the exit code and how long the process took to exit. */
  stop(): Promise<{ code: number | null; ms: number }>;
}

/**
 * Spawns a server that logs `"url":"http://…"` on stderr once it listens, then polls `probe` every 20 ms until it
 * answers 200, and reads the process's memory at that moment. The process is killed if it never gets ready.
 */
export async function startHttp(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  probe: string,
): Promise<StartedServer> {
  const name = [command, ...args].join(' ').slice(0, 120);
  const started = performance.now();
  const deadline = started + TIMEOUT_MS;
  const child = spawnTracked(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = exitOf(child);
  let logs = '';
  let wake = (): void => undefined;
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    logs += chunk;
    wake();
  });
  const check = (): void => {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited early:\n${logs}`);
    if (performance.now() > deadline)
      throw new Error(`${name} was not ready within ${TIMEOUT_MS} ms:\n${logs}`);
  };
  try {
    let url: string | undefined;
    while (url === undefined) {
      check();
      url = /"url":"(http:\/\/[^"]+)"/.exec(logs)?.[1];
      if (url === undefined) {
        await Promise.race([sleep(POLL_MS), new Promise<void>((resolve) => (wake = resolve)), exited]);
      }
    }
    const listeningMs = performance.now() - started;
    for (;;) {
      check();
      if (await answers200(url + probe)) break;
      await sleep(POLL_MS);
    }
    const readyMs = performance.now() - started;
    const memory = memoryOf(child.pid!);
    return {
      child,
      figures: { readyMs, listeningMs, ...memory },
      url,
      logs: () => logs,
      stop: async () => {
        const stopping = performance.now();
        child.kill('SIGTERM');
        const code = await exited;
        return { code, ms: performance.now() - stopping };
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    await exited.catch(() => undefined);
    throw error;
  }
}

async function answers200(url: string): Promise<boolean> {
  try {
    const response = await fetch(url);
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
