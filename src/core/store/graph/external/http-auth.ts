/**
 * HTTP authentication towards an external SPARQL endpoint: a bearer token, or a username and password answered
 * with Basic or Digest (RFC 7616: MD5, SHA-256 and SHA-512-256, their `-sess` variants, qop=auth) as the server's
 * `WWW-Authenticate` challenge asks. Credentials never leave this module except inside an Authorization header.
 */
import { createHash, randomBytes } from 'node:crypto';

/** The credential configured for the endpoint. */
export type EndpointCredential =
  | { readonly kind: 'none' }
  | { readonly kind: 'bearer'; readonly token: string }
  | { readonly kind: 'basic'; readonly username: string; readonly password: string };

/** One challenge of a `WWW-Authenticate` header: its scheme (lower case) and its parameters. */
export interface Challenge {
  readonly scheme: string;
  readonly params: Readonly<Record<string, string>>;
}

/** Digest algorithms we answer, strongest first, with the hash each uses. */
const DIGEST_HASHES: ReadonlyArray<readonly [algorithm: string, hash: string]> = [
  ['SHA-512-256', 'sha512-256'],
  ['SHA-256', 'sha256'],
  ['MD5', 'md5'],
];

/**
 * Parses a `WWW-Authenticate` value into its challenges. Several challenges may share one header (fetch joins
 * repeated headers with ", "), so a new challenge starts at every token that is not followed by `=`.
 */
export function parseChallenges(header: string): Challenge[] {
  const challenges: { scheme: string; params: Record<string, string> }[] = [];
  let i = 0;
  const read = (pattern: RegExp): string => {
    const text = pattern.exec(header.slice(i))?.[0] ?? '';
    i += text.length;
    return text;
  };
  const quoted = (): string => {
    let value = '';
    for (i++; i < header.length && header.charAt(i) !== '"'; i++) {
      if (header.charAt(i) === '\\') i++;
      value += header.charAt(i);
    }
    i++;
    return value;
  };
  while (i < header.length) {
    read(/^[\s,]*/);
    const word = read(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+/);
    if (word === '') {
      if (i < header.length) i++; // a stray character
      continue;
    }
    const afterWord = i;
    read(/^ */);
    const current = challenges.at(-1);
    if (header.charAt(i) === '=' && current !== undefined) {
      i++;
      read(/^ */);
      current.params[word.toLowerCase()] = header.charAt(i) === '"' ? quoted() : read(/^[^\s,]*/);
      continue;
    }
    i = afterWord;
    challenges.push({ scheme: word.toLowerCase(), params: {} });
  }
  return challenges;
}

