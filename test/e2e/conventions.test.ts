import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellWords } from '../../src/cli/help.js';
import { ROOT, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'oclif.manifest.json'), 'utf8')) as {
  commands: Record<string, unknown>;
};
/** Every command of the built CLI, as typed ("software list"). */
const COMMANDS = Object.keys(manifest.commands).map((id) => id.replaceAll(':', ' '));
const CONCEPTS = fs
  .readdirSync(path.join(ROOT, 'concepts'))
  .filter((file) => file.endsWith('.md'))
  .map((file) => file.replace(/\.md$/, ''));

let server: ServerProcess;
/** No config file of the developer's, and completion caches in a directory of the test's own. */
let base: Record<string, string>;

beforeAll(async () => {
  server = await startServe(testEnv());
  base = { XDG_CONFIG_HOME: tempDir('reg-xdg-'), XDG_CACHE_HOME: tempDir('reg-cache-') };
});
afterAll(async () => {
  await server.stop();
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Lines of a help text longer than the width that are more than one unbreakable word (a URL, a long IRI). */
function overlong(text: string, width: number): string[] {
  return text.split('\n').filter((line) => {
    if (line.length <= width) return false;
    const words = shellWords(line.replace(/^\s*(\$\s+)?/, '').replace(/\s+\\$/, ''));
    return words.length > 1;
  });
}

describe('reg conventions', () => {
  it('-h and --help print the same help for the root, a topic and a command', async () => {
    for (const subject of [[], ['software'], ['software', 'list']]) {
      const long = await runReg([...subject, '--help'], base);
      const short = await runReg([...subject, '-h'], base);
      expect(long.code, long.stderr).toBe(0);
      expect(short.code, short.stderr).toBe(0);
      expect(short.stdout).toBe(long.stdout);
      expect(long.stdout).toContain('USAGE');
    }
    const command = await runReg(['software', 'list', '-h'], base);
    expect(command.stdout).toMatch(/^List the software a registry holds/);
    expect(command.stdout).toContain('EXAMPLES');
    expect(command.stdout).toContain('$ reg software list');
    const topic = await runReg(['software', '-h'], base);
    expect(topic.stdout).toContain('software list');
    const root = await runReg(['-h'], base);
    expect(root.stdout).toContain('TOPICS');
    expect(root.stdout).toContain('CONCEPTS');
    for (const concept of CONCEPTS) expect(root.stdout).toMatch(new RegExp(`^  ${concept} `, 'm'));
  });

  it('reg --version, -v and reg version print the package, Node, the platform and the registry version', async () => {
    const env = { ...base, REG_URL: server.url };
    const outputs: string[] = [];
    for (const args of [['--version'], ['-v'], ['version']]) {
      const result = await runReg(args, env);
      expect(result.code, result.stderr).toBe(0);
      outputs.push(result.stdout);
    }
    expect(new Set(outputs).size).toBe(1);
    const [text = ''] = outputs;
    expect(text).toContain(`${pkg.name} ${pkg.version} (the reg command)`);
    expect(text).toContain(`node ${process.version}, ${process.platform}-${process.arch}`);
    expect(text).toContain(`registry ${server.url} (from REG_URL): reg ${pkg.version}`);

    const json = await runReg(['version', '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      name: pkg.name,
      version: pkg.version,
      bin: 'reg',
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      registry: {
        url: server.url,
        source: 'REG_URL',
        reachable: true,
        software: 'reg',
        version: pkg.version,
      },
    });
  });

  it('reg version says when nothing answers at the registry URL, and still exits 0', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const env = { ...base, REG_URL: url };
    const text = await runReg(['-v'], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`${pkg.name} ${pkg.version}`);
    expect(text.stdout).toContain(`registry ${url} (from REG_URL): not reachable (ECONNREFUSED)`);
    const json = await runReg(['version', '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).registry).toEqual({
      url,
      source: 'REG_URL',
      reachable: false,
      error: 'ECONNREFUSED',
    });
  });

  it('writes completion scripts for bash, zsh and PowerShell that name the real commands', async () => {
    const refreshed = await runReg(['autocomplete', '--refresh-cache'], base);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    const dir = path.join(base.XDG_CACHE_HOME ?? '', 'reg', 'autocomplete');
    const scripts = {
      bash: path.join(dir, 'functions', 'bash', 'reg.bash'),
      zsh: path.join(dir, 'functions', 'zsh', '_reg'),
      powershell: path.join(dir, 'functions', 'powershell', 'reg.ps1'),
    };
    for (const [shell, file] of Object.entries(scripts)) {
      const setup = await runReg(['autocomplete', 'script', shell], base);
      expect(setup.code, setup.stderr).toBe(0);
      expect(setup.stdout).toContain(path.join(base.XDG_CACHE_HOME ?? '', 'reg', 'autocomplete'));
      const script = fs.readFileSync(file, 'utf8');
      for (const word of ['software', 'tokens', 'advertise', 'version'])
        expect(script, shell).toContain(word);
    }
    expect(fs.readFileSync(scripts.bash, 'utf8')).toContain('tokens:create --json');
    const unknown = await runReg(['autocomplete', 'script', 'tcsh'], base);
    expect(unknown.code).toBe(2);

    // The bash function completes what a user types: a topic, a command of it, a flag of that command.
    const complete = (words: string[]): string[] => {
      const shell = spawnSync(
        'bash',
        [
          '-c',
          `source "$1"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _reg_autocomplete; printf '%s\\n' "\${COMPREPLY[@]}"`,
          'complete',
          scripts.bash,
        ],
        { encoding: 'utf8' },
      );
      expect(shell.status, shell.stderr).toBe(0);
      return [...new Set(shell.stdout.split('\n').filter((line) => line !== ''))];
    };
    expect(complete(['reg', 'softw'])).toEqual(['software']);
    expect(complete(['reg', 'tokens', 'cr'])).toEqual(['create']);
    expect(complete(['reg', 'tokens', 'create', '--expi'])).toEqual(['--expires-in']);
  });

  it('names the closest command for a misspelt one without a terminal, and exits 2 at once', async () => {
    for (const [typed, meant] of [
      [['softwre', 'list'], 'software list'],
      [['tokns', 'create', '--json'], 'tokens create'],
      [['vrsion'], 'version'],
    ] as const) {
      const result = await runReg([...typed], base);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(`did you mean "reg ${meant}"?`);
    }
    const help = await runReg(['help', 'advertsing'], base);
    expect(help.code).toBe(2);
    expect(help.stderr).toBe(
      'reg: "advertsing" is not a reg command, topic or concept; did you mean "reg help advertising"? (reg help lists them all)\n',
    );
    const nothingClose = await runReg(['xyzzy-frobnicate'], base);
    expect(nothingClose.code).toBe(2);
    expect(nothingClose.stderr).toMatch(
      /^reg: "xyzzy-frobnicate" is not a reg command \(reg help lists them all\)\n$/,
    );
  });

  it('reg help tokens prints the concept page, then the commands of the topic', async () => {
    const result = await runReg(['help', 'tokens'], base);
    expect(result.code, result.stderr).toBe(0);
    const page = result.stdout.indexOf('Who may do what');
    const commands = result.stdout.indexOf('tokens create');
    expect(page).toBe(0);
    expect(result.stdout).toContain('REG_ROOT_TOKEN');
    expect(commands).toBeGreaterThan(page);
    expect(result.stdout).toContain('tokens revoke');
    // --help on the topic is the topic's help alone.
    const topic = await runReg(['tokens', '--help'], base);
    expect(topic.stdout).not.toContain('Who may do what');
    for (const concept of CONCEPTS) {
      const shown = await runReg(['help', concept], base);
      expect(shown.code, `${concept}: ${shown.stderr}`).toBe(0);
      expect(shown.stdout).toContain(concept.toUpperCase());
    }
  });

  it.each([60, 120])(
    'help never runs past COLUMNS=%i, except for a word that cannot be broken',
    async (width) => {
      const env = { ...base, COLUMNS: String(width) };
      const subjects = [
        ['--help'],
        ['help', 'software'],
        ...CONCEPTS.map((concept) => ['help', concept]),
        ...COMMANDS.map((id) => [...id.split(' '), '--help']),
      ];
      // A few at a time: each is a process of its own.
      for (let start = 0; start < subjects.length; start += 4) {
        const results = await Promise.all(subjects.slice(start, start + 4).map((args) => runReg(args, env)));
        results.forEach((result, index) => {
          const args = subjects[start + index]?.join(' ');
          expect(result.code, `reg ${args}: ${result.stderr}`).toBe(0);
          expect(overlong(result.stdout, width), `reg ${args}`).toEqual([]);
        });
      }
      // Paragraphs are rewrapped to the width, not kept at the source's line breaks.
      const wide = await runReg(['tokens', 'create', '--help'], env);
      const longest = Math.max(...wide.stdout.split('\n').map((line) => line.length));
      expect(longest).toBeGreaterThan(width - 15);
    },
  );
});
