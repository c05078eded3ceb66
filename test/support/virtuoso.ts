/**
 * Real Virtuoso servers (Debian's virtuoso-opensource) for the external graph store tests, on loopback ports.
 *
 * The vitest global setup (the default export) builds one template database: a fresh Virtuoso, SPARQL_UPDATE
 * granted to the anonymous SPARQL user (so a proxy may forward to /sparql), and the reference bundles of
 * http://registry.test written through the registry's own external store. Every test data directory then gets
 * its own server started from a copy of that template, so tests never see each other's graphs and a new
 * registry finds its bundles already there (as after a warm start). The tests reach it through /sparql-auth with
 * Digest credentials (dba/dba, the default of a fresh database).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    virtuosoTemplate: string;
  }
}

/** The Virtuoso binary and the stock configuration it ships with. */
export const VIRTUOSO_BIN = '/usr/bin/virtuoso-t';
const STOCK_INI = '/etc/virtuoso-opensource-7/virtuoso.ini';
const ISQL_BIN = '/usr/bin/isql-vt';
/** The stock database administrator, usable over Digest on /sparql-auth. */
export const VIRTUOSO_USER = 'dba';
export const VIRTUOSO_PASSWORD = 'dba';
/** The base IRI whose bundles the template holds. */
export const TEMPLATE_BASE_IRI = 'http://registry.test';

/** A running (or stopped) Virtuoso on loopback ports. */
export interface VirtuosoServer {
  readonly dir: string;
  readonly httpPort: number;
  readonly sqlPort: number;
  /** The anonymous SPARQL endpoint (updates allowed by the template's grant). */
  readonly sparqlUrl: string;
  /** The Digest-protected SPARQL endpoint. */
  readonly sparqlAuthUrl: string;
  /** The Digest-protected SPARQL 1.1 Graph Store Protocol endpoint. */
  readonly graphStoreAuthUrl: string;
  /** Stops it (SIGTERM, then SIGKILL after a grace period); the database stays for a restart. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same ports and database. */
  start(): Promise<void>;
  /** Sends a signal to the running server (SIGSTOP and SIGCONT make it hang and resume). */
  signal(signal: NodeJS.Signals): void;
  /** Stops it and removes its directory. */
  dispose(): Promise<void>;
}

const running = new Set<ChildProcess>();
const directories = new Set<string>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
  for (const dir of directories) fs.rmSync(dir, { recursive: true, force: true });
});

/** Two free loopback ports, found synchronously (a child process binds port 0 twice and reports). */
export function freePortsSync(count = 2): number[] {
  const script = `
    const net = require('node:net');
    const servers = [];
    const next = () => {
      if (servers.length === ${count}) {
        process.stdout.write(servers.map((s) => s.address().port).join(' '));
        for (const s of servers) s.close();
        return;
      }
      const s = net.createServer();
      s.listen(0, '127.0.0.1', () => { servers.push(s); next(); });
    };
    next();`;
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim().split(' ').map(Number);
}

/** How a test server differs from the stock one besides its ports and paths. */
export interface VirtuosoOptions {
  /**
   * Keep the stock buffer pool (`NumberOfBuffers = 10000`, about 80 MB), as the benchmark does: tests run many
   * servers at once and give each a smaller one (4,000 buffers) unless asked.
   */
  readonly stockBuffers?: boolean;
}

/**
 * The stock virtuoso.ini with the database in `dir` and loopback ports. Its query limits stay as shipped
 * (`ResultSetMaxRows = 10000`, and the built-in `MaxSortedTopRows` of 10,000), because the registry must work on
 * a server nobody retuned; only the buffer pool is made smaller, as many servers run at once (unless
 * `stockBuffers`).
 */
function writeIni(dir: string, sqlPort: number, httpPort: number, options: VirtuosoOptions = {}): string {
  let section = '';
  const lines = fs
    .readFileSync(STOCK_INI, 'utf8')
    .split('\n')
    .map((line) => {
      const header = /^\[(.+)\]/.exec(line);
      if (header !== null) {
        section = header[1]!;
      }
      const key = /^\s*([A-Za-z_]+)\s*=/.exec(line)?.[1];
      if (key === undefined) return line;
      const set = (value: string): string => `${key} = ${value}`;
      if (line.includes('/var/lib/virtuoso-opensource-7/db'))
        return line.replace('/var/lib/virtuoso-opensource-7/db', dir);
      if (section === 'Parameters' && key === 'ServerPort') return set(`127.0.0.1:${sqlPort}`);
      if (section === 'HTTPServer' && key === 'ServerPort') return set(`127.0.0.1:${httpPort}`);
      if (key === 'DirsAllowed') return `${line.trimEnd()}, ${dir}`;
      if (key === 'NumberOfBuffers' && options.stockBuffers !== true) return set('4000');
      if (key === 'MaxDirtyBuffers' && options.stockBuffers !== true) return set('3000');
      return line;
    });
  const file = path.join(dir, 'virtuoso.ini');
  fs.writeFileSync(file, lines.join('\n'));
  return file;
}

const WAIT_SCRIPT = `
  const url = process.argv[1];
  const deadline = Date.now() + Number(process.argv[2]);
  const attempt = () => fetch(url).then((r) => { if (r.status === 200) process.exit(0); throw new Error(String(r.status)); })
    .catch(() => { if (Date.now() > deadline) process.exit(1); setTimeout(attempt, 50); });
  attempt();`;

function readyUrl(httpPort: number): string {
  return `http://127.0.0.1:${httpPort}/sparql?query=${encodeURIComponent('ASK {}')}`;
}

