import { ipv4Bytes, ipv6Bytes } from './public-address.js';

/**
 * The network a client address stands for, so that one host counts as one client (peer announcements,
 * SPARQL callers): an IPv4 address as it is, an IPv6 address as its /64, `unknown` when
 * the address is not known (a request that did not come over a socket).
 */
export function clientNetwork(address: string | undefined): string {
  if (address === undefined || ipv4Bytes(address) !== undefined) return address ?? 'unknown';
  const bytes = ipv6Bytes(address);
  if (bytes === undefined) return 'unknown';
  // An IPv4 client seen through an IPv6 socket (`::ffff:192.0.2.1`) is that IPv4 address.
  if (bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff)
    return bytes.slice(12).join('.');
  const groups = [0, 2, 4, 6].map((at) => (((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0)).toString(16));
  return `${groups.join(':')}::/64`;
}
