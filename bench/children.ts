import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';

/** Every child process the benchmark started and that has not exited yet. */
const running = new Set<ChildProcess>();

/** Spawns a child and tracks it until it exits, so `killChildren` can stop it on failure. */
export function spawnTracked(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, options);
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.once('error', () => running.delete(child));
  return child;
}

/** Kills every tracked child that is still running, by its own pid. */
export function killChildren(): void {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  running.clear();
}

/** Resolves with the exit code once the child has ended (rejects if it could not be spawned). */
export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
}

/** The outcome of a child run to completion. */
export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** Its peak resident memory in MiB, as last read while it ran (every 200 ms); 0 when not asked for. */
  readonly peakMb: number;
}

/**
 * Runs a command to completion, timing it from spawn to exit; with `stdoutFile`, stdout goes to that file; with
 * `peak`, its peak resident memory is read while it runs.
 */
export async function runTimed(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; stdoutFile?: string; peak?: boolean } = {},
): Promise<Finished> {
  const fd = options.stdoutFile === undefined ? undefined : fs.openSync(options.stdoutFile, 'w');
  try {
    const started = performance.now();
    const child = spawnTracked(command, args, {
      env: options.env ?? process.env,
      cwd: options.cwd ?? process.cwd(),
      stdio: ['ignore', fd ?? 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    let peakMb = 0;
    const sampler =
      options.peak === true && child.pid !== undefined
        ? setInterval(() => {
            try {
              peakMb = Math.max(peakMb, memoryOf(child.pid ?? 0).peakMb);
            } catch {
              // It has just exited: the last reading stands.
            }
          }, 200)
        : undefined;
    const code = await exitOf(child);
    clearInterval(sampler);
    return { code, stdout, stderr, ms: performance.now() - started, peakMb };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Resident and peak resident memory of a live process in MiB, from /proc/<pid>/status. */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}
