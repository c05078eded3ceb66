import ox from 'oxigraph';
import { describe, expect, it } from 'vitest';
import { iriProblem, isIpv6, isRfc3987Iri } from '../../src/core/records/iri.js';
import { isAbsoluteIri } from '../../src/core/records/mapper.js';

/** A small seeded generator (mulberry32), so every run tries the same candidates. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Code points at and around every boundary of the RFC 3987 ranges, every ASCII character, and lone surrogates. */
const SPECIAL = [
  ...Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)),
  ...[0x80, 0x85, 0x9f, 0xa0, 0xff, 0x100, 0xd7ff, 0xe000, 0xf8ff, 0xf900, 0xfdcf, 0xfdd0, 0xfdef, 0xfdf0]
    .concat([0xffef, 0xfff0, 0xfffd, 0xfffe, 0xffff, 0x10000, 0x1fffd, 0x1fffe, 0x1ffff, 0xe0000, 0xe1000])
    .concat([0xefffd, 0xf0000, 0xffffd, 0x100000, 0x10fffd, 0x10ffff])
    .map((code) => String.fromCodePoint(code)),
  '\ud800',
  '\udfff',
  '\ud83d',
  '%',
  '%4',
  '%zz',
  '%41',
  '%e9',
  '%C3%A9',
];
const SCHEMES = ['http', 'https', 'urn', 'a', 'x+y.z-w', 's3', 'HTTP', '', '1a', 'a b', 'a_b', 'é'];
const HOSTS = [
  'example.org',
  '',
  '127.0.0.1',
  '[::1]',
  '[1:2:3:4:5:6:7:8]',
  '[::ffff:1.2.3.4]',
  '[1::2::3]',
  '[1:2:3:4:5:6:7:8:9]',
  '[::256.1.1.1]',
  '[v1.abc]',
  '[zz]',
  '[1.2.3.4]',
  'exa mple.org',
  'dé.org',
  'a%41b',
  'a%zz',
];

function candidate(next: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const piece = (): string => {
    const length = Math.floor(next() * 4);
    let text = '';
    for (let i = 0; i < length; i++)
      text += next() < 0.5 ? pick(SPECIAL) : pick(['a', 'b', '0', '-', '.', '~']);
    return text;
  };
  let iri = `${pick(SCHEMES)}:`;
  if (next() < 0.6) {
    iri += '//';
    if (next() < 0.2) iri += `${piece()}@`;
    iri += pick(HOSTS);
    if (next() < 0.3) iri += `:${pick(['80', '', '8a', '99999'])}`;
  }
  const segments = Math.floor(next() * 4);
  for (let i = 0; i < segments; i++) iri += `${next() < 0.8 ? '/' : ''}${piece()}`;
  if (next() < 0.3) iri += `?${piece()}${piece()}`;
  if (next() < 0.3) iri += `#${piece()}${next() < 0.1 ? '#' : ''}`;
  return iri;
}

function oxigraphAccepts(value: string): boolean {
  try {
    ox.namedNode(value);
    return true;
  } catch {
    return false;
  }
}

describe('the IRI syntax check', () => {
  it('accepts nothing that the query index (oxigraph) refuses, over 30,000 generated candidates', () => {
    const next = random(3987);
    const candidates = Array.from({ length: 30_000 }, () => candidate(next));
    const accepted = candidates.filter(isRfc3987Iri);
    const refusedByIndex = accepted.filter((value) => !oxigraphAccepts(value));
    expect(refusedByIndex.map((value) => JSON.stringify(value)).slice(0, 10)).toEqual([]);
    // The candidates test both sides: many pass, many fail, and the index refuses many of those that fail.
    expect(accepted.length).toBeGreaterThan(3000);
    expect(candidates.length - accepted.length).toBeGreaterThan(3000);
    expect(candidates.filter((value) => !oxigraphAccepts(value)).length).toBeGreaterThan(3000);
    // Everything accepted has a text the check explains as fine, and everything refused is explained.
    expect(accepted.every((value) => iriProblem(value) === undefined)).toBe(true);
    const refused = candidates.filter((value) => !isRfc3987Iri(value));
    expect(refused.every((value) => typeof iriProblem(value) === 'string')).toBe(true);
  });

  it('refuses the strings a hostile client sent as IRIs, each with a reason', () => {
    const hostile = {
      'http://a.test/%zz': /%/,
      'http://a.test/\u007f': /U\+007F/,
      'http://a.test/\u0085': /U\+0085/,
      'http://a.test/\ufffd': /U\+FFFD/,
      'http://a.test/\u0000': /U\+0000/,
      'http://a.test/\ud800': /U\+D800/,
      'http://a.test/x> <http://evil': /U\+0020|"<"|">"/,
      'http://a.test/}': /"}"/,
      'http://a.test/"': /"""/,
      'no-scheme': /no scheme/,
      'http://a.test/#one#two': /RFC 3987/,
    };
    for (const [value, reason] of Object.entries(hostile)) {
      expect(isRfc3987Iri(value), value).toBe(false);
      expect(isAbsoluteIri(value), value).toBe(false);
      expect(iriProblem(value), value).toMatch(reason);
    }
  });

  it('accepts IRIs with characters beyond ASCII where RFC 3987 allows them', () => {
    for (const value of [
      'https://dé.example/chemin/é?q=ü#frag',
      'urn:uuid:01a21747-1f4b-748f-a380-4fecca66794a',
      'mailto:steward@example.org',
      's3://bucket/key%20with%20space',
      'http://[2001:db8::1]:8080/x',
      'https://example.org/?\u{e000}',
    ]) {
      expect(isRfc3987Iri(value), value).toBe(true);
      expect(oxigraphAccepts(value), value).toBe(true);
    }
  });

  it('reads IPv6 hosts as RFC 3986 writes them', () => {
    expect(
      ['::', '::1', '1::', '1:2:3:4:5:6:7:8', '1:2:3:4:5::1.2.3.4', '::ffff:10.0.0.1'].every(isIpv6),
    ).toBe(true);
    expect(
      [
        '1:2:3:4:5:6:7',
        '1::2::3',
        '1.2.3.4::',
        ':1',
        '12345::',
        '::1.2.3.256',
        '1:2:3:4:5:6:7::1.2.3.4',
      ].some(isIpv6),
    ).toBe(false);
  });
});
