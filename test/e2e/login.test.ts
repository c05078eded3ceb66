/**
 * `reg login` and `reg logout` against running registries: a given token is checked with whoami and stored in
 * the user's config file (0600, its directory 0700) beside every other profile, key and comment; a refused
 * token is not stored; without a token, the device authorization grant runs against a real oidc-provider,
 * whose user step the test completes over HTTP; logout takes the token out again.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  BIN,
  freePort,
  ROOT_TOKEN,
  runReg,
  startServe,
  tempDir,
  testEnv,
  waitFor,
  type ServerProcess,
} from '../helpers.js';
import { startProvider, type TestProvider } from '../support/oidc.js';

const CLI_CLIENT = 'reg-cli';

let provider: TestProvider;
let withProvider: ServerProcess;
let plain: ServerProcess;

beforeAll(async () => {
  // The registry's address is the tokens' audience, so it is chosen before the provider starts.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  provider = await startProvider({
    audience: url,
    clients: [{ id: CLI_CLIENT, device: true }],
    accounts: { curator: ['curator'] },
    deviceFlow: true,
  });
  [withProvider, plain] = await Promise.all([
    startServe(
      testEnv({
        REG_BASE_IRI: url,
        REG_LISTEN: `127.0.0.1:${port}`,
        REG_OIDC_ISSUER: provider.issuer,
        REG_OIDC_CLIENT_ID: CLI_CLIENT,
      }),
    ),
    startServe(testEnv()),
  ]);
});
afterAll(async () => {
  await Promise.all([withProvider?.stop(), plain?.stop()]);
  await provider?.stop();
});

/** A user of their own: an empty home and configuration directory, and no REG_* settings. */
function user(): { env: Record<string, string>; configHome: string; home: string } {
  const home = tempDir('reg-home-');
  const configHome = path.join(home, 'xdg');
  return { env: { HOME: home, XDG_CONFIG_HOME: configHome }, configHome, home };
}

const modeOf = (file: string): number => fs.statSync(file).mode & 0o777;

const EXISTING = `# profiles of several registries
default: other
profiles:
  other:
    url: https://other.example.org # the team's registry
    token_file: other-token.txt
    timeout: 60
`;

describe('reg login with a token', () => {
  it('checks the token, stores it in the existing user file and keeps every other profile, key and comment', async () => {
    const { env, configHome } = user();
    const file = path.join(configHome, 'reg', 'config.yaml');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, EXISTING, { mode: 0o644 });

    const login = await runReg(
      ['login', '--url', plain.url, '--profile', 'main', '--with-token', '--json'],
      env,
      `${ROOT_TOKEN}\n`,
    );
    expect(login.code, login.stderr).toBe(0);
    const result = JSON.parse(login.stdout) as Record<string, any>;
    expect(result).toMatchObject({
      url: plain.url,
      file,
      profile: 'main',
      method: 'token',
      refresh_token_stored: false,
      whoami: { authenticated: true, roles: expect.arrayContaining(['admin']) },
    });
    expect(login.stderr).toBe('');
    expect(modeOf(file)).toBe(0o600);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('# profiles of several registries');
    expect(text).toContain('# the team');
    expect(parse(text)).toEqual({
      default: 'other',
      profiles: {
        other: { url: 'https://other.example.org', token_file: 'other-token.txt', timeout: 60 },
        main: { url: plain.url, token: ROOT_TOKEN },
      },
    });

    // The stored profile is what later commands use.
    const whoami = await runReg(['whoami', '--profile', 'main', '--json'], env);
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ authenticated: true });

    // A token file in place of the token given before; the URL is the one the profile holds.
    const tokenFile = path.join(tempDir('reg-token-'), 'token.txt');
    fs.writeFileSync(tokenFile, `${ROOT_TOKEN}\n`);
    const again = await runReg(['login', '--profile', 'main', '--token-file', tokenFile], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(
      new RegExp(`^logged in to ${plain.url} as .*; token stored in ${file}, profile "main"\\n$`),
    );
    expect(parse(fs.readFileSync(file, 'utf8')).profiles.main).toEqual({ url: plain.url, token: ROOT_TOKEN });
  });

  it('creates the user file 0600 in a new 0700 directory, and stores nothing for a refused token', async () => {
    const { env, configHome } = user();
    const refused = await runReg(
      ['login', '--url', plain.url, '--with-token'],
      env,
      'reg_000000000000_nope\n',
    );
    expect(refused.code).toBe(9);
    expect(refused.stderr.trim().split('\n')[0]).toMatch(/^reg: 401 /);
    expect(fs.existsSync(path.join(configHome, 'reg'))).toBe(false);

    const login = await runReg(['login', '--url', plain.url, '--with-token'], env, ROOT_TOKEN);
    expect(login.code, login.stderr).toBe(0);
    const file = path.join(configHome, 'reg', 'config.yaml');
    expect(modeOf(path.dirname(file))).toBe(0o700);
    expect(modeOf(file)).toBe(0o600);
    expect(parse(fs.readFileSync(file, 'utf8'))).toEqual({ url: plain.url, token: ROOT_TOKEN });
    const whoami = await runReg(['whoami', '--json'], env);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ authenticated: true });
  });

  it('writes to ~/.regrc.json when that is the user file that exists', async () => {
    const { env, home, configHome } = user();
    const file = path.join(home, '.regrc.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ profiles: { lab: { url: 'https://lab.example.org', timeout: 5 } } }),
    );
    const login = await runReg(
      ['login', '--url', plain.url, '--profile', 'ci', '--with-token', '--json'],
      env,
      ROOT_TOKEN,
    );
    expect(login.code, login.stderr).toBe(0);
    expect(JSON.parse(login.stdout).file).toBe(file);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      profiles: {
        lab: { url: 'https://lab.example.org', timeout: 5 },
        ci: { url: plain.url, token: ROOT_TOKEN },
      },
    });
    expect(modeOf(file)).toBe(0o600);
    expect(fs.existsSync(path.join(configHome, 'reg', 'config.yaml'))).toBe(false);
  });

  it('without --profile, stores the token in the profile the client reads: one called default', async () => {
    const { env, configHome } = user();
    const file = path.join(configHome, 'reg', 'config.yml');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      `profiles:\n  lab:\n    url: https://lab.example.org\n  default:\n    url: ${plain.url}\n`,
    );
    const login = await runReg(['login', '--with-token', '--json'], env, ROOT_TOKEN);
    expect(login.code, login.stderr).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({ file, profile: 'default', url: plain.url });
    expect(parse(fs.readFileSync(file, 'utf8'))).toEqual({
      profiles: { lab: { url: 'https://lab.example.org' }, default: { url: plain.url, token: ROOT_TOKEN } },
    });
    const whoami = await runReg(['whoami', '--json'], env);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ authenticated: true });
  });

  it('refuses bad input with one line and its exit code', async () => {
    const { env } = user();
    const empty = await runReg(['login', '--url', plain.url, '--with-token'], env, '\n');
    expect(empty.code).toBe(11);
    expect(empty.stderr).toBe('reg: standard input must hold one token on one line\n');
    const missing = await runReg(['login', '--url', plain.url, '--token-file', '/nonexistent/token'], env);
    expect(missing.code).toBe(11);
    const badUrl = await runReg(['login', '--url', 'ftp://example.org', '--with-token'], env, ROOT_TOKEN);
    expect(badUrl.code).toBe(11);
    const both = await runReg(['login', '--url', plain.url, '--with-token', '--token', ROOT_TOKEN], env);
    expect(both.code).toBe(2);
    const unreachable = await runReg(
      ['login', '--url', 'http://127.0.0.1:9', '--with-token'],
      env,
      ROOT_TOKEN,
    );
    expect(unreachable.code).toBe(10);
    // No token, and a registry that names no identity provider.
    const noProvider = await runReg(['login', '--url', plain.url, '--json'], env);
    expect(noProvider.code).toBe(2);
    expect(JSON.parse(noProvider.stdout).error.message).toContain('names no identity provider');
  });
});

