/**
 * Running podman for the image test: every call goes through the same OCI runtime and containers.conf, and
 * collects its output.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';

export interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to completion; a command that cannot be started answers code null. */
export function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => resolve({ code: null, stdout, stderr: `${stderr}${error.message}` }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The OCI runtime podman is told to use: REG_TEST_PODMAN_RUNTIME, else runc when installed (crun, podman's usual
 * default, fails on hosts with hybrid cgroups), else podman's own choice.
 */
export function podmanRuntime(): string | undefined {
  const chosen = process.env.REG_TEST_PODMAN_RUNTIME;
  if (chosen !== undefined && chosen !== '') return chosen;
  return ['/usr/sbin/runc', '/usr/bin/runc'].some((file) => fs.existsSync(file)) ? 'runc' : undefined;
}

export class Podman {
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly runtime: string | undefined,
  ) {}

  /** Runs `podman <args>`. */
  run(args: readonly string[]): Promise<Outcome> {
    return run(
      'podman',
      [...(this.runtime === undefined ? [] : ['--runtime', this.runtime]), ...args],
      this.env,
    );
  }

  /** Runs `podman <args>` and answers its standard output; throws with its standard error when it fails. */
  async ok(args: readonly string[]): Promise<string> {
    const outcome = await this.run(args);
    if (outcome.code !== 0)
      throw new Error(
        `podman ${args.join(' ')} exited with ${outcome.code}:\n${outcome.stderr}${outcome.stdout}`,
      );
    return outcome.stdout;
  }
}
