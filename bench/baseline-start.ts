import { runTimed } from './children.js';
import { startHttp } from './http-start.js';
import { BIN, regEnv } from './reg-cli.js';
import { median, repeat } from './stats.js';

/** A bare node:http server that logs its URL the way `reg serve` does, and exits at once on SIGTERM. */
const BARE_HTTP = `
const http = require('node:http');
const server = http.createServer((_req, res) => res.end('ok'));
server.listen(0, '127.0.0.1', () => {
  process.stderr.write(JSON.stringify({ msg: 'listening', url: 'http://127.0.0.1:' + server.address().port }) + '\\n');
});
process.on('SIGTERM', () => process.exit(0));`;

/** Start-up floors: what any Node process, and any Node HTTP server, costs before it does real work. */
export interface StartBaselines {
  /** `node -e ''`: spawn to exit. */
  readonly nodeExitMs: number;
  /** A bare node:http server: spawn to its first 200 answer. */
  readonly httpReadyMs: number;
  readonly httpRssMb: number;
  /** `reg --version`: the built CLI's own start-up (oclif, no data directory), spawn to exit. */
  readonly regVersionMs: number;
}

/** Measures the start-up floors, `runs` times each, and keeps the medians. */
export async function measureStartBaselines(runs: number, scratchDir: string): Promise<StartBaselines> {
  const nodeExit = await repeat(runs, async () => {
    const result = await runTimed(process.execPath, ['-e', '']);
    if (result.code !== 0) throw new Error(`node -e '' exited with ${result.code}: ${result.stderr}`);
    return result.ms;
  });
  const http = await repeat(runs, async () => {
    const server = await startHttp(
      process.execPath,
      ['-e', BARE_HTTP],
      { PATH: process.env.PATH ?? '' },
      '/',
    );
    await server.stop();
    return server.figures;
  });
  const regVersion = await repeat(runs, async () => {
    const result = await runTimed(process.execPath, [BIN, '--version'], { env: regEnv(scratchDir) });
    if (result.code !== 0) throw new Error(`reg --version exited with ${result.code}: ${result.stderr}`);
    return result.ms;
  });
  return {
    nodeExitMs: median(nodeExit),
    httpReadyMs: median(http.map((figures) => figures.readyMs)),
    httpRssMb: median(http.map((figures) => figures.rssMb)),
    regVersionMs: median(regVersion),
  };
}
