import { describe, expect, it } from 'vitest';
import {
  digestResponse,
  HttpAuthenticator,
  parseChallenges,
} from '../../src/core/store/graph/external/http-auth.js';

// The worked example of RFC 7616 §3.9.1.
const RFC = {
  username: 'Mufasa',
  password: 'Circle of Life',
  realm: 'http-auth@example.org',
  nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
  cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
  nc: '00000001',
  method: 'GET',
  uri: '/dir/index.html',
  qop: 'auth' as const,
  sess: false,
};

describe('Digest responses (RFC 7616)', () => {
  it('computes the MD5 and SHA-256 responses of the RFC example', () => {
    expect(digestResponse({ ...RFC, hash: 'md5' })).toBe('8ca523f5e9506fed4657c9700eebdbec');
    expect(digestResponse({ ...RFC, hash: 'sha256' })).toBe(
      '753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1',
    );
  });

  it('answers the strongest challenge offered, counting requests per nonce', () => {
    const auth = new HttpAuthenticator({ kind: 'basic', username: RFC.username, password: RFC.password });
    expect(auth.authorization('GET', RFC.uri)).toBeUndefined();
    const header =
      `Digest realm="${RFC.realm}", qop="auth, auth-int", algorithm=SHA-256, nonce="${RFC.nonce}", opaque="FQhe", ` +
      `Digest realm="${RFC.realm}", qop="auth", algorithm=MD5, nonce="${RFC.nonce}", opaque="FQhe"`;
    expect(auth.challenge(header)).toBe(true);
    const first = parseChallenges(auth.authorization('GET', RFC.uri) ?? '')[0]!;
    expect(first.scheme).toBe('digest');
    expect(first.params).toMatchObject({ algorithm: 'SHA-256', nc: '00000001', qop: 'auth', opaque: 'FQhe' });
    expect(first.params.response).toBe(
      digestResponse({ ...RFC, hash: 'sha256', cnonce: first.params.cnonce! }),
    );
    const second = parseChallenges(auth.authorization('POST', '/sparql') ?? '')[0]!;
    expect(second.params.nc).toBe('00000002');
    // The same nonce refused again means wrong credentials: no more tries. A stale one gets a fresh answer.
    expect(auth.challenge(header)).toBe(false);
    expect(auth.challenge(`Digest realm="r", qop="auth", nonce="fresh", stale=true`)).toBe(true);
    expect(parseChallenges(auth.authorization('GET', '/') ?? '')[0]!.params).toMatchObject({
      algorithm: 'MD5',
      nonce: 'fresh',
      nc: '00000001',
    });
  });

  it('falls back to Basic when that is all the server asks for, and never answers without credentials', () => {
    const auth = new HttpAuthenticator({ kind: 'basic', username: 'u', password: 'p ä' });
    expect(auth.challenge('Basic realm="SPARQL", charset="UTF-8"')).toBe(true);
    expect(auth.authorization('POST', '/sparql')).toBe(`Basic ${Buffer.from('u:p ä').toString('base64')}`);
    expect(auth.challenge('Basic realm="SPARQL"')).toBe(false);
    const none = new HttpAuthenticator({ kind: 'none' });
    expect(none.challenge('Basic realm="x"')).toBe(false);
    expect(none.authorization('GET', '/')).toBeUndefined();
    const bearer = new HttpAuthenticator({ kind: 'bearer', token: 't0k3n' });
    expect(bearer.authorization('GET', '/')).toBe('Bearer t0k3n');
    expect(bearer.challenge('Bearer realm="x"')).toBe(false);
  });

  it('parses several challenges, quoted strings and escapes', () => {
    expect(
      parseChallenges('Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"'),
    ).toEqual([
      { scheme: 'newauth', params: { realm: 'apps', type: '1', title: 'Login to "apps"' } },
      { scheme: 'basic', params: { realm: 'simple' } },
    ]);
  });
});
