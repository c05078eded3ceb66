import { RegError } from '../../core/errors.js';
import type { Profile } from './profile.js';
import { describeRegistry } from './registry-description.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The variable a GitLab CI job's `id_tokens:` entry is read from unless `REG_ID_TOKEN_VAR` names another. */
export const DEFAULT_ID_TOKEN_VAR = 'REG_ID_TOKEN';

/** Seconds the registry's description and the token endpoint each get to answer. */
const WAIT_S = 10;

/** The CI job's identity token could not be had: the token endpoint failed, or the variable is empty. */
export class CiTokenError extends RegError {
  constructor(detail: string, hints: readonly string[] = []) {
    super('ci-token', detail, { hints });
  }
}

/** Where a CI identity token comes from, when the environment offers one. */
type CiTokenSource =
  | { readonly system: 'github-actions'; readonly requestUrl: string; readonly requestToken: string }
  | { readonly system: 'gitlab-ci'; readonly variable: string };

/**
 * The CI identity token the environment offers: GitHub Actions' token endpoint (`ACTIONS_ID_TOKEN_REQUEST_URL`
 * and `_TOKEN`, present when the workflow has `id-token: write`), else the GitLab CI variable named by
 * `REG_ID_TOKEN_VAR` (default `REG_ID_TOKEN`, set by an `id_tokens:` entry); undefined when there is none.
 */
function ciTokenSource(env: Env): CiTokenSource | undefined {
  const requestUrl = env.ACTIONS_ID_TOKEN_REQUEST_URL?.trim();
  const requestToken = env.ACTIONS_ID_TOKEN_REQUEST_TOKEN?.trim();
  if (requestUrl && requestToken) return { system: 'github-actions', requestUrl, requestToken };
  const named = env.REG_ID_TOKEN_VAR?.trim();
  const variable = named || DEFAULT_ID_TOKEN_VAR;
  // A variable named on purpose must hold the token; the default one is only used when it is there.
  if (named || env[variable] !== undefined) return { system: 'gitlab-ci', variable };
  return undefined;
}

/**
 * The profile with the CI job's identity token as its credential, when the profile has no token of its own
 * (`--token`, `--token-file`, `REG_TOKEN`, `REG_TOKEN_FILE` and the config file come first) and the job offers
 * one (see `ciTokenSource`). The token is asked for with the registry's base IRI as its audience. One line on
 * standard error says which token is used; the token itself is never printed.
 */
export async function withCiToken(
  profile: Profile,
  env: Env,
  say: (line: string) => void = (line) => void process.stderr.write(`reg: ${line}\n`),
  fetchImpl: typeof fetch = fetch,
): Promise<Profile> {
  if (profile.token !== undefined) return profile;
  const source = ciTokenSource(env);
  if (source === undefined) return profile;
  let token: string;
  if (source.system === 'github-actions') {
    const audience = await registryAudience(profile, fetchImpl);
    token = await githubToken(source.requestUrl, source.requestToken, audience, fetchImpl);
    say(`using the GitHub Actions OIDC token (audience ${audience})`);
  } else {
    token = gitlabToken(env, source.variable);
    const audience = audienceOf(token);
    say(
      `using the GitLab CI ID token from ${source.variable}${audience === '' ? '' : ` (audience ${audience})`}`,
    );
  }
  return { ...profile, token, sources: { ...profile.sources, token: 'ci' } };
}

/**
 * The audience the registry checks tokens for, from its description (`auth.oidc.audience`, which is its base IRI
 * unless the operator set another), else its base IRI, else its URL (a registry that does not describe itself).
 */
async function registryAudience(profile: Profile, fetchImpl: typeof fetch): Promise<string> {
  const answer = await describeRegistry(profile.url, Math.min(profile.timeout, WAIT_S), {
    fetchImpl,
    followRedirects: false,
  });
  // A registry that does not answer, or does not describe itself: its URL stands in for its base IRI.
  if (!('description' in answer)) return profile.url;
  const { description } = answer;
  const audience: unknown = description.auth?.oidc?.audience;
  if (typeof audience === 'string' && audience !== '') return audience;
  const base: unknown = description.base_iri;
  return typeof base === 'string' && base !== '' ? base : profile.url;
}

/** Asks GitHub Actions' token endpoint for a token with the audience; its answer is `{"value": "<jwt>"}`. */
async function githubToken(
  requestUrl: string,
  requestToken: string,
  audience: string,
  fetchImpl: typeof fetch,
): Promise<string> {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    throw new CiTokenError('ACTIONS_ID_TOKEN_REQUEST_URL is not a URL');
  }
  url.searchParams.set('audience', audience);
  const hint = 'the workflow or job needs "permissions: id-token: write"; or set REG_TOKEN';
  let response: Response;
  try {
    response = await fetchImpl(url, {
      headers: { authorization: `Bearer ${requestToken}`, accept: 'application/json' },
      signal: AbortSignal.timeout(WAIT_S * 1000),
    });
  } catch (error) {
    throw new CiTokenError(
      `the GitHub Actions OIDC token endpoint ${url.origin} did not answer: ${reason(error)}`,
      [hint],
    );
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    throw new CiTokenError(`the GitHub Actions OIDC token endpoint answered ${response.status}`, [hint]);
  }
  let value: unknown;
  try {
    value = (JSON.parse(text) as { value?: unknown }).value;
  } catch {
    value = undefined;
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw new CiTokenError('the GitHub Actions OIDC token endpoint answered without a token ("value")');
  }
  return value.trim();
}

/** The token in the GitLab CI variable, which must hold one JWT. */
function gitlabToken(env: Env, variable: string): string {
  const token = env[variable]?.trim() ?? '';
  if (token === '' || /\s/.test(token)) {
    throw new CiTokenError(`${variable} must hold the job's ID token`, [
      `add to the job: id_tokens: { ${variable}: { aud: <the registry's base IRI> } }; or set REG_TOKEN`,
    ]);
  }
  return token;
}

/** The audience a JWT names (read, not verified: the registry verifies it), or '' when it cannot be read. */
function audienceOf(token: string): string {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      aud?: unknown;
    };
    if (typeof payload.aud === 'string') return payload.aud;
    if (Array.isArray(payload.aud)) return payload.aud.filter((item) => typeof item === 'string').join(', ');
  } catch {
    // Not a JWT the client can read; the registry will say what is wrong with it.
  }
  return '';
}

const reason = (error: unknown): string => {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
};
