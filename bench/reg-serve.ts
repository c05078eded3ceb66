import { startHttp } from './http-start.js';
import { BIN, regEnv } from './reg-cli.js';
import { median } from './stats.js';

/** What one `reg serve` start took, from spawn to /readyz 200, and how it stopped. */
export interface ServeRun {
  readonly readyMs: number;
  readonly listeningMs: number;
  /** Index load time and quads, from the server's own "ready" log line. */
  readonly indexMs: number;
  readonly indexedQuads: number;
  readonly rssMb: number;
  readonly peakMb: number;
  /** Median latency of /readyz once ready (it counts the stored quads on every call). */
  readonly readyzMs: number;
  /** SIGTERM to exit, and the exit code (0 expected). */
  readonly stopMs: number;
  readonly stopCode: number | null;
}

/** Starts `reg serve` on `dataDir`, waits for /readyz 200, samples memory and /readyz latency, then stops it. */
export async function runServe(dataDir: string, extra: Record<string, string> = {}): Promise<ServeRun> {
  const server = await startHttp(
    process.execPath,
    [BIN, 'serve'],
    regEnv(dataDir, { REG_LOG_LEVEL: 'info', ...extra }),
    '/readyz',
  );
  const { figures } = server;
  try {
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await (await fetch(`${server.url}/readyz`)).arrayBuffer();
      samples.push(performance.now() - started);
    }
    // The "ready" line may trail the first 200 by a moment: it is logged after the index's own count.
    const ready = await readyLine(server.logs);
    const stop = await server.stop();
    return {
      readyMs: figures.readyMs,
      listeningMs: figures.listeningMs,
      indexMs: ready.ms,
      indexedQuads: ready.triples,
      rssMb: figures.rssMb,
      peakMb: figures.peakMb,
      readyzMs: median(samples),
      stopMs: stop.ms,
      stopCode: stop.code,
    };
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  }
}

async function readyLine(logs: () => string): Promise<{ ms: number; triples: number }> {
  for (let i = 0; i < 250; i++) {
    const line = logs()
      .split('\n')
      .find((text) => text.includes('"msg":"ready"'));
    if (line !== undefined) return JSON.parse(line) as { ms: number; triples: number };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { ms: NaN, triples: NaN };
}
