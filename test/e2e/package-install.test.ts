/**
 * The npm package as users get it: `npm pack`, then `npm install -g` of the tarball into an empty prefix, then the
 * installed `reg` runs with no build step and no devDependencies.
 *
 * The tarball is packed with --ignore-scripts: the test command has just built, and the `prepack` build would
 * otherwise rebuild dist/ and the web page under the tests running alongside. What `prepack` guarantees (no
 * compiled file whose source is gone, every man page listed) is checked on the tarball instead.
 *
 * The install uses --prefer-offline, not --offline: installing a tarball resolves its dependencies from their
 * registry documents, which `npm ci` does not fetch (it installs the exact versions of package-lock.json), so they
 * are not all in the npm cache. The dependency tarballs `npm ci` fetched are reused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runProcess, type RunResult } from '../helpers.js';

interface PackageJson {
  name: string;
  version: string;
  bin: Record<string, string>;
  man?: string[];
  dependencies: Record<string, string>;
}

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string }[];
}

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson;
/** The external graph store changes nothing here: the package is installed and started once, embedded. */
const external = process.env.REG_TEST_GRAPH === 'sparql';

/** Runs a command to completion in `cwd` (with this process's environment unless another is given). */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<RunResult> {
  return runProcess(command, args, { cwd: options.cwd, env: options.env ?? process.env });
}