/** Escapes a value for a quoted-string of an Authorization header. */
function quote(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** A Digest challenge being answered: its nonce and the count of requests sent with it. */
interface DigestState {
  readonly realm: string;
  readonly nonce: string;
  readonly opaque: string | undefined;
  readonly algorithm: string;
  readonly hash: string;
  readonly sess: boolean;
  readonly qop: 'auth' | undefined;
  readonly userhash: boolean;
  count: number;
}

/**
 * Produces the Authorization header of each request and learns from 401 challenges. Bearer and (once the server
 * asked for it) Basic are sent up front; Digest answers the last challenge again with an increasing nonce count,
 * so only the first request, and one after the server declares a nonce stale, costs an extra round trip.
 */
export class HttpAuthenticator {
  private scheme: 'basic' | 'digest' | undefined;
  private digest: DigestState | undefined;

  constructor(private readonly credential: EndpointCredential) {}

  /** Whether a username and password are configured (and so a challenge can be answered). */
  get answersChallenges(): boolean {
    return this.credential.kind === 'basic';
  }

  /** The Authorization header for a request, or undefined when none is known yet (or none is configured). */
  authorization(method: string, uri: string): string | undefined {
    const credential = this.credential;
    if (credential.kind === 'bearer') return `Bearer ${credential.token}`;
    if (credential.kind !== 'basic') return undefined;
    if (this.scheme === 'basic') {
      return `Basic ${Buffer.from(`${credential.username}:${credential.password}`, 'utf8').toString('base64')}`;
    }
    if (this.scheme === 'digest' && this.digest !== undefined) {
      return this.digestHeader(this.digest, credential, method, uri);
    }
    return undefined;
  }

  /**
   * Takes in a 401's `WWW-Authenticate` value; returns whether the request is worth sending again (a scheme we
   * can answer, and either a first challenge or a fresh nonce after a stale one).
   */
  challenge(header: string | null): boolean {
    if (this.credential.kind !== 'basic' || header === null) return false;
    const challenges = parseChallenges(header);
    const digest = this.pickDigest(challenges);
    if (digest !== undefined) {
      // The same nonce refused again means the credentials are wrong; a new one (first, or after a stale one)
      // is worth an answer.
      const retry = this.scheme !== 'digest' || this.digest?.nonce !== digest.nonce;
      this.scheme = 'digest';
      this.digest = digest;
      return retry;
    }
    if (challenges.some((challenge) => challenge.scheme === 'basic')) {
      const retry = this.scheme !== 'basic';
      this.scheme = 'basic';
      this.digest = undefined;
      return retry;
    }
    return false;
  }

  /** The strongest Digest challenge we can answer, as the state of a new nonce. */
  private pickDigest(challenges: readonly Challenge[]): DigestState | undefined {
    const offers = challenges.filter((challenge) => challenge.scheme === 'digest');
    for (const [algorithm, hash] of DIGEST_HASHES) {
      for (const sess of [false, true]) {
        const name = sess ? `${algorithm}-sess` : algorithm;
        const offer = offers.find(
          (challenge) => (challenge.params.algorithm ?? 'MD5').toUpperCase() === name.toUpperCase(),
        );
        if (offer === undefined) continue;
        const nonce = offer.params.nonce;
        const qops = (offer.params.qop ?? '').split(',').map((qop) => qop.trim().toLowerCase());
        // Only qop=auth (or the qop-less RFC 2069 form) is answered: auth-int would hash every request body.
        if (nonce === undefined || (offer.params.qop !== undefined && !qops.includes('auth'))) continue;
        return {
          realm: offer.params.realm ?? '',
          nonce,
          opaque: offer.params.opaque,
          algorithm: name,
          hash,
          sess,
          qop: offer.params.qop === undefined ? undefined : 'auth',
          userhash: offer.params.userhash?.toLowerCase() === 'true',
          count: 0,
        };
      }
    }
    return undefined;
  }

  private digestHeader(
    state: DigestState,
    credential: { readonly username: string; readonly password: string },
    method: string,
    uri: string,
  ): string {
    state.count++;
    const nc = state.count.toString(16).padStart(8, '0');
    const cnonce = randomBytes(16).toString('hex');
    const response = digestResponse({
      hash: state.hash,
      sess: state.sess,
      username: credential.username,
      password: credential.password,
      realm: state.realm,
      nonce: state.nonce,
      method,
      uri,
      qop: state.qop,
      nc,
      cnonce,
    });
    const username = state.userhash
      ? hashHex(state.hash, `${credential.username}:${state.realm}`)
      : credential.username;
    const parts = [
      `username=${quote(username)}`,
      `realm=${quote(state.realm)}`,
      `uri=${quote(uri)}`,
      `algorithm=${state.algorithm}`,
      `nonce=${quote(state.nonce)}`,
      ...(state.qop === undefined ? [] : [`nc=${nc}`, `cnonce=${quote(cnonce)}`, `qop=${state.qop}`]),
      `response=${quote(response)}`,
      ...(state.opaque === undefined ? [] : [`opaque=${quote(state.opaque)}`]),
      ...(state.userhash ? ['userhash=true'] : []),
    ];
    return `Digest ${parts.join(', ')}`;
  }
}

function hashHex(hash: string, text: string): string {
  return createHash(hash).update(text, 'utf8').digest('hex');
}

/** The inputs of one Digest response (RFC 7616 §3.4.1). */
export interface DigestInput {
  /** Node's name of the hash: md5, sha256 or sha512-256. */
  readonly hash: string;
  readonly sess: boolean;
  readonly username: string;
  readonly password: string;
  readonly realm: string;
  readonly nonce: string;
  readonly method: string;
  readonly uri: string;
  /** `auth`, or undefined for a server that offered no qop (RFC 2069). */
  readonly qop: 'auth' | undefined;
  readonly nc: string;
  readonly cnonce: string;
}

/** Computes the `response` value of a Digest Authorization header. */
export function digestResponse(input: DigestInput): string {
  const h = (text: string): string => hashHex(input.hash, text);
  let ha1 = h(`${input.username}:${input.realm}:${input.password}`);
  if (input.sess) ha1 = h(`${ha1}:${input.nonce}:${input.cnonce}`);
  const ha2 = h(`${input.method}:${input.uri}`);
  return input.qop === undefined
    ? h(`${ha1}:${input.nonce}:${ha2}`)
    : h(`${ha1}:${input.nonce}:${input.nc}:${input.cnonce}:${input.qop}:${ha2}`);
}
