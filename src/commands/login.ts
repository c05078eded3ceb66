import fs from 'node:fs';
import { Flags } from '@oclif/core';
import { ClientCommand } from '../cli/client/client-command.js';
import { configPlaces, findConfigFile } from '../cli/client/config-file.js';
import { ApiError, ProfileError, UsageError } from '../cli/client/errors.js';
import { HttpClient } from '../cli/client/http.js';
import {
  advertisedProvider,
  deviceEndpoints,
  pollDeviceToken,
  startDeviceAuthorization,
  type DeviceTokens,
} from '../cli/client/login.js';
import { DEFAULT_TIMEOUT, DEFAULT_URL, type Profile } from '../cli/client/profile.js';
import { keepRefreshToken, storedUrl, storeToken } from '../cli/client/profile-file.js';
import { readStdin } from '../cli/client/input.js';
import type { Whoami } from '../api/index.js';
import { TokenClient } from '../cli/client/tokens.js';

/** What `reg login` prints under --json. */
export interface LoginResult {
  readonly url: string;
  readonly file: string;
  readonly profile: string | null;
  /** How the token was obtained: given (flag, file or standard input) or by the device authorization grant. */
  readonly method: 'token' | 'device';
  readonly refresh_token_stored: boolean;
  readonly whoami: Whoami;
}

