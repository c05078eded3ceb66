/**
 * The container image, built from the Containerfile with podman and run as it is meant to run: read-only root
 * filesystem with no scratch space, UID/GID 65532, a named volume at /data, the port published on 127.0.0.1.
 *
 * The base is the stand-in that scripts/container-base.sh builds (Debian trixie with its Node.js 20), since the
 * image the Containerfile names by default may not be reachable; the builder stage then installs npm and the
 * compiler itself, as it does on any base that lacks them. The machine's CA bundle (NODE_EXTRA_CA_CERTS, else the
 * system one) is handed to the builder stage as a build secret, for networks that reach the npm registry through
 * a TLS-intercepting proxy.
 *
 * Skipped when podman is missing, unless REG_TEST_REQUIRE_PODMAN=1 (as in CI). REG_TEST_PODMAN_RUNTIME names
 * the OCI runtime (default: runc when installed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, tempDir } from '../helpers.js';
import { Podman, podmanRuntime, run } from './podman.js';

interface PackageJson {
  version: string;
  description: string;
  license: string;
}

interface ImageInspect {
  Size: number;
  Config: {
    User?: string;
    Env?: string[];
    Entrypoint?: string[];
    Cmd?: string[];
    ExposedPorts?: Record<string, unknown>;
    Volumes?: Record<string, unknown>;
    WorkingDir?: string;
    Labels?: Record<string, string>;
    StopSignal?: string;
  };
  Healthcheck?: { Test?: string[] };
}

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson;
/** The stand-in base scripts/container-base.sh builds. */
const BASE = 'localhost/reg-base:trixie';
const TOKEN = 'container-root-token-4f0c2a9e71d35b68';
const BASE_IRI = 'http://registry.test';

const probe = await run('podman', ['--version'], process.env);
const available = probe.code === 0;
const required = process.env.REG_TEST_REQUIRE_PODMAN === '1';
if (!available && !required)
  process.stderr.write(
    '\nnote: podman is missing, so the container image test (test/container) is skipped; install podman, runc ' +
      'and debootstrap (see .ci/run)\n\n',
  );

if (required && !available)
  describe('the container image', () => {
    it('needs podman (REG_TEST_REQUIRE_PODMAN=1)', () => {
      expect.fail(
        `podman did not run: ${probe.stderr.trim()}; install podman, runc and debootstrap (see .ci/run)`,
      );
    });
  });

