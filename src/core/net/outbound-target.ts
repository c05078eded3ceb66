import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress } from './public-address.js';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has (tests inject their own instead of real DNS). */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** What outbound targets a caller may name. */
export interface TargetPolicy {
  /** Plain http is allowed besides https. */
  readonly allowHttp: boolean;
  /** Private, loopback, link-local and other non-public addresses are allowed. */
  readonly allowPrivate: boolean;
  readonly resolve?: Resolver | undefined;
}

/** A URL that passed the policy, and the one address a request to it must connect to. */
export interface ApprovedTarget {
  readonly url: URL;
  /** The host name without IPv6 brackets; the TLS certificate is verified against it. */
  readonly hostname: string;
  readonly address: string;
  readonly family: 4 | 6;
}

/** Why a target was refused: `code` is stable, `message` is a sentence for the caller. */
export class TargetRefusedError extends Error {
  constructor(
    readonly code: 'invalid-url' | 'scheme' | 'credentials' | 'unresolvable' | 'non-public',
    message: string,
  ) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

/** Resolves with the operating system's resolver, every address, in the order it returns them. */
export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/** Checks the parts of a URL that need no resolution: parseable, http(s) as allowed, no credentials. */
export function checkTargetUrl(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefusedError('invalid-url', `"${raw}" is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:')) {
    throw new TargetRefusedError(
      'scheme',
      policy.allowHttp
        ? `${url.protocol.replace(/:$/, '')} is not an http(s) URL scheme`
        : `only https targets are allowed, not ${url.protocol.replace(/:$/, '')}`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new TargetRefusedError(
      'credentials',
      'the URL must not carry a user name or password; the receiver checks the signature instead',
    );
  }
  return url;
}

const bare = (hostname: string): string => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Approves an outbound target: the URL checks above, then every address the host resolves to must be public
 * (unless the policy allows private targets). Returns the address to connect to, so that the connection goes to
 * exactly the address that was checked (a second resolution could answer differently: DNS rebinding).
 */
export async function approveTarget(raw: string, policy: TargetPolicy): Promise<ApprovedTarget> {
  const url = checkTargetUrl(raw, policy);
  const hostname = bare(url.hostname);
  const family = isIP(hostname);
  let addresses: readonly ResolvedAddress[];
  if (family !== 0) {
    addresses = [{ address: hostname, family: family === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolver)(hostname);
    } catch (error) {
      throw new TargetRefusedError(
        'unresolvable',
        `${hostname} does not resolve (${(error as { code?: string }).code ?? (error as Error).message})`,
      );
    }
    if (addresses.length === 0) throw new TargetRefusedError('unresolvable', `${hostname} has no addresses`);
  }
  if (!policy.allowPrivate) {
    for (const { address } of addresses) {
      const verdict = classifyAddress(address);
      if (!verdict.public) {
        throw new TargetRefusedError(
          'non-public',
          `${hostname === address ? address : `${hostname} resolves to ${address}, which`} is not a public address (${verdict.kind})`,
        );
      }
    }
  }
  const [first] = addresses as [ResolvedAddress];
  return { url, hostname, address: first.address, family: first.family };
}