function spawnServer(dir: string, ini: string): ChildProcess {
  const child = spawn(VIRTUOSO_BIN, ['+foreground', '+configfile', ini], { cwd: dir, stdio: 'ignore' });
  running.add(child);
  child.on('exit', () => running.delete(child));
  return child;
}

function logTail(dir: string): string {
  try {
    return fs.readFileSync(path.join(dir, 'virtuoso.log'), 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Blocks until every thread of a process is stopped (state T in /proc), for up to ten seconds. */
function waitUntilStopped(pid: number): void {
  const taskDir = `/proc/${pid}/task`;
  const stopped = (): boolean =>
    fs.readdirSync(taskDir).every((task) => {
      try {
        // The state follows the command name, which is in parentheses and may hold spaces.
        const stat = fs.readFileSync(path.join(taskDir, task, 'stat'), 'utf8');
        return /^[Tt]/.test(stat.slice(stat.lastIndexOf(')') + 2));
      } catch {
        return true; // the thread ended
      }
    });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 10_000;
  while (!stopped()) {
    if (Date.now() > deadline) throw new Error(`process ${pid} did not stop within 10 s`);
    Atomics.wait(pause, 0, 0, 5);
  }
}

/** Starts a server on a copy of `template` (or on a fresh database), blocking until it answers HTTP. */
export function startVirtuosoSync(template?: string, options: VirtuosoOptions = {}): VirtuosoServer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reg-virtuoso-'));
  directories.add(dir);
  if (template !== undefined) {
    for (const file of fs.readdirSync(template)) {
      if (/^virtuoso.*\.(db|trx)$/.test(file))
        fs.copyFileSync(path.join(template, file), path.join(dir, file));
    }
  }
  const [sqlPort = 0, httpPort = 0] = freePortsSync(2);
  const ini = writeIni(dir, sqlPort, httpPort, options);
  let child: ChildProcess | undefined;
  const waitReady = (): void => {
    try {
      execFileSync(process.execPath, ['-e', WAIT_SCRIPT, readyUrl(httpPort), '60000'], { stdio: 'ignore' });
    } catch {
      throw new Error(`Virtuoso did not start in ${dir}:\n${logTail(dir)}`);
    }
  };
  const launch = (): void => {
    child = spawnServer(dir, ini);
    waitReady();
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    const current = child;
    child = undefined;
    if (current === undefined || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
    current.kill(signal);
    const timer = setTimeout(() => current.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  launch();
  const base = `http://127.0.0.1:${httpPort}`;
  return {
    dir,
    httpPort,
    sqlPort,
    sparqlUrl: `${base}/sparql`,
    sparqlAuthUrl: `${base}/sparql-auth`,
    graphStoreAuthUrl: `${base}/sparql-graph-crud-auth`,
    stop,
    start: () => {
      launch();
      return Promise.resolve();
    },
    signal: (signal) => {
      if (child?.pid === undefined) return;
      child.kill(signal);
      // A stop signal is delivered to each thread in its own time: the server may still answer meanwhile.
      if (signal === 'SIGSTOP') waitUntilStopped(child.pid);
    },
    dispose: async () => {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
      directories.delete(dir);
    },
  };
}

/** Runs SQL through Virtuoso's isql on a server's SQL port. */
export function isql(server: VirtuosoServer, sql: string): string {
  return execFileSync(
    ISQL_BIN,
    [`127.0.0.1:${server.sqlPort}`, VIRTUOSO_USER, VIRTUOSO_PASSWORD, `exec=${sql}`],
    { encoding: 'utf8' },
  );
}

/**
 * The REG_SPARQL_* settings of a registry whose graph lives in `server`, over Digest on /sparql-auth, with large
 * inserts posted to its Graph Store Protocol endpoint (as the README sets it up).
 */
export function externalStoreEnv(server: VirtuosoServer): Record<string, string> {
  return {
    REG_SPARQL_ENDPOINT: server.sparqlAuthUrl,
    REG_SPARQL_GRAPH_STORE_ENDPOINT: server.graphStoreAuthUrl,
    REG_SPARQL_USERNAME: VIRTUOSO_USER,
    REG_SPARQL_PASSWORD: VIRTUOSO_PASSWORD,
    REG_SPARQL_LOG: sparqlLogOf(server),
  };
}

/** The file a registry on `server` appends every query and update it sends to (REG_SPARQL_LOG). */
export function sparqlLogOf(server: VirtuosoServer): string {
  return path.join(server.dir, 'registry-sparql.log');
}

/**
 * The vitest global setup: builds the template database once per run and removes it at the end. Fails with a
 * clear message when Virtuoso is not installed.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!fs.existsSync(VIRTUOSO_BIN)) {
    throw new Error(
      `${VIRTUOSO_BIN} is missing: install virtuoso-opensource (and nginx-light) to test the external graph store, or run the embedded tests alone with vitest --project embedded`,
    );
  }
  const server = startVirtuosoSync();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reg-template-data-'));
  try {
    isql(server, 'GRANT SPARQL_UPDATE TO "SPARQL";');
    // The bundles go in through the registry's own code, exactly as a first start against this server would.
    const { readConfig } = await import('../../src/core/config/index.js');
    const { openCore } = await import('../../src/core/core.js');
    const { silentLogger } = await import('../../src/core/log.js');
    const core = await openCore(
      readConfig({
        REG_BASE_IRI: TEMPLATE_BASE_IRI,
        REG_DATA_DIR: dataDir,
        ...externalStoreEnv(server),
      }),
      silentLogger,
    );
    await core.close();
    isql(server, 'checkpoint;');
    await server.stop();
  } catch (error) {
    await server.dispose();
    throw error;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  project.provide('virtuosoTemplate', server.dir);
  return () => server.dispose();
}
