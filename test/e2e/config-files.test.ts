import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runRegIn, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';

let server: ServerProcess;

beforeAll(async () => {
  server = await startServe(testEnv());
});
afterAll(async () => {
  await server.stop();
});

/** Writes files (names may hold sub-directories) into a directory; returns the directory. */
function write(dir: string, files: Record<string, string>): string {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

/** A home directory of its own, so neither the developer's profile nor another test's is read. */
const freshHome = () => ({ HOME: tempDir('reg-home-') });

/**
 * Config scripts that, if anything ran them, would leave a marker holding the token they can see; every module
 * form cosmiconfig would load (CommonJS, ES module, TypeScript) under each name it would look for.
 */
function plantScripts(dir: string, marker: string): void {
  const cjs = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, String(process.env.REG_TOKEN));\nmodule.exports = {};\n`;
  const esm = `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(marker)}, String(process.env.REG_TOKEN));\nexport default {};\n`;
  write(dir, {
    '.regrc.js': cjs,
    '.regrc.cjs': cjs,
    '.regrc.mjs': esm,
    '.regrc.ts': esm,
    'reg.config.js': cjs,
    'reg.config.mjs': esm,
    '.config/regrc.js': cjs,
    // cosmiconfig reads this one as its own settings before searching at all.
    '.config/config.js': cjs,
  });
}

/** `reg whoami --json` run in a directory: the answer, once the command succeeded. */
async function whoami(cwd: string, env: Record<string, string>): Promise<Record<string, unknown>> {
  const result = await runRegIn(cwd, ['whoami', '--json'], env);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe('client config files', () => {
  it('never runs a config script planted in a parent directory or in the working directory', async () => {
    const parent = tempDir('reg-parent-');
    const marker = path.join(tempDir('reg-marker-'), 'token');
    plantScripts(parent, marker);
    const checkout = path.join(parent, 'checkout');
    fs.mkdirSync(checkout);
    const env = { ...freshHome(), REG_URL: server.url, REG_TOKEN: ROOT_TOKEN };
    expect(await whoami(checkout, env)).toMatchObject({ authenticated: true });
    expect(fs.existsSync(marker)).toBe(false);

    plantScripts(checkout, marker);
    expect(await whoami(checkout, env)).toMatchObject({ authenticated: true });
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('does not take a JSON profile from a parent directory either', async () => {
    const parent = write(tempDir('reg-parent-'), {
      '.regrc.json': JSON.stringify({ url: server.url, token: ROOT_TOKEN }),
    });
    const checkout = path.join(parent, 'checkout');
    fs.mkdirSync(checkout);
    expect(await whoami(checkout, { ...freshHome(), REG_URL: server.url })).toMatchObject({
      authenticated: false,
    });
  });

  it('reads JSON and YAML profiles from the working directory', async () => {
    const json = write(tempDir('reg-project-'), {
      '.regrc.json': JSON.stringify({ url: server.url, token: ROOT_TOKEN }),
    });
    expect(await whoami(json, freshHome())).toMatchObject({ authenticated: true });
    const yaml = write(tempDir('reg-project-'), {
      '.regrc.yaml': `default: local\nprofiles:\n  local:\n    url: ${server.url}\n    token_file: token.txt\n`,
      'token.txt': `${ROOT_TOKEN}\n`,
    });
    expect(await whoami(yaml, freshHome())).toMatchObject({ authenticated: true });
  });

  it('reads the profile from the user configuration directory, and from ~/.regrc', async () => {
    const cwd = tempDir('reg-empty-');
    const xdg = write(tempDir('reg-xdg-'), {
      'reg/config.json': JSON.stringify({ url: server.url, token: ROOT_TOKEN }),
    });
    expect(await whoami(cwd, { ...freshHome(), XDG_CONFIG_HOME: xdg })).toMatchObject({
      authenticated: true,
    });
    const home = write(tempDir('reg-home-'), {
      '.config/reg/config.yml': `url: ${server.url}\ntoken: ${ROOT_TOKEN}\n`,
    });
    expect(await whoami(cwd, { HOME: home })).toMatchObject({ authenticated: true });
    const legacy = write(tempDir('reg-home-'), { '.regrc': `url: ${server.url}\ntoken: ${ROOT_TOKEN}\n` });
    expect(await whoami(cwd, { HOME: legacy })).toMatchObject({ authenticated: true });
  });
});
