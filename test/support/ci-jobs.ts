/**
 * What the tests of the GitHub Action and the GitLab component share: a real registry with one deployment and its
 * token, the built command line on a PATH folder as `reg` (as an earlier install step would have put it), files
 * in a fresh workspace, and scripts run by bash as the runners run them.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import {
  BIN,
  ROOT_TOKEN,
  runProcess,
  startServe,
  tempDir,
  testEnv,
  type RunResult,
  type ServerProcess,
} from '../helpers.js';

/** A call of a registry's API at `base`, as the root token unless another bearer is given. */
export async function callApi(
  base: string,
  method: string,
  route: string,
  body?: unknown,
  bearer: string = ROOT_TOKEN,
): Promise<{ status: number; body: Record<string, any> }> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** A registry for CI jobs, the token of its one deployment and the folder holding `reg`. */
export interface CiRegistry {
  readonly server: ServerProcess;
  readonly token: string;
  readonly regBin: string;
}

/** Starts a registry with a software named `software` and one deployment of it labelled `label`. */
export async function startCiRegistry(software: string, label: string): Promise<CiRegistry> {
  const server = await startServe(testEnv());
  const api = (method: string, route: string, body?: unknown) => callApi(server.url, method, route, body);
  const created = await api('POST', '/api/v1/software', { name: software });
  const instance = await api('POST', '/api/v1/instances', { software: created.body.id, label });
  const minted = await api('POST', `/api/v1/instances/${instance.body.id}/tokens`, {});
  expect(minted.status).toBe(201);
  const regBin = tempDir('reg-bin-');
  fs.writeFileSync(path.join(regBin, 'reg'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, {
    mode: 0o755,
  });
  return { server, token: minted.body.token as string, regBin };
}

/** A fresh workspace holding files at the given relative paths, each with content of its own. */
export function workspaceWith(files: readonly string[]): string {
  const workspace = tempDir('reg-workspace-');
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
    fs.writeFileSync(path.join(workspace, file), `content of ${file}\n`);
  }
  return workspace;
}

export const idOf = (iri: string): string => iri.slice(iri.lastIndexOf('/') + 1);
export const sha256 = (file: string): string =>
  createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Runs a script file with bash as the runners do (`bash --noprofile --norc -eo pipefail <file>`). */
export function spawnBash(script: string, env: Record<string, string>, cwd: string): Promise<RunResult> {
  return runProcess('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { env, cwd });
}

/**
 * The npm settings of a job that installs from the registry as a runner would: the machine's npm cache and user
 * settings (such as where the Node.js headers are), cached metadata preferred, and the certificate authorities
 * the machine trusts (a runner behind an inspecting proxy has them set; without them npm cannot reach the registry).
 */
export function runnerNpmSettings(): Record<string, string> {
  const trusted = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'].flatMap((name) => {
    const value = process.env[name];
    return value === undefined || value === '' ? [] : [[name, value] as const];
  });
  return {
    npm_config_cache: path.join(os.homedir(), '.npm'),
    npm_config_userconfig: path.join(os.homedir(), '.npmrc'),
    npm_config_prefer_offline: 'true',
    ...Object.fromEntries(trusted),
  };
}
