import fs from 'node:fs';
import path from 'node:path';
import { configPlaces, findConfigFile, type ConfigPlaces } from './config-file.js';
import { ProfileError } from './errors.js';

/** Where the registry URL used when nothing names one points: the address `npm start` serves. */
export const DEFAULT_URL = 'http://localhost:8080';

/** Seconds a request may take before the registry counts as unreachable, unless a profile says otherwise. */
export const DEFAULT_TIMEOUT = 30;

/** The environment variables client commands read, for the generated documentation. */
export const CLIENT_SETTINGS: ReadonlyArray<{ readonly name: string; readonly summary: string }> = [
  { name: 'REG_URL', summary: 'base URL of the registry (overrides the config file, overridden by --url)' },
  { name: 'REG_TOKEN', summary: 'bearer token sent to the registry (overridden by --token or --token-file)' },
  { name: 'REG_TOKEN_FILE', summary: 'file holding the token, read instead of REG_TOKEN' },
  { name: 'REG_PROFILE', summary: 'named profile of the config file to use (overridden by --profile)' },
  {
    name: 'ACTIONS_ID_TOKEN_REQUEST_URL',
    summary:
      "with ACTIONS_ID_TOKEN_REQUEST_TOKEN (GitHub Actions with id-token: write), where the job's OIDC token is asked for when no other token is set",
  },
  {
    name: 'REG_ID_TOKEN_VAR',
    summary:
      "the variable holding the GitLab CI job's ID token (its id_tokens: entry), used when no other token is set (default REG_ID_TOKEN)",
  },
  {
    name: 'REG_SPOOL_DIR',
    summary: 'directory reg advertise spools calls to while the registry is unreachable (as --spool)',
  },
];

/** How the config file is found, for the generated documentation. */
export const CLIENT_FILES = `The connection profile (url, token or token_file, timeout) is read from the first reg config file
found in the working directory (package.json "reg", .regrc, .regrc.json, .regrc.yaml, .regrc.yml), then in
the user's configuration directory ($XDG_CONFIG_HOME/reg/ or ~/.config/reg/: config.json, config.yaml,
config.yml), then in the home directory (.regrc, .regrc.json, .regrc.yaml, .regrc.yml). Config files are
JSON or YAML data, never code, and parent directories are not searched. Named profiles go under
"profiles"; the usual one is the profile "default" names, else the profile called default, else the
only one. REG_* variables override the file and flags override both.
A token_file is relative to the config file. Without any URL the client uses ${DEFAULT_URL}.`;

/** Where a setting of the resolved profile came from, so messages can say which one to fix. */
export type SettingSource = 'flag' | 'env' | 'file' | 'default' | 'ci';

/** A connection to one registry: its base URL and the token to present, never printed. */
export interface Profile {
  readonly url: string;
  readonly token: string | undefined;
  readonly timeout: number;
  /** The named profile used, when the config file has named profiles. */
  readonly name: string | undefined;
  /** The config file read, if one was found. */
  readonly configFile: string | undefined;
  readonly sources: { readonly url: SettingSource; readonly token: SettingSource | undefined };
}

/** The connection flags of a client command, as parsed. */
export interface ProfileFlags {
  readonly url?: string | undefined;
  readonly token?: string | undefined;
  readonly 'token-file'?: string | undefined;
  readonly profile?: string | undefined;
  readonly timeout?: number | undefined;
}

/** Where to look for the config file (the working directory, the user's directories); tests pin each. */
export type SearchOptions = Partial<ConfigPlaces>;

/** One layer of settings (config file, environment or flags); later layers override earlier ones. */
interface Layer {
  readonly url?: string | undefined;
  readonly token?: string | undefined;
  readonly tokenFile?: string | undefined;
  readonly timeout?: number | undefined;
}

const PROFILE_KEYS = new Set(['url', 'token', 'token_file', 'timeout']);

/**
 * Resolves the connection profile: the config file (see `CLIENT_FILES`), then `REG_URL`,
 * `REG_TOKEN` and `REG_TOKEN_FILE`, then the flags, each overriding the one before.
 */