describe.runIf(available)('the container image', () => {
  const name = `reg-test-${process.pid}`;
  const image = `localhost/${name}:${pkg.version}`;
  const volume = `${name}-data`;
  const containers = new Set<string>();
  const report: string[] = [];
  let podman: Podman;
  let port = 0;
  let built = false;
  let software = '';

  /** Seconds since a start, for the report. */
  const seconds = (since: number): string => `${((Date.now() - since) / 1000).toFixed(1)} s`;

  /** Starts `reg serve` from the image on the volume, detached, as the image is meant to run. */
  async function serve(container: string): Promise<void> {
    containers.add(container);
    await podman.ok([
      'run',
      '--detach',
      '--name',
      container,
      '--read-only',
      // No scratch tmpfs on /tmp, /var/tmp and /run either: the volume is the one writable place.
      '--read-only-tmpfs=false',
      '--user',
      '65532:65532',
      // The image's health check runs on demand (`podman healthcheck run`), not from a timer.
      '--health-interval=disable',
      '--volume',
      `${volume}:/data`,
      '--publish',
      `127.0.0.1:${port}:8080`,
      '--env',
      `REG_BASE_IRI=${BASE_IRI}`,
      '--env',
      `REG_ROOT_TOKEN=${TOKEN}`,
      image,
    ]);
  }

  /** Waits for /readyz to answer ready; answers how long it took, or fails with the container's log. */
  async function ready(container: string, since: number): Promise<number> {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const body = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        async (response) => {
          const json = (await response.json().catch(() => ({}))) as { status?: unknown };
          return response.status === 200 ? json : {};
        },
        () => ({}),
      );
      if ('status' in body && body.status === 'ready') return Date.now() - since;
      const state = await podman.run(['inspect', '--format', '{{.State.Running}}', container]);
      if (state.stdout.trim() === 'false') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const logs = await podman.run(['logs', container]);
    throw new Error(`${container} did not become ready:\n${logs.stdout}${logs.stderr}`);
  }

  /** Calls the registry's API in the container. */
  async function api(
    method: string,
    route: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    const response = await fetch(`http://127.0.0.1:${port}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: await response.json() };
  }

  /** The names of the software records the registry lists. */
  async function softwareNames(): Promise<string[]> {
    const listed = await api('GET', '/api/v1/software?limit=100');
    expect(listed.status).toBe(200);
    return (listed.json as { items: { name: string }[] }).items.map((item) => item.name).sort();
  }

  beforeAll(async () => {
    port = await freePort();
    const work = tempDir('reg-container-');
    // The stand-in base is built once per machine; the script also writes the containers.conf podman needs here.
    const started = Date.now();
    const setup = await run('bash', [path.join(ROOT, 'scripts', 'container-base.sh')], {
      ...process.env,
      CONTAINER_CACHE_DIR: work,
      CONTAINER_BASE: BASE,
    });
    if (setup.code !== 0)
      throw new Error(`scripts/container-base.sh failed:\n${setup.stdout}${setup.stderr}`);
    report.push(`base ${seconds(started)}`);
    const conf = process.env.CONTAINERS_CONF ?? path.join(work, 'containers.conf');
    podman = new Podman({ ...process.env, CONTAINERS_CONF: conf }, podmanRuntime());
  }, 900_000);

  afterAll(async () => {
    if (podman !== undefined) {
      for (const container of containers)
        await podman.run(['rm', '--force', '--volumes', '--time', '0', container]);
      await podman.run(['volume', 'rm', '--force', volume]);
      await podman.run(['image', 'rm', '--force', image]);
    }
    if (report.length > 0) process.stderr.write(`container image: ${report.join(', ')}\n`);
  }, 120_000);

  it('builds from the Containerfile', async () => {
    const ca = [process.env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt'].find(
      (file) => file !== undefined && file !== '' && fs.existsSync(file),
    );
    const started = Date.now();
    const build = await podman.run([
      'build',
      // Only Docker's image format keeps the health check (podman drops it from OCI images).
      '--format',
      'docker',
      '--layers=false',
      '--file',
      path.join(ROOT, 'Containerfile'),
      '--tag',
      image,
      '--build-arg',
      `BASE=${BASE}`,
      '--build-arg',
      `VERSION=${pkg.version}`,
      ...(ca === undefined ? [] : ['--secret', `id=npmca,src=${ca}`]),
      ROOT,
    ]);
    report.push(`build ${seconds(started)}`);
    expect(build.code, `${build.stdout.split('\n').slice(-80).join('\n')}\n${build.stderr}`).toBe(0);
    built = true;
    const [inspected] = JSON.parse(await podman.ok(['image', 'inspect', image])) as ImageInspect[];
    report.push(`size ${(inspected!.Size / 1e6).toFixed(0)} MB (${inspected!.Size} bytes)`);
  }, 900_000);

  it('says how it runs: user, settings, volume, port, health check, stop signal, labels', async () => {
    expect(built, 'the image was built').toBe(true);
    const [inspected] = JSON.parse(await podman.ok(['image', 'inspect', image])) as ImageInspect[];
    const config = inspected!.Config;
    expect(config.User).toBe('65532:65532');
    expect(config.Env).toEqual(
      expect.arrayContaining(['REG_DATA_DIR=/data', 'REG_LISTEN=0.0.0.0:8080', 'REG_STATIC_DIR=/ui']),
    );
    // The build secret's path is never part of the image's settings.
    expect((config.Env ?? []).filter((entry) => entry.startsWith('NODE_EXTRA_CA_CERTS='))).toEqual([]);
    expect(config.Volumes).toEqual({ '/data': {} });
    expect(config.ExposedPorts).toEqual({ '8080/tcp': {} });
    expect(config.Entrypoint).toEqual(['node', '/app/bin/run.js']);
    expect(config.Cmd).toEqual(['serve']);
    expect(config.StopSignal).toBe('SIGTERM');
    expect(inspected!.Healthcheck?.Test).toEqual(['CMD', 'node', '/app/bin/run.js', 'healthcheck']);
    expect(config.Labels).toMatchObject({
      'org.opencontainers.image.title': 'reg',
      'org.opencontainers.image.description': pkg.description,
      'org.opencontainers.image.licenses': pkg.license,
      'org.opencontainers.image.version': pkg.version,
    });
    expect(config.Labels?.['org.opencontainers.image.source']).toMatch(/^https:\/\//);
  });

  it('holds no development dependency, no compiler and no build secret', async () => {
    expect(built, 'the image was built').toBe(true);
    // Packages package-lock.json marks as needed for development only (dev, or devOptional: a devDependency that
    // a runtime dependency also accepts as an optional peer, such as typescript).
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
    };
    const runtime = new Set<string>();
    const development = new Set<string>();
    for (const [where, entry] of Object.entries(lock.packages)) {
      if (where === '') continue;
      const packageName = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
      (entry.dev === true || entry.devOptional === true ? development : runtime).add(packageName);
    }
    const devOnly = [...development].filter((packageName) => !runtime.has(packageName));
    expect(devOnly).toEqual(expect.arrayContaining(['vitest', 'typescript', 'eslint', 'vite']));

    const listing = await podman.ok([
      'run',
      '--rm',
      '--read-only',
      '--health-interval=disable',
      '--entrypoint',
      'node',
      image,
      '-e',
      `const fs = require('node:fs');
       const root = '/app/node_modules';
       const names = [];
       for (const entry of fs.readdirSync(root)) {
         if (entry.startsWith('@')) for (const inner of fs.readdirSync(root + '/' + entry)) names.push(entry + '/' + inner);
         else names.push(entry);
       }
       console.log(JSON.stringify({
         names,
         sqlite: fs.existsSync(root + '/better-sqlite3/build/Release/better_sqlite3.node'),
         secret: fs.existsSync('/run/secrets/npmca'),
       }));`,
    ]);
    const found = JSON.parse(listing) as { names: string[]; sqlite: boolean; secret: boolean };
    expect(found.names).toEqual(
      expect.arrayContaining(['hono', 'oxigraph', 'better-sqlite3', '@oclif/core']),
    );
    expect(found.sqlite, 'the SQLite binding is built').toBe(true);
    expect(found.names.filter((packageName) => devOnly.includes(packageName))).toEqual([]);
    expect(found.secret).toBe(false);

    const tools = await podman.ok([
      'run',
      '--rm',
      '--read-only',
      '--health-interval=disable',
      '--entrypoint',
      'sh',
      image,
      '-c',
      'for tool in gcc g++ cc c++ make python3 node-gyp; do command -v "$tool" || true; done',
    ]);
    expect(tools.trim()).toBe('');
  }, 120_000);

  it('refuses to serve without REG_BASE_IRI, naming it', async () => {
    expect(built, 'the image was built').toBe(true);
    const refused = await podman.run([
      'run',
      '--rm',
      '--read-only',
      '--health-interval=disable',
      '--env',
      `REG_ROOT_TOKEN=${TOKEN}`,
      image,
    ]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('REG_BASE_IRI is required');
  }, 60_000);

  it('seeds the worked example into a new volume with reg seed', async () => {
    expect(built, 'the image was built').toBe(true);
    await podman.ok(['volume', 'create', volume]);
    const seeded = await podman.run([
      'run',
      '--rm',
      '--read-only',
      '--read-only-tmpfs=false',
      '--user',
      '65532:65532',
      '--health-interval=disable',
      '--volume',
      `${volume}:/data`,
      '--env',
      `REG_BASE_IRI=${BASE_IRI}`,
      image,
      'seed',
    ]);
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(JSON.parse(seeded.stdout)).toMatchObject({ software: 4 });
  }, 120_000);

  it('serves the volume read-only as 65532: ready, the seeded records, a write with the root token', async () => {
    expect(built, 'the image was built').toBe(true);
    const started = Date.now();
    await serve(`${name}-1`);
    report.push(`cold start to /readyz ${((await ready(`${name}-1`, started)) / 1000).toFixed(1)} s`);

    expect(await softwareNames()).toHaveLength(4);
    const created = await api('POST', '/api/v1/software', { name: 'container-image-probe' });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    software = (created.json as { id: string }).id;
    expect(software).not.toBe('');

    // The server runs as 65532, and the web page is served from /ui.
    const status = await podman.ok(['exec', `${name}-1`, 'cat', '/proc/1/status']);
    expect(status).toMatch(/^Uid:\s+65532\s+65532\s+65532\s+65532$/m);
    expect(status).toMatch(/^Gid:\s+65532\s+65532\s+65532\s+65532$/m);
    const page = await fetch(`http://127.0.0.1:${port}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/^<!doctype html>/i);
  }, 180_000);

  it('can write nowhere but /data', async () => {
    expect(built, 'the image was built').toBe(true);
    // Every directory or file outside the kernel's file systems that this user may write (access(2) answers
    // EROFS for a read-only mount).
    const writable = await podman.ok([
      'exec',
      `${name}-1`,
      'sh',
      '-c',
      'find / \\( -path /proc -o -path /sys -o -path /dev \\) -prune -o -writable -print 2>/dev/null; true',
    ]);
    const paths = writable.split('\n').filter((line) => line !== '');
    expect(paths).toContain('/data');
    expect(paths.filter((file) => file !== '/data' && !file.startsWith('/data/'))).toEqual([]);
    const touched = await podman.run(['exec', `${name}-1`, 'touch', '/app/probe', '/tmp/probe']);
    expect(touched.code).not.toBe(0);
    expect(touched.stderr).toContain('Read-only file system');
  }, 60_000);

  it('reports healthy while serving, and unhealthy where nothing answers', async () => {
    expect(built, 'the image was built').toBe(true);
    // The image's own health check, as the engine runs it.
    const healthy = await podman.run(['healthcheck', 'run', `${name}-1`]);
    expect(healthy.code, `${healthy.stdout}${healthy.stderr}`).toBe(0);
    const direct = await podman.run(['exec', `${name}-1`, 'node', '/app/bin/run.js', 'healthcheck']);
    expect(direct.code, direct.stderr).toBe(0);
    expect(direct.stdout).toContain('ready (http://127.0.0.1:8080/readyz)');

    // The health check follows REG_LISTEN: on a port where nothing listens it fails.
    const elsewhere = await podman.run([
      'exec',
      '--env',
      'REG_LISTEN=0.0.0.0:8081',
      `${name}-1`,
      'node',
      '/app/bin/run.js',
      'healthcheck',
    ]);
    expect(elsewhere.code).toBe(6);
    expect(elsewhere.stderr).toContain('127.0.0.1:8081/readyz did not answer');

    // A container of the image that does not serve is unhealthy.
    const idle = `${name}-idle`;
    containers.add(idle);
    await podman.ok([
      'run',
      '--detach',
      '--name',
      idle,
      '--read-only',
      '--health-interval=disable',
      '--entrypoint',
      'node',
      image,
      '-e',
      'setInterval(() => {}, 1000)',
    ]);
    const unhealthy = await podman.run(['healthcheck', 'run', idle]);
    expect(unhealthy.code).not.toBe(0);
    expect(unhealthy.stdout.trim()).toBe('unhealthy');
    await podman.run(['rm', '--force', '--volumes', '--time', '0', idle]);
    containers.delete(idle);
  }, 120_000);

  it('stops on SIGTERM with exit code 0 within 10 s', async () => {
    expect(built, 'the image was built').toBe(true);
    const started = Date.now();
    const stopped = await podman.run(['stop', '--time', '10', `${name}-1`]);
    const took = Date.now() - started;
    report.push(`stop ${(took / 1000).toFixed(1)} s`);
    expect(stopped.code, stopped.stderr).toBe(0);
    const exit = await podman.ok(['inspect', '--format', '{{.State.ExitCode}}', `${name}-1`]);
    expect(exit.trim()).toBe('0');
    expect(took).toBeLessThan(10_000);
    // The server's log (its standard error) ends with the clean stop.
    const logs = await podman.run(['logs', `${name}-1`]);
    expect(logs.code).toBe(0);
    expect(`${logs.stdout}${logs.stderr}`).toContain('"msg":"stopped"');
  }, 60_000);

  it('keeps the write in the volume: a new container reads it back', async () => {
    expect(software, 'a record was written').not.toBe('');
    await podman.ok(['rm', `${name}-1`]);
    containers.delete(`${name}-1`);
    const started = Date.now();
    await serve(`${name}-2`);
    report.push(`restart to /readyz ${((await ready(`${name}-2`, started)) / 1000).toFixed(1)} s`);
    const read = await api('GET', `/api/v1/software/${software}`);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ id: software, name: 'container-image-probe' });
    expect(await softwareNames()).toHaveLength(5);
    const stopped = await podman.run(['stop', '--time', '10', `${name}-2`]);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect((await podman.ok(['inspect', '--format', '{{.State.ExitCode}}', `${name}-2`])).trim()).toBe('0');
  }, 180_000);
});
