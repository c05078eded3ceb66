import { isIP } from 'node:net';

/**
 * Classifies IP addresses as public (routable on the internet) or not, for every outbound request the
 * registry makes on a caller's behalf (webhooks today, other fetches later). The ranges are those of the IANA
 * special-purpose registries (RFC 6890 and successors). IPv6 forms that carry an IPv4 address (mapped,
 * compatible, NAT64, 6to4) are judged by the IPv4 address they carry, so `::ffff:127.0.0.1` is loopback.
 */

/** Why an address is not public, or that it is. */
export interface AddressVerdict {
  readonly public: boolean;
  /** A short phrase: `public`, `loopback`, `private`, `link-local`, ... */
  readonly kind: string;
}

interface Range {
  readonly bytes: readonly number[];
  readonly bits: number;
  readonly kind: string;
}

const v4 = (text: string, bits: number, kind: string): Range => ({
  bytes: text.split('.').map(Number),
  bits,
  kind,
});

/** Non-public IPv4 ranges. */
const IPV4_RANGES: readonly Range[] = [
  v4('0.0.0.0', 8, 'unspecified ("this network")'),
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'shared (carrier-grade NAT)'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'IETF protocol assignment'),
  v4('192.0.2.0', 24, 'documentation'),
  v4('192.31.196.0', 24, 'AS112'),
  v4('192.52.193.0', 24, 'AMT'),
  v4('192.88.99.0', 24, '6to4 relay anycast'),
  v4('192.168.0.0', 16, 'private'),
  v4('192.175.48.0', 24, 'AS112'),
  v4('198.18.0.0', 15, 'benchmarking'),
  v4('198.51.100.0', 24, 'documentation'),
  v4('203.0.113.0', 24, 'documentation'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'),
];

const v6 = (text: string, bits: number, kind: string): Range => ({
  bytes: [...(ipv6Bytes(text) ?? [])],
  bits,
  kind,
});

/** Non-public IPv6 ranges that do not carry an IPv4 address. */
const IPV6_RANGES: readonly Range[] = [
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('64:ff9b:1::', 48, 'local-use NAT64'),
  v6('100::', 64, 'discard-only'),
  v6('2001::', 32, 'Teredo'),
  v6('2001:2::', 48, 'benchmarking'),
  v6('2001:10::', 28, 'ORCHID'),
  v6('2001:20::', 28, 'ORCHIDv2'),
  v6('2001:db8::', 32, 'documentation'),
  v6('3fff::', 20, 'documentation'),
  v6('5f00::', 16, 'segment routing'),
  v6('fc00::', 7, 'unique local (private)'),
  v6('fe80::', 10, 'link-local'),
  v6('fec0::', 10, 'site-local'),
  v6('ff00::', 8, 'multicast'),
];

/** IPv6 prefixes whose address carries an IPv4 address, and where (byte offset) it sits. */
const EMBEDDING: readonly (Range & { readonly at: number })[] = [
  { ...v6('::ffff:0:0', 96, 'IPv4-mapped'), at: 12 },
  { ...v6('::ffff:0:0:0', 96, 'IPv4-translated'), at: 12 },
  { ...v6('64:ff9b::', 96, 'NAT64'), at: 12 },
  { ...v6('2002::', 16, '6to4'), at: 2 },
  { ...v6('::', 96, 'IPv4-compatible'), at: 12 },
];

function matches(address: readonly number[], range: Range): boolean {
  let bits = range.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((address[i] ?? 0) & mask) !== ((range.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** The four bytes of a dotted IPv4 address, or undefined when it is not one. */
export function ipv4Bytes(text: string): number[] | undefined {
  if (isIP(text) !== 4) return undefined;
  return text.split('.').map(Number);
}

/** The sixteen bytes of an IPv6 address (a zone id such as `%eth0` is ignored), or undefined. */
export function ipv6Bytes(text: string): number[] | undefined {
  let address = text.replace(/%.*$/, '');
  if (isIP(address) !== 6) return undefined;
  // A trailing dotted IPv4 address (`::ffff:127.0.0.1`) becomes its two hexadecimal groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    address = `${address.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string): number[] =>
    part === '' ? [] : part.split(':').map((group) => parseInt(group, 16));
  const [left = '', right] = address.split('::');
  const before = parse(left);
  const after = right === undefined ? [] : parse(right);
  const groups =
    right === undefined
      ? before
      : [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
  if (groups.length !== 8 || groups.some((group) => !Number.isInteger(group))) return undefined;
  return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

function classifyV4(bytes: readonly number[]): AddressVerdict {
  const range = IPV4_RANGES.find((candidate) => matches(bytes, candidate));
  return range === undefined ? { public: true, kind: 'public' } : { public: false, kind: range.kind };
}

/**
 * Classifies one IP address (IPv4, or IPv6 in any textual form). Anything that is not an IP address is not
 * public. An IPv6 address carrying an IPv4 address is as public as the IPv4 address it carries.
 */
export function classifyAddress(address: string): AddressVerdict {
  const four = ipv4Bytes(address);
  if (four !== undefined) return classifyV4(four);
  const six = ipv6Bytes(address);
  if (six === undefined) return { public: false, kind: 'not an IP address' };
  if (address.includes('%')) return { public: false, kind: 'link-local (scoped)' };
  // The unspecified and loopback addresses lie inside the IPv4-compatible prefix; judge them first.
  const own = IPV6_RANGES.find((range) => range.bits === 128 && matches(six, range));
  if (own !== undefined) return { public: false, kind: own.kind };
  const embedding = EMBEDDING.find((range) => matches(six, range));
  if (embedding !== undefined) {
    const carried = classifyV4(six.slice(embedding.at, embedding.at + 4));
    return carried.public
      ? embedding.kind === 'IPv4-compatible'
        ? { public: false, kind: 'IPv4-compatible (deprecated)' }
        : { public: true, kind: 'public' }
      : { public: false, kind: `${carried.kind} (${embedding.kind})` };
  }
  const range = IPV6_RANGES.find((candidate) => matches(six, candidate));
  return range === undefined ? { public: true, kind: 'public' } : { public: false, kind: range.kind };
}

/** Whether an address is public (see `classifyAddress`). */
export function isPublicAddress(address: string): boolean {
  return classifyAddress(address).public;
}
