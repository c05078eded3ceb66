import { isIP } from 'node:net';
import type { Principal } from '../../core/access/principal.js';

/** Who a request is counted against: a verified principal, or a client address. */
export interface Caller {
  readonly key: string;
  readonly anonymous: boolean;
}

/**
 * The caller a request is counted against: its verified principal (the issuer and subject of an identity token,
 * the subject of a registry token), else its client address, an IPv6 address by its /64 network (one host holds
 * a whole /64, so its single addresses would be a bucket each). Requests that name no address share one bucket.
 */
export function callerOf(principal: Principal | undefined, address: string | undefined): Caller {
  if (principal?.authenticated === true) return { key: `who ${principal.subject}`, anonymous: false };
  return { key: `net ${address === undefined ? 'unknown' : networkOf(address)}`, anonymous: true };
}

/** The address as it is counted: an IPv4 address as it is, an IPv6 address as its /64 network. */
export function networkOf(address: string): string {
  if (isIP(address) !== 6) return address;
  const bare = (address.split('%')[0] ?? '').toLowerCase();
  const [head = '', tail] = bare.split('::');
  const groups = (part: string): string[] => part.split(':').filter((group) => group !== '');
  const first = groups(head);
  const last = tail === undefined ? [] : groups(tail);
  // An IPv4 tail (::ffff:192.0.2.1) fills two groups.
  const width = (list: string[]): number =>
    list.reduce((sum, group) => sum + (group.includes('.') ? 2 : 1), 0);
  const full = [...first, ...Array<string>(Math.max(0, 8 - width(first) - width(last))).fill('0'), ...last];
  const network = full
    .slice(0, 4)
    .map((group) => (group.includes('.') ? group : Number.parseInt(group, 16).toString(16)));
  return `${network.join(':')}::/64`;
}
