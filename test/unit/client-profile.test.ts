import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ProfileError } from '../../src/cli/client/errors.js';
import { DEFAULT_URL, resolveProfile } from '../../src/cli/client/profile.js';
import { tempDir } from '../helpers.js';

// The search ends in ~/.config/reg/: point it at an empty directory so a developer's own profile stays out.
beforeAll(() => {
  process.env.XDG_CONFIG_HOME = tempDir('reg-xdg-');
});

/** A project directory holding the given files; the config search starts and stops there. */
function project(files: Record<string, string>): { cwd: string; stopDir: string } {
  const dir = tempDir('reg-profile-');
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  return { cwd: dir, stopDir: dir };
}

const json = (value: unknown) => JSON.stringify(value);

describe('connection profile resolution', () => {
  it('reads the config file, then lets the environment and then the flags override it', async () => {
    const search = project({ '.regrc.json': json({ url: 'http://file.test', token: 'file-token' }) });

    const fromFile = await resolveProfile({}, {}, search);
    expect(fromFile).toMatchObject({ url: 'http://file.test', token: 'file-token' });
    expect(fromFile.sources).toEqual({ url: 'file', token: 'file' });
    expect(fromFile.configFile).toBe(path.join(search.cwd, '.regrc.json'));

    const env = { REG_URL: 'http://env.test/', REG_TOKEN: 'env-token' };
    const fromEnv = await resolveProfile({}, env, search);
    expect(fromEnv).toMatchObject({
      url: 'http://env.test',
      token: 'env-token',
      sources: { url: 'env', token: 'env' },
    });

    const fromFlags = await resolveProfile({ url: 'http://flag.test', token: 'flag-token' }, env, search);
    expect(fromFlags).toMatchObject({ url: 'http://flag.test', token: 'flag-token' });
    expect(fromFlags.sources).toEqual({ url: 'flag', token: 'flag' });

    // Each setting is overridden on its own: a flag URL keeps the environment's token.
    const mixed = await resolveProfile({ url: 'http://flag.test' }, env, search);
    expect(mixed).toMatchObject({ url: 'http://flag.test', token: 'env-token' });
  });

  it('falls back to the local default without any config', async () => {
    const profile = await resolveProfile({}, {}, project({}));
    expect(profile).toMatchObject({ url: DEFAULT_URL, token: undefined, timeout: 30, configFile: undefined });
  });

  it('chooses a named profile by --profile, then REG_PROFILE, then "default"', async () => {
    const search = project({
      '.regrc.json': json({
        default: 'prod',
        profiles: {
          prod: { url: 'https://prod.test', token: 'prod-token', timeout: 5 },
          staging: { url: 'https://staging.test' },
        },
      }),
    });
    expect(await resolveProfile({}, {}, search)).toMatchObject({
      url: 'https://prod.test',
      name: 'prod',
      timeout: 5,
    });
    expect(await resolveProfile({}, { REG_PROFILE: 'staging' }, search)).toMatchObject({
      url: 'https://staging.test',
      name: 'staging',
      token: undefined,
    });
    expect(
      await resolveProfile({ profile: 'prod', timeout: 9 }, { REG_PROFILE: 'staging' }, search),
    ).toMatchObject({ url: 'https://prod.test', timeout: 9 });
    const unknown = resolveProfile({ profile: 'qa' }, {}, search);
    await expect(unknown).rejects.toBeInstanceOf(ProfileError);
    await expect(unknown).rejects.toThrow(/has no profile "qa" \(it has: prod, staging\)/);
  });

  it('refuses profiles with none chosen, and a profile asked for without a config file', async () => {
    const search = project({ '.regrc': json({ profiles: { a: { url: 'http://a.test' }, b: {} } }) });
    await expect(resolveProfile({}, {}, search)).rejects.toThrow(
      /defines the profiles a, b but none is chosen/,
    );
    await expect(resolveProfile({ profile: 'a' }, {}, project({}))).rejects.toThrow(/no reg config file/);
  });

  it('reads tokens from files: relative to the config file, or to the cwd for flags and variables', async () => {
    const search = project({
      '.regrc.yaml': 'url: http://yaml.test\ntoken_file: secret.txt\n',
      'secret.txt': 'file-secret\n',
      'other.txt': '  env-secret  \n',
    });
    expect(await resolveProfile({}, {}, search)).toMatchObject({
      url: 'http://yaml.test',
      token: 'file-secret',
    });
    expect(await resolveProfile({}, { REG_TOKEN_FILE: 'other.txt' }, search)).toMatchObject({
      token: 'env-secret',
      sources: { url: 'file', token: 'env' },
    });
    await expect(resolveProfile({}, { REG_TOKEN: 'x', REG_TOKEN_FILE: 'other.txt' }, search)).rejects.toThrow(
      /REG_TOKEN and REG_TOKEN_FILE both give a token/,
    );
    await expect(resolveProfile({ 'token-file': 'missing.txt' }, {}, search)).rejects.toThrow(
      /the token file .*missing\.txt cannot be read/,
    );
  });

  it('finds JavaScript and TypeScript configs and the package.json "reg" member', async () => {
    const mjs = project({ 'reg.config.mjs': 'export default { url: "http://mjs.test" };\n' });
    expect((await resolveProfile({}, {}, mjs)).url).toBe('http://mjs.test');
    const ts = project({
      'reg.config.ts': 'const url: string = "http://ts.test";\nexport default { url };\n',
    });
    expect((await resolveProfile({}, {}, ts)).url).toBe('http://ts.test');
    const pkg = project({ 'package.json': json({ name: 'x', reg: { url: 'http://pkg.test' } }) });
    expect((await resolveProfile({}, {}, pkg)).url).toBe('http://pkg.test');
  });

  it('finds the config file in a parent directory', async () => {
    const search = project({ '.regrc.json': json({ url: 'http://parent.test' }) });
    const child = path.join(search.cwd, 'a', 'b');
    fs.mkdirSync(child, { recursive: true });
    expect((await resolveProfile({}, {}, { cwd: child, stopDir: search.cwd })).url).toBe(
      'http://parent.test',
    );
  });

  it('refuses unusable URLs, keys and files with one sentence each', async () => {
    await expect(resolveProfile({ url: 'ftp://x.test' }, {}, project({}))).rejects.toThrow(
      /must be http\(s\)/,
    );
    await expect(resolveProfile({}, { REG_URL: 'not a url' }, project({}))).rejects.toThrow(
      /the registry URL from REG_URL is not a URL/,
    );
    await expect(resolveProfile({ url: 'https://user:secret@x.test' }, {}, project({}))).rejects.toThrow(
      /must not carry credentials/,
    );
    await expect(
      resolveProfile({}, {}, project({ '.regrc.json': json({ uri: 'http://x' }) })),
    ).rejects.toThrow(/unknown key "uri"/);
    const broken = resolveProfile({}, {}, project({ '.regrc.json': '{ nope' }));
    await expect(broken).rejects.toBeInstanceOf(ProfileError);
    await expect(broken).rejects.toThrow(/\.regrc\.json cannot be read/);
  });
});