describe('reg logout', () => {
  it('removes the token of the profile and keeps the rest, the file staying 0600', async () => {
    const { env, configHome } = user();
    const file = path.join(configHome, 'reg', 'config.yaml');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, EXISTING);
    const login = await runReg(
      ['login', '--url', plain.url, '--profile', 'main', '--with-token'],
      env,
      ROOT_TOKEN,
    );
    expect(login.code, login.stderr).toBe(0);

    const logout = await runReg(['logout', '--profile', 'main', '--json'], env);
    expect(logout.code, logout.stderr).toBe(0);
    expect(JSON.parse(logout.stdout)).toEqual({ file, profile: 'main', removed: true });
    expect(modeOf(file)).toBe(0o600);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(ROOT_TOKEN);
    expect(text).toContain('# the team');
    expect(parse(text).profiles).toEqual({
      other: { url: 'https://other.example.org', token_file: 'other-token.txt', timeout: 60 },
      main: { url: plain.url },
    });
    const anonymous = await runReg(['whoami', '--profile', 'main', '--json'], env);
    expect(JSON.parse(anonymous.stdout)).toMatchObject({ authenticated: false });

    const again = await runReg(['logout', '--profile', 'main'], env);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(`no token stored in ${file}, profile "main"\n`);
    // Without --profile, the file's default profile loses its token file.
    const defaulted = await runReg(['logout', '--json'], env);
    expect(JSON.parse(defaulted.stdout)).toEqual({ file, profile: 'other', removed: true });
    expect(parse(fs.readFileSync(file, 'utf8')).profiles.other).toEqual({
      url: 'https://other.example.org',
      timeout: 60,
    });
  });
});

describe('reg login with the device authorization grant', () => {
  it('prints the address and code, waits for the sign-in at the provider and stores the tokens', async () => {
    const { env, configHome } = user();
    const child = spawn(process.execPath, [BIN, 'login', '--url', withProvider.url, '--json'], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      await waitFor(() => /enter the code \S+/.test(stderr));
      const [, uri, code] = /open (\S+) and enter the code (\S+)/.exec(stderr) ?? [];
      expect(uri).toBe(`${provider.issuer}/device`);
      await provider.approveDevice(code!, 'curator');
      expect(await exited, stderr).toBe(0);
    } finally {
      child.kill();
    }
    const result = JSON.parse(stdout) as Record<string, any>;
    expect(result).toMatchObject({
      url: withProvider.url,
      profile: null,
      method: 'device',
      refresh_token_stored: true,
      whoami: { authenticated: true, roles: ['curator'] },
    });
    const file = path.join(configHome, 'reg', 'config.yaml');
    expect(modeOf(file)).toBe(0o600);
    const stored = parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    expect(stored.url).toBe(withProvider.url);
    expect(stored.token!.split('.')).toHaveLength(3);
    const refresh = path.join(configHome, 'reg', 'refresh-tokens.json');
    expect(modeOf(refresh)).toBe(0o600);
    expect(Object.keys(JSON.parse(fs.readFileSync(refresh, 'utf8')) as object)).toEqual([`${file}#`]);

    const whoami = await runReg(['whoami', '--json'], env);
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ authenticated: true, roles: ['curator'] });

    const logout = await runReg(['logout'], env);
    expect(logout.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(refresh, 'utf8'))).toEqual({});
  });
});
