import { describe, expect, it } from 'vitest';
import { imageOf, parsePurl, releaseHintOf } from '../../src/core/deployment/purl.js';

const DIGEST = `sha256:${'0b31b1c02ff458ad9b7b81cbdf8f028bd54699fa151f221d1e8de6817db93427'}`;

describe('package URLs of deployment events', () => {
  it('reads an OCI image by digest, with its tag as the version and its repository', () => {
    const purl = parsePurl(
      `pkg:oci/myapp@${DIGEST.replace(':', '%3A')}?repository_url=ghcr.io/example/myapp&tag=1.4.0`,
    );
    expect(purl).toEqual({
      type: 'oci',
      namespace: undefined,
      name: 'myapp',
      version: DIGEST,
      qualifiers: { repository_url: 'ghcr.io/example/myapp', tag: '1.4.0' },
    });
    expect(releaseHintOf(purl!)).toEqual({ version: '1.4.0', digest: DIGEST });
    expect(imageOf(purl!, undefined)).toBe('ghcr.io/example/myapp');
  });

  it('takes no version from an OCI digest alone, nor from the tag latest', () => {
    expect(releaseHintOf(parsePurl(`pkg:oci/myapp@${DIGEST.replace(':', '%3A')}`)!)).toEqual({
      version: undefined,
      digest: DIGEST,
    });
    expect(releaseHintOf(parsePurl(`pkg:oci/myapp@${DIGEST.replace(':', '%3A')}?tag=latest`)!).version).toBe(
      undefined,
    );
  });

  it('reads the version of other types, with namespaces, and a digest qualifier', () => {
    const purl = parsePurl('pkg:golang/mygit.com/myorg/myapp@234fd47e07d1004f0aed9c');
    expect(purl).toMatchObject({ type: 'golang', namespace: 'mygit.com/myorg', name: 'myapp' });
    expect(releaseHintOf(purl!)).toEqual({ version: '234fd47e07d1004f0aed9c', digest: undefined });
    expect(imageOf(purl!, undefined)).toBeUndefined();
    const npm = parsePurl(`pkg:npm/%40scope/tool@2.0.1?digest=${DIGEST}`);
    expect(npm).toMatchObject({ namespace: '@scope', name: 'tool', version: '2.0.1' });
    expect(releaseHintOf(npm!)).toEqual({ version: '2.0.1', digest: DIGEST });
  });

  it('refuses what is not a package URL', () => {
    for (const text of [
      'ghcr.io/example/myapp:1.0',
      'https://example.org/pkg:oci/x',
      'pkg:oci',
      'pkg:oci/',
      'pkg:oci/name@',
      'pkg:oci/name?=x',
      'pkg:oci/name@%E0%A4%A',
    ])
      expect(parsePurl(text), text).toBeUndefined();
  });
});