export default class Login extends ClientCommand {
  static override summary = 'Store a registry token in your config file, after checking who it is.';
  static override description = `Checks the token with GET /api/v1/whoami, prints who the registry takes it to be, and stores the URL and token in your own config file: the first of $XDG_CONFIG_HOME/reg/config.json, config.yaml, config.yml, ~/.regrc, ~/.regrc.json, ~/.regrc.yaml and ~/.regrc.yml that exists, else a new $XDG_CONFIG_HOME/reg/config.yaml (~/.config when XDG_CONFIG_HOME is unset). The file is written readable by you only (0600, its directory 0700 when created); every other profile and key in it, and its comments, are kept. With --profile the token goes to that named profile (created if new), else to the profile the file makes the default, else to the file's top-level settings. A token the registry does not accept is not stored (exit 9).

The token comes from --token-file, from standard input with --with-token, or from --token. Without any, and when the registry's description (/.well-known/reg-registry) names an identity provider and a client for people to sign in with, the OAuth 2.0 device authorization grant (RFC 8628) runs: the command prints an address and a code on standard error, you open the address in any browser, enter the code and sign in, and the command, asking the provider no faster than it allows, stores the access token it receives. A refresh token the provider gives too is kept apart in $XDG_CONFIG_HOME/reg/refresh-tokens.json (0600).

The URL is --url, else REG_URL, else the one the profile already holds, else ${DEFAULT_URL}. A config file in the working directory is read before yours: the command warns when one would hide the stored token.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --url https://registry.example.org --token-file ~/reg-token.txt',
    'echo "$REG_ADMIN_TOKEN" | <%= config.bin %> <%= command.id %> --url https://registry.example.org --profile prod --with-token',
    '<%= config.bin %> <%= command.id %> --url https://registry.example.org',
    '<%= config.bin %> <%= command.id %> --profile prod --with-token --json < token.txt',
  ];
  static override flags = {
    'with-token': Flags.boolean({
      description: 'read the token from standard input',
      exclusive: ['token', 'token-file'],
    }),
    scope: Flags.string({
      description: 'scopes asked for in the device authorization grant (default: openid offline_access)',
    }),
    'client-id': Flags.string({
      description:
        'client id at the identity provider for the device authorization grant (default: the one the registry names)',
    }),
  };

  async run(): Promise<LoginResult> {
    const { flags } = await this.parse(Login);
    const places = configPlaces();
    const wanted = nonEmpty(flags.profile) ?? nonEmpty(process.env.REG_PROFILE);
    const url = checkUrl(
      flags.url ?? nonEmpty(process.env.REG_URL) ?? storedUrl(places, wanted) ?? DEFAULT_URL,
    );
    const timeout = flags.timeout ?? DEFAULT_TIMEOUT;
    const client = (token: string | undefined): HttpClient => new HttpClient(profileOf(url, token, timeout));
    const given = await this.givenToken(flags);
    const tokens: DeviceTokens =
      given === undefined
        ? await this.deviceLogin(client(undefined), flags, timeout * 1000)
        : { access_token: given };
    const whoami = await new TokenClient(client(tokens.access_token)).whoami();
    if (!whoami.authenticated) {
      throw new ApiError(
        401,
        'unauthorized',
        'Unauthorized',
        'the registry takes this token for no one (authenticated: false); nothing was stored',
      );
    }
    const entry = storeToken(places, { profile: wanted, url, token: tokens.access_token });
    keepRefreshToken(places, entry, tokens.refresh_token);
    const who = whoami.display_name ?? whoami.subject ?? 'unknown';
    this.logToStderr(
      `logged in to ${url} as ${who} (${whoami.credential}; roles: ${whoami.roles.join(' ') || 'none'}); token stored in ${entry.file}${entry.profile === undefined ? '' : `, profile "${entry.profile}"`}`,
    );
    const first = await findConfigFile(places);
    if (first !== undefined && first.filepath !== entry.file) {
      this.logToStderr(
        `warning: ${first.filepath} is read before ${entry.file} here, so the stored token is not used in this directory`,
      );
    }
    return {
      url,
      file: entry.file,
      profile: entry.profile ?? null,
      method: given === undefined ? 'device' : 'token',
      refresh_token_stored: tokens.refresh_token !== undefined,
      whoami,
    };
  }

  /** The token given by flag, file or standard input; undefined when none was. */
  private async givenToken(flags: {
    token?: string | undefined;
    'token-file'?: string | undefined;
    'with-token'?: boolean | undefined;
  }): Promise<string | undefined> {
    let text: string | undefined = flags.token;
    let where = '--token';
    try {
      if (flags['token-file'] !== undefined) {
        where = `the token file ${flags['token-file']}`;
        text = fs.readFileSync(flags['token-file'], 'utf8');
      } else if (flags['with-token'] === true) {
        where = 'standard input';
        text = await readStdin();
      }
    } catch (error) {
      throw new ProfileError(`${where} cannot be read: ${(error as Error).message.split('\n')[0] ?? ''}`);
    }
    if (text === undefined) return undefined;
    const token = text.trim();
    if (token === '' || /\s/.test(token)) throw new ProfileError(`${where} must hold one token on one line`);
    return token;
  }

  /** Runs the device authorization grant at the provider the registry names. */
  private async deviceLogin(
    registry: HttpClient,
    flags: { scope?: string | undefined; 'client-id'?: string | undefined },
    timeoutMs: number,
  ): Promise<DeviceTokens> {
    const provider = await advertisedProvider(registry);
    if (provider === undefined) {
      throw new UsageError(
        `no token was given, and ${registry.profile.url} names no identity provider to sign in with`,
        ['pass a token with --token-file or --with-token (reg tokens create issues one)'],
      );
    }
    const clientId = flags['client-id'] ?? provider.clientId;
    const endpoints = await deviceEndpoints(provider.issuer, timeoutMs);
    const authorization = await startDeviceAuthorization(
      endpoints,
      clientId,
      flags.scope ?? 'openid offline_access',
      timeoutMs,
    );
    // The person has to read this even under --json, whose object alone goes to standard output.
    const tell = (line: string): boolean => process.stderr.write(`${line}\n`);
    tell(`To sign in, open ${authorization.verification_uri} and enter the code ${authorization.user_code}`);
    if (authorization.verification_uri_complete !== undefined) {
      tell(`(or open ${authorization.verification_uri_complete})`);
    }
    tell(
      `waiting for the sign-in at ${provider.issuer} (the code expires in ${authorization.expires_in} s)…`,
    );
    return pollDeviceToken(endpoints, clientId, authorization, timeoutMs);
  }
}

/** A connection profile for the URL being logged in to. */
function profileOf(url: string, token: string | undefined, timeout: number): Profile {
  return {
    url,
    token,
    timeout,
    name: undefined,
    configFile: undefined,
    sources: { url: 'flag', token: token === undefined ? undefined : 'flag' },
  };
}

function checkUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProfileError(`the registry URL is not a URL: "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProfileError(`the registry URL must be http(s), got "${url.protocol}"`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ProfileError('the registry URL must not carry credentials; give the token separately');
  }
  return url.href.replace(/\/+$/, '');
}

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value.trim();
