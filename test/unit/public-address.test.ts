import { describe, expect, it } from 'vitest';
import { approveTarget, TargetRefusedError, type Resolver } from '../../src/core/net/outbound-target.js';
import { classifyAddress, ipv6Bytes } from '../../src/core/net/public-address.js';

/** DNS as a table: each test host name resolves to the addresses listed (no real DNS is asked). */
const table: Record<string, string[]> = {};
const resolve: Resolver = (hostname) => {
  const addresses = table[hostname];
  if (addresses === undefined)
    return Promise.reject(Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
};
const STRICT = { allowHttp: false, allowPrivate: false, resolve };

const NON_PUBLIC: readonly [address: string, kind: string][] = [
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'shared'],
  ['100.127.255.254', 'shared'],
  ['127.0.0.1', 'loopback'],
  ['127.8.9.10', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.1', 'private'],
  ['172.31.255.254', 'private'],
  ['192.0.0.8', 'IETF'],
  ['192.0.2.1', 'documentation'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['224.0.0.251', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['fc00::1', 'unique local'],
  ['fd12:3456:789a::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['2001::1', 'Teredo'],
  ['100::1', 'discard'],
  ['64:ff9b:1::a00:1', 'local-use NAT64'],
  ['::ffff:127.0.0.1', 'loopback (IPv4-mapped)'],
  ['::ffff:7f00:1', 'loopback (IPv4-mapped)'],
  ['0:0:0:0:0:ffff:7f00:0001', 'loopback (IPv4-mapped)'],
  ['::ffff:10.0.0.1', 'private (IPv4-mapped)'],
  ['::ffff:169.254.169.254', 'link-local (IPv4-mapped)'],
  ['::ffff:192.168.0.1', 'private (IPv4-mapped)'],
  ['::ffff:0:172.16.0.1', 'private (IPv4-translated)'],
  ['64:ff9b::127.0.0.1', 'loopback (NAT64)'],
  ['64:ff9b::a9fe:a9fe', 'link-local (NAT64)'],
  ['2002:c0a8:0101::1', 'private (6to4)'],
  ['2002:7f00:1::', 'loopback (6to4)'],
  ['::127.0.0.1', 'loopback (IPv4-compatible)'],
  ['::8.8.8.8', 'IPv4-compatible'],
  ['localhost', 'not an IP address'],
];

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.215.14',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.1',
  '192.169.0.1',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

describe('address classification', () => {
  it.each(NON_PUBLIC)('%s is not public (%s)', (address, kind) => {
    const verdict = classifyAddress(address);
    expect(verdict.public).toBe(false);
    expect(verdict.kind).toContain(kind);
  });

  it.each(PUBLIC)('%s is public', (address) => {
    expect(classifyAddress(address)).toEqual({ public: true, kind: 'public' });
  });

  it('reads every textual form of IPv6, embedded IPv4 included', () => {
    expect(ipv6Bytes('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 127, 0, 0, 1]);
    expect(ipv6Bytes('::ffff:7f00:1')).toEqual(ipv6Bytes('::ffff:127.0.0.1'));
    expect(ipv6Bytes('2001:db8::8:800:200c:417a')?.slice(8)).toEqual([0, 8, 8, 0, 32, 12, 65, 122]);
    expect(ipv6Bytes('1::')).toEqual([0, 1, ...Array(14).fill(0)]);
    expect(ipv6Bytes('127.0.0.1')).toBeUndefined();
    expect(ipv6Bytes('::g')).toBeUndefined();
  });
});

describe('outbound target approval (SSRF guard)', () => {
  it.each(NON_PUBLIC.filter(([address]) => address !== 'localhost'))(
    'refuses a host name resolving to %s',
    async (address) => {
      const hostname = `h-${address.replace(/[^0-9a-z]/gi, '-')}.test`;
      table[hostname] = [address.replace(/%.*$/, '')];
      const refused = approveTarget(`https://${hostname}/hook`, STRICT);
      await expect(refused).rejects.toBeInstanceOf(TargetRefusedError);
      await expect(refused).rejects.toMatchObject({ code: 'non-public' });
    },
  );

  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '[::1]',
    '[fc00::1]',
    '[fe80::1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:a9fe:a9fe]',
  ])('refuses the address literal %s without asking DNS', async (host) => {
    await expect(approveTarget(`https://${host}:8443/hook`, STRICT)).rejects.toMatchObject({
      code: 'non-public',
    });
  });

  it('refuses a host when any of its addresses is not public, and one that does not resolve', async () => {
    table['mixed.test'] = ['93.184.215.14', '192.168.0.10'];
    await expect(approveTarget('https://mixed.test/', STRICT)).rejects.toMatchObject({
      code: 'non-public',
      message: 'mixed.test resolves to 192.168.0.10, which is not a public address (private)',
    });
    await expect(approveTarget('https://nowhere.test/', STRICT)).rejects.toMatchObject({
      code: 'unresolvable',
    });
    table['empty.test'] = [];
    await expect(approveTarget('https://empty.test/', STRICT)).rejects.toMatchObject({
      code: 'unresolvable',
    });
  });

  it('approves a public host and pins the first address it resolved to', async () => {
    table['public.test'] = ['93.184.215.14', '2606:4700:4700::1111'];
    const target = await approveTarget('https://public.test:8443/hooks/reg?x=1', STRICT);
    expect(target).toMatchObject({ hostname: 'public.test', address: '93.184.215.14', family: 4 });
    expect(target.url.href).toBe('https://public.test:8443/hooks/reg?x=1');
    const literal = await approveTarget('https://[2606:4700:4700::1111]/', STRICT);
    expect(literal).toMatchObject({ hostname: '2606:4700:4700::1111', family: 6 });
  });

  it('allows http and private targets only when the policy says so', async () => {
    await expect(approveTarget('http://93.184.215.14/', STRICT)).rejects.toMatchObject({ code: 'scheme' });
    await expect(approveTarget('ftp://93.184.215.14/', { ...STRICT, allowHttp: true })).rejects.toMatchObject(
      {
        code: 'scheme',
      },
    );
    await expect(approveTarget('https://u:p@93.184.215.14/', STRICT)).rejects.toMatchObject({
      code: 'credentials',
    });
    table['loop.test'] = ['127.0.0.1'];
    const loose = { allowHttp: true, allowPrivate: true, resolve };
    expect(await approveTarget('http://loop.test:8080/', loose)).toMatchObject({ address: '127.0.0.1' });
    expect(await approveTarget('http://[::1]:8080/', loose)).toMatchObject({ address: '::1', family: 6 });
  });
});
