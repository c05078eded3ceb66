import { describe, expect, it } from 'vitest';
import { RateBuckets } from '../../src/http/rate-limit/buckets.js';
import { networkOf } from '../../src/http/rate-limit/caller.js';
import { classOf } from '../../src/http/rate-limit/classes.js';

const T0 = 1_000_000;
/** 60 a minute, 5 at once: one every second. */
const RULE = { count: 60, periodMs: 60_000, burst: 5 };

describe('buckets', () => {
  it('allow a burst at once, then one request per interval', () => {
    const buckets = new RateBuckets(100);
    const taken = Array.from({ length: 6 }, () => buckets.take('k', RULE, T0));
    expect(taken.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    expect(taken.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(taken.map((d) => d.resetSeconds)).toEqual([1, 2, 3, 4, 5, 5]);
    expect(taken[5]?.retryAfterSeconds).toBe(1);
    expect(buckets.refusing('k', RULE, T0)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    expect(buckets.take('k', RULE, T0 + 999).allowed).toBe(false);
    expect(buckets.take('k', RULE, T0 + 1000)).toMatchObject({ allowed: true, remaining: 0 });
    // After a quiet spell the whole burst is back, never more.
    expect(buckets.take('k', RULE, T0 + 600_000)).toMatchObject({
      allowed: true,
      remaining: 4,
      resetSeconds: 1,
    });
    expect(buckets.refusing('other', RULE, T0)).toBeUndefined();
  });

  it('are swept once full again, and never hold more keys than their bound', () => {
    const buckets = new RateBuckets(3);
    for (const key of ['a', 'b', 'c']) buckets.take(key, RULE, T0);
    expect(buckets.size).toBe(3);
    buckets.sweep(T0 + 500);
    expect(buckets.size).toBe(3);
    buckets.sweep(T0 + 1000);
    expect(buckets.size).toBe(0);
    for (let i = 0; i < 50; i++) buckets.take(`key-${i}`, RULE, T0);
    expect(buckets.size).toBe(3);
  });
});

describe('callers and classes', () => {
  it('count an IPv6 address by its /64 and an IPv4 address as it is', () => {
    expect(networkOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:0DB8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(networkOf('192.0.2.7')).toBe('192.0.2.7');
  });

  it('put each request in its class, and leave probes and assets out', () => {
    const of = (method: string, path: string, query: Record<string, string> = {}) =>
      classOf({ method, path, query: () => query });
    expect(of('GET', '/api/v1/software')).toBe('read');
    expect(of('HEAD', '/software/abc')).toBe('read');
    expect(of('GET', '/llms.txt')).toBe('read');
    expect(of('GET', '/.well-known/reg-registry')).toBe('read');
    expect(of('POST', '/api/v1/artifacts/identify')).toBe('read');
    expect(of('POST', '/api/v1/software')).toBe('write');
    expect(of('DELETE', '/api/v1/software/abc')).toBe('write');
    expect(of('POST', '/api/v1/peers/announce')).toBe('write');
    expect(of('POST', '/sparql')).toBe('sparql');
    expect(of('POST', '/mcp')).toBe('mcp');
    expect(of('GET', '/api/v1/search', { q: 'x' })).toBe('read');
    expect(of('GET', '/api/v1/search', { q: 'x', federated: 'true' })).toBe('federated');
    expect(of('GET', '/api/v1/search', { q: 'x', fed_id: 'abc' })).toBe('federated');
    expect(of('GET', '/api/v1/resolve', { iri: 'https://elsewhere.test/x' })).toBe('federated');
    expect(of('POST', '/api/v1/peers')).toBe('outbound');
    expect(of('POST', '/api/v1/software/abc/sync')).toBe('outbound');
    expect(of('GET', '/api/v1/software/abc/api-doc')).toBe('outbound');
    for (const path of ['/healthz', '/readyz', '/metrics', '/assets/index-1a2b.js'])
      expect(of('GET', path), path).toBeUndefined();
  });
});