/** Every file under a folder of the repository, as package paths (`ui/dist/index.html`). */
function filesUnder(folder: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** The source a compiled file of dist/ came from exists. */
function hasSource(distPath: string): boolean {
  const stem = distPath.replace(/^dist\//, 'src/').replace(/\.js$/, '');
  return fs.existsSync(path.join(ROOT, `${stem}.ts`)) || fs.existsSync(path.join(ROOT, `${stem}.tsx`));
}

describe.skipIf(external)('the npm package', () => {
  const timings: string[] = [];
  let work = '';
  let prefix = '';
  let installed = '';
  let regBin = '';
  let tarball: string | undefined;
  let server: ChildProcess | undefined;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'reg-package-'));
    prefix = path.join(work, 'prefix');
    installed = path.join(prefix, 'lib', 'node_modules', ...pkg.name.split('/'));
    regBin = path.join(prefix, 'bin', 'reg');
  });

  afterAll(async () => {
    if (server !== undefined && server.exitCode === null && server.signalCode === null) {
      const child = server;
      const ended = new Promise<void>((resolve) => child.once('close', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await ended;
      clearTimeout(timer);
    }
    if (work !== '') fs.rmSync(work, { recursive: true, force: true });
    if (timings.length > 0) process.stderr.write(`package install: ${timings.join(', ')}\n`);
  }, 60_000);

  it('packs a tarball holding what reg serve reads, and nothing only needed to build or test', async () => {
    const started = Date.now();
    const packed = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: ROOT,
    });
    timings.push(`pack ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(packed.code, packed.stderr).toBe(0);
    const [result] = JSON.parse(packed.stdout) as PackResult[];
    expect(result).toBeDefined();
    tarball = path.join(work, result!.filename);
    expect(fs.existsSync(tarball)).toBe(true);
    timings.push(`tarball ${(result!.size / 1024).toFixed(0)} KiB, ${result!.entryCount} files`);
    const files = new Set(result!.files.map((file) => file.path));

    // Everything read at run time: the CLI, the compiled code, the prebuilt bundles, the web page, the command
    // manifest, the shapes and vocabularies the bundles are checked against, and the man pages.
    const needed = [
      'package.json',
      'bin/run.js',
      'oclif.manifest.json',
      'dist/commands/serve.js',
      'dist/bundles/index.json',
      'ui/dist/index.html',
      ...filesUnder('dist/bundles'),
      ...filesUnder('ui/dist'),
      ...filesUnder('shapes'),
      ...filesUnder('vocab'),
      ...filesUnder('man'),
      ...filesUnder('concepts'),
      ...filesUnder('dist').filter((file) => file.endsWith('.js') && hasSource(file)),
    ];
    expect(needed.filter((file) => !files.has(file))).toEqual([]);

    // Nothing for building, testing or measuring, no source maps without their sources, no stale outputs.
    const unwanted = [...files].filter(
      (file) =>
        /^(src|test|bench|scripts|types|docs|ui\/src|ui\/public|node_modules|\.ci|data)\//.test(file) ||
        /\.(ts|tsx|map)$/.test(file) ||
        /^(tsconfig.*\.json|vitest\.config\.ts|eslint\.config\.js|package-lock\.json|dist\/\.build-stamp)$/.test(
          file,
        ) ||
        (file.startsWith('dist/') && file.endsWith('.js') && !hasSource(file)),
    );
    expect(unwanted).toEqual([]);

    // The packed package.json: a scoped name, the `reg` command, and every man page listed so npm links it.
    expect(pkg.name).toMatch(/^@[a-z0-9-]+\/[a-z0-9-]+$/);
    expect(pkg.bin).toEqual({ reg: './bin/run.js' });
    const pages = filesUnder('man').filter((file) => /\.\d$/.test(file));
    expect(pages).toContain('man/reg-serve.1');
    expect((pkg.man ?? []).map((page) => path.posix.normalize(page)).sort()).toEqual(pages.sort());
  }, 120_000);

  it('installs globally from the tarball into an empty prefix, without devDependencies', async () => {
    expect(tarball, 'the tarball was packed').toBeDefined();
    fs.mkdirSync(prefix);
    const started = Date.now();
    const install = await run(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        tarball!,
        '--prefer-offline',
        // The one dependency that builds at install time (a native SQLite binding); allowed by name, as npm
        // asks of global installs.
        '--allow-scripts=better-sqlite3',
        '--no-audit',
        '--no-fund',
      ],
      { cwd: work },
    );
    timings.push(`install ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(install.code, `${install.stdout}\n${install.stderr}`).toBe(0);

    // The command is the installed package's, not this checkout's.
    expect(fs.realpathSync(regBin)).toBe(fs.realpathSync(path.join(installed, 'bin', 'run.js')));
    expect(fs.readdirSync(path.join(prefix, 'lib', 'node_modules'))).toEqual([pkg.name.split('/')[0]]);

    // The runtime dependencies are there (the native binding built), the development ones are not.
    const modules = path.join(installed, 'node_modules');
    for (const dependency of Object.keys(pkg.dependencies))
      expect(fs.existsSync(path.join(modules, dependency, 'package.json')), dependency).toBe(true);
    expect(
      fs.existsSync(path.join(modules, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node')),
    ).toBe(true);
    // Packages only development needs are not installed: not the direct devDependencies, and not what only they
    // pull in. package-lock.json marks them dev (or devOptional: a devDependency that a runtime dependency also
    // accepts as an optional peer, such as typescript) on every path.
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
    };
    const runtime = new Set<string>();
    const development = new Set<string>();
    for (const [where, entry] of Object.entries(lock.packages)) {
      if (where === '') continue;
      const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
      (entry.dev === true || entry.devOptional === true ? development : runtime).add(name);
    }
    const devOnly = [...development].filter((name) => !runtime.has(name));
    expect(devOnly).toEqual(expect.arrayContaining(['vitest', 'typescript', 'eslint']));
    const present = devOnly.filter((name) => fs.existsSync(path.join(modules, name)));
    expect(present).toEqual([]);
    for (const tool of ['vitest', 'typescript', 'eslint', 'vite', 'tsx', 'prettier'])
      expect(fs.existsSync(path.join(modules, tool)), tool).toBe(false);
  }, 900_000);

  it('runs reg --version and links the man pages into <prefix>/share/man', async () => {
    expect(fs.existsSync(regBin), 'reg was installed').toBe(true);
    const version = await run(regBin, ['--version'], { cwd: work, env: { PATH: process.env.PATH ?? '' } });
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout).toContain(`${pkg.name} ${pkg.version} `);

    const manDir = path.join(prefix, 'share', 'man');
    for (const page of pkg.man ?? [])
      expect(
        fs.existsSync(path.join(manDir, `man${path.extname(page).slice(1)}`, path.basename(page))),
        page,
      ).toBe(true);
    const found = await run('man', ['-M', manDir, '-w', 'reg-serve'], { cwd: work }).catch(() => undefined);
    if (found !== undefined) {
      // `man` is installed: it finds the page in the prefix.
      expect(found.code, found.stderr).toBe(0);
      expect(found.stdout.trim()).toMatch(/man\/reg-serve\.1$/);
      expect(fs.realpathSync(found.stdout.trim())).toBe(
        fs.realpathSync(path.join(installed, 'man', 'reg-serve.1')),
      );
    }
  }, 60_000);

  it('starts reg serve from the installed package on a fresh data directory and serves /readyz and the web page', async () => {
    expect(fs.existsSync(regBin), 'reg was installed').toBe(true);
    const dataDir = path.join(work, 'data');
    const home = path.join(work, 'home');
    fs.mkdirSync(home);
    const started = Date.now();
    // Run in an empty folder with an empty home, so that no configuration file of this checkout applies.
    const child = spawn(regBin, ['serve'], {
      cwd: home,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        REG_DATA_DIR: dataDir,
        REG_LISTEN: '127.0.0.1:0',
        REG_BASE_IRI: 'http://registry.test',
        REG_LOG_LEVEL: 'info',
      },
    });
    server = child;
    let logs = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`reg serve did not listen:\n${logs}`)), 60_000);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (logs += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        logs += chunk;
        for (const line of logs.split('\n')) {
          if (!line.startsWith('{')) continue;
          try {
            const entry = JSON.parse(line) as { msg?: unknown; url?: unknown };
            if (entry.msg === 'listening' && typeof entry.url === 'string') {
              clearTimeout(timer);
              resolve(entry.url);
            }
          } catch {
            // a line still being written
          }
        }
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        reject(new Error(`reg serve exited with ${code}:\n${logs}`));
      });
    });

    let ready = 0;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      ready = await fetch(`${url}/readyz`).then(
        (response) => response.status,
        () => 0,
      );
      if (ready === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    timings.push(`start to ready ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(ready, logs).toBe(200);
    expect(fs.readdirSync(dataDir).length, 'the data directory was written').toBeGreaterThan(0);

    const page = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toMatch(/^<!doctype html>/i);
    const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeDefined();
    const asset = await fetch(`${url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    await asset.arrayBuffer();
  }, 120_000);
});