export async function resolveProfile(
  flags: ProfileFlags,
  env: Readonly<Record<string, string | undefined>>,
  search: SearchOptions = {},
): Promise<Profile> {
  const places = configPlaces(search);
  const found = await findConfigFile(places);
  const wanted = nonEmpty(flags.profile) ?? nonEmpty(env.REG_PROFILE);
  const file = found === undefined ? undefined : selectProfile(found.config, found.filepath, wanted);
  if (found === undefined && wanted !== undefined) {
    throw new ProfileError(`profile "${wanted}" was asked for, but no reg config file was found`, [
      `put the profiles in .regrc.json in the working directory or in ${path.join(places.configHome, 'reg', 'config.json')}`,
    ]);
  }
  const fileLayer = file?.layer ?? {};
  const envLayer = layerOf(
    { url: env.REG_URL, token: env.REG_TOKEN, tokenFile: env.REG_TOKEN_FILE },
    'REG_TOKEN and REG_TOKEN_FILE',
  );
  const flagLayer = layerOf(
    { url: flags.url, token: flags.token, tokenFile: flags['token-file'], timeout: flags.timeout },
    '--token and --token-file',
  );
  const layers = [
    ['file', fileLayer],
    ['env', envLayer],
    ['flag', flagLayer],
  ] as const;
  let url: [string, SettingSource] = [DEFAULT_URL, 'default'];
  let token: [Layer, SettingSource] | undefined;
  let timeout = DEFAULT_TIMEOUT;
  for (const [source, layer] of layers) {
    if (layer.url !== undefined) url = [layer.url, source];
    if (layer.token !== undefined || layer.tokenFile !== undefined) token = [layer, source];
    if (layer.timeout !== undefined) timeout = layer.timeout;
  }
  // A token file named in the config file is relative to that file; one named by a flag or variable, to the cwd.
  const base = token?.[1] === 'file' && found !== undefined ? path.dirname(found.filepath) : places.cwd;
  return {
    url: checkUrl(url[0], url[1]),
    token: token === undefined ? undefined : readToken(token[0], base),
    timeout,
    name: file?.name,
    configFile: found?.filepath,
    sources: { url: url[1], token: token?.[1] },
  };
}

function selectProfile(
  config: unknown,
  filepath: string,
  wanted: string | undefined,
): { layer: Layer; name: string | undefined } {
  if (!isObject(config)) throw new ProfileError(`${filepath} must hold an object (url, token or profiles)`);
  const profiles = config.profiles;
  if (profiles !== undefined && !isObject(profiles)) {
    throw new ProfileError(`${filepath}: "profiles" must be an object of named profiles`);
  }
  const names = Object.keys(profiles ?? {});
  // The usual profile: the one "default" names, else a profile called "default", else the only one there is.
  const fallback =
    typeof config.default === 'string'
      ? config.default
      : config.url === undefined && names.includes('default')
        ? 'default'
        : undefined;
  const name = wanted ?? fallback ?? (config.url === undefined && names.length === 1 ? names[0] : undefined);
  if (name === undefined) {
    if (names.length > 0 && config.url === undefined) {
      throw new ProfileError(`${filepath} defines the profiles ${names.join(', ')} but none is chosen`, [
        'pass --profile <name>, set REG_PROFILE, name one profile "default", or set "default": "<name>" in the file',
      ]);
    }
    return { layer: fileLayer(config, filepath), name: undefined };
  }
  const chosen = profiles?.[name];
  if (!isObject(chosen)) {
    throw new ProfileError(
      `${filepath} has no profile "${name}"${names.length > 0 ? ` (it has: ${names.join(', ')})` : ''}`,
    );
  }
  return { layer: fileLayer(chosen, `${filepath} profile "${name}"`), name };
}

function fileLayer(entry: Record<string, unknown>, where: string): Layer {
  for (const key of Object.keys(entry)) {
    if (!PROFILE_KEYS.has(key) && key !== 'profiles' && key !== 'default') {
      throw new ProfileError(`${where}: unknown key "${key}" (known: url, token, token_file, timeout)`);
    }
  }
  const text = (key: string): string | undefined => {
    const value = entry[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw new ProfileError(`${where}: "${key}" must be a string`);
    return nonEmpty(value);
  };
  const timeout = entry.timeout;
  if (timeout !== undefined && (typeof timeout !== 'number' || !(timeout > 0))) {
    throw new ProfileError(`${where}: "timeout" must be a positive number of seconds`);
  }
  return layerOf({ url: text('url'), token: text('token'), tokenFile: text('token_file'), timeout }, where);
}

function layerOf(layer: Layer, both: string): Layer {
  const cleaned = {
    url: nonEmpty(layer.url),
    token: nonEmpty(layer.token),
    tokenFile: nonEmpty(layer.tokenFile),
    timeout: layer.timeout,
  };
  if (cleaned.token !== undefined && cleaned.tokenFile !== undefined) {
    throw new ProfileError(`${both} both give a token: use one of them`);
  }
  return cleaned;
}

function readToken(layer: Layer, base: string): string {
  if (layer.token !== undefined) return layer.token;
  const file = path.resolve(base, layer.tokenFile ?? '');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ProfileError(`the token file ${file} cannot be read: ${firstLine(error)}`);
  }
  const token = text.trim();
  if (token === '' || /\s/.test(token)) {
    throw new ProfileError(`the token file ${file} must hold one token on one line`);
  }
  return token;
}

function checkUrl(raw: string, source: SettingSource): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProfileError(`the registry URL from ${describeSource(source)} is not a URL: "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProfileError(
      `the registry URL from ${describeSource(source)} must be http(s), got "${url.protocol}"`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new ProfileError(
      `the registry URL from ${describeSource(source)} must not carry credentials; give the token separately`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

/** Names a setting source in a sentence ("the config file", "REG_URL" …). */
export function describeSource(source: SettingSource): string {
  switch (source) {
    case 'flag':
      return '--url';
    case 'env':
      return 'REG_URL';
    case 'file':
      return 'the config file';
    case 'default':
      return 'the default';
    case 'ci':
      return "the CI job's identity token";
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
