import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ProfileError } from '../../src/cli/client/errors.js';
import { DEFAULT_URL, resolveProfile } from '../../src/cli/client/profile.js';
import { tempDir } from '../helpers.js';

// The search reads the user's directories too: point them at empty ones so a developer's own profile stays out.
beforeAll(() => {
  process.env.XDG_CONFIG_HOME = tempDir('reg-xdg-');
});

/** Writes files (names may hold sub-directories) into a directory. */
function write(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
}

/** A project directory holding the given files, with an empty home and configuration directory of its own. */
function project(files: Record<string, string>): { cwd: string; home: string; configHome: string } {
  const dir = tempDir('reg-profile-');
  write(dir, files);
  const home = tempDir('reg-home-');
  return { cwd: dir, home, configHome: path.join(home, '.config') };
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

  it('takes the profile called default when the file names no default, and the one it names over it', async () => {
    const profiles = { default: { url: 'http://default.test' }, staging: { url: 'http://staging.test' } };
    expect(await resolveProfile({}, {}, project({ '.regrc': json({ profiles }) }))).toMatchObject({
      url: 'http://default.test',
      name: 'default',
    });
    expect(
      await resolveProfile({}, {}, project({ '.regrc': json({ default: 'staging', profiles }) })),
    ).toMatchObject({ url: 'http://staging.test', name: 'staging' });
    expect(
      await resolveProfile({}, { REG_PROFILE: 'staging' }, project({ '.regrc': json({ profiles }) })),
    ).toMatchObject({ url: 'http://staging.test' });
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

  it('reads the package.json "reg" member, but never runs a JavaScript or TypeScript config', async () => {
    const pkg = project({ 'package.json': json({ name: 'x', reg: { url: 'http://pkg.test' } }) });
    expect((await resolveProfile({}, {}, pkg)).url).toBe('http://pkg.test');
    const marker = path.join(tempDir('reg-marker-'), 'ran');
    const script = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x');\nmodule.exports = { url: 'http://js.test' };\n`;
    const scripts = project({
      'package.json': json({ name: 'no-reg-member' }),
      '.regrc.js': script,
      '.regrc.cjs': script,
      'reg.config.js': script,
      '.config/config.js': script,
      '.config/regrc.js': script,
    });
    expect(await resolveProfile({}, {}, scripts)).toMatchObject({ url: DEFAULT_URL, configFile: undefined });
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('does not look in parent directories', async () => {
    const search = project({ '.regrc.json': json({ url: 'http://parent.test' }) });
    const child = path.join(search.cwd, 'a', 'b');
    fs.mkdirSync(child, { recursive: true });
    expect(await resolveProfile({}, {}, { ...search, cwd: child })).toMatchObject({
      url: DEFAULT_URL,
      configFile: undefined,
    });
  });

  it('falls back to the user configuration directory, then ~/.regrc; the working directory wins', async () => {
    const search = project({});
    write(search.home, { '.regrc': 'url: http://home.test\n' });
    expect(await resolveProfile({}, {}, search)).toMatchObject({
      url: 'http://home.test',
      configFile: path.join(search.home, '.regrc'),
    });
    write(search.configHome, {
      'reg/config.yml': 'url: http://user.test\ntoken_file: token\n',
      'reg/token': 'user-token\n',
    });
    expect(await resolveProfile({}, {}, search)).toMatchObject({
      url: 'http://user.test',
      token: 'user-token',
      configFile: path.join(search.configHome, 'reg', 'config.yml'),
    });
    write(search.cwd, { '.regrc.yml': 'url: http://project.test\n' });
    expect((await resolveProfile({}, {}, search)).url).toBe('http://project.test');
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
