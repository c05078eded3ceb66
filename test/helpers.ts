import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readConfig, type Config } from '../src/core/config/index.js';
import { openCore, type Core } from '../src/core/core.js';
import { silentLogger } from '../src/core/log.js';
import { externalStoreSettings } from './support/external-store.js';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The CLI entry point the end-to-end tests spawn. */
export const BIN = path.join(ROOT, 'bin', 'run.js');
/** A root token that passes the start-up checks. */
export const ROOT_TOKEN = 'test-root-token-0123456789abcdef';

const temporary: string[] = [];
const children = new Set<ChildProcess>();
// A failed test must not leave a server running or its data behind.
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory, removed when the process exits. */
export function tempDir(prefix = 'reg-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

/**
 * Rates far above what any test sends, so that the rate limiter runs in every test without refusing; a test of
 * the limiter overrides the ones it tries.
 */
export const GENEROUS_RATE_LIMITS: Readonly<Record<string, string>> = Object.fromEntries(
  ['READ', 'WRITE', 'SPARQL', 'FEDERATED', 'MCP', 'OUTBOUND']
    .flatMap((name) => [
      [`REG_RATE_LIMIT_${name}`, '100000/min'],
      [`REG_RATE_LIMIT_${name}_ANONYMOUS`, '100000/min'],
    ])
    .concat([['REG_RATE_LIMIT_AUTH_FAIL', '100000/min']]),
);

/**
 * An environment for a registry on a fresh data directory. When the suite runs against the external graph store
 * (`REG_TEST_GRAPH=sparql`), the data directory also gets a SPARQL server of its own, named by REG_SPARQL_*.
 */
export function testEnv(overrides: Record<string, string> = {}): Record<string, string> {
  const dataDir = overrides.REG_DATA_DIR ?? tempDir();
  return {
    REG_BASE_IRI: 'http://registry.test',
    REG_DATA_DIR: dataDir,
    REG_ROOT_TOKEN: ROOT_TOKEN,
    REG_LISTEN: '127.0.0.1:0',
    REG_LOG_LEVEL: 'warn',
    ...GENEROUS_RATE_LIMITS,
    ...externalStoreSettings(dataDir, overrides),
    ...overrides,
  };
}

/** A configuration read the way `serve` reads it, from a test environment. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return readConfig(testEnv(overrides));
}

/** Opens a real core on a fresh data directory; with `indexed`, the query index is loaded too. */
export async function openTestCore(overrides: Record<string, string> = {}, indexed = false): Promise<Core> {
  const core = await openCore(testConfig(overrides), silentLogger);
  if (indexed) await core.graph.open();
  return core;
}

/** The outcome of a finished CLI run. */
export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a command to completion with exactly the given environment, optionally in `cwd` and with `input` on its
 * standard input (closed at once otherwise), and collects what it printed.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string | undefined; input?: string | undefined },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}

/** Runs `reg <args>` to completion with exactly the given environment (plus PATH), optionally in `cwd`. */
export function runReg(
  args: string[],
  env: Record<string, string>,
  input?: string,
  cwd?: string,
): Promise<RunResult> {
  return runProcess(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd,
    input,
  });
}

/** Runs `reg <args>` in a directory (so the configuration search starts there), as a shell would. */
export function runRegIn(cwd: string, args: string[], env: Record<string, string>): Promise<RunResult> {
  return runReg(args, env, undefined, cwd);
}

/** A `reg serve` child process and the URL it listens on. */
export interface ServerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly logs: () => string;
  /** Resolves with the exit code once the process has ended. */
  readonly exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Spawns `reg serve` and waits until it listens (and, with `ready`, until /readyz answers 200). */
export async function startServe(env: Record<string, string>, ready = true): Promise<ServerProcess> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { PATH: process.env.PATH ?? '', ...env, REG_LOG_LEVEL: 'info' },
  });
  let logs = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  children.add(child);
  void exited.then(() => children.delete(child));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start:\n${logs}`));
    }, 30_000);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      logs += chunk;
      const match = /"msg":"listening","url":"([^"]+)"/.exec(logs);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${logs}`));
    });
  });
  if (ready) {
    await waitFor(async () => (await fetch(`${url}/readyz`)).status === 200).catch((error: unknown) => {
      child.kill('SIGKILL');
      throw error;
    });
  }
  return {
    child,
    url,
    logs: () => logs,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Polls `check` until it returns true or the timeout passes. */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sorted unique quad lines (comments left out): the canonical form two dumps are compared in. */
export function canonicalLines(text: string): string[] {
  return [...new Set(text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#')))].sort();
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
