/**
 * Package URLs (purl, https://github.com/package-url/purl-spec) as deployment events name artifacts with them:
 * `pkg:oci/myapp@sha256%3A0b31…?repository_url=ghcr.io/org/myapp&tag=1.4.0`. Only what a deployment needs is
 * read: the type, name, version and qualifiers, and from them a version string and an image digest.
 */

/** The parts of a package URL. */
export interface PackageUrl {
  readonly type: string;
  readonly namespace: string | undefined;
  readonly name: string;
  readonly version: string | undefined;
  readonly qualifiers: Readonly<Record<string, string>>;
}

/** What a package URL says about a release: its version string and, for an image, its digest. */
export interface ReleaseHint {
  readonly version: string | undefined;
  readonly digest: string | undefined;
}

const DIGEST = /^sha(256|384|512):[0-9a-f]{64,128}$/;

const decode = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
};

/** Reads a package URL; undefined when the text is not one (no `pkg:` scheme, no type or no name). */
export function parsePurl(text: string): PackageUrl | undefined {
  const match = /^pkg:\/*([A-Za-z.+-][A-Za-z0-9.+-]*)\/([^?#@]*?)(?:@([^?#]+))?(?:\?([^#]*))?(?:#.*)?$/.exec(
    text,
  );
  if (match === null) return undefined;
  const [, type, path = '', rawVersion, rawQualifiers] = match;
  const segments = path.split('/').filter((segment) => segment !== '');
  const name = decode(segments.pop() ?? '');
  if (type === undefined || name === undefined || name === '') return undefined;
  const version = rawVersion === undefined ? undefined : decode(rawVersion);
  if (rawVersion !== undefined && (version === undefined || version === '')) return undefined;
  const qualifiers: Record<string, string> = {};
  for (const pair of (rawQualifiers ?? '').split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const value = at < 0 ? undefined : decode(pair.slice(at + 1));
    if (at <= 0 || value === undefined) return undefined;
    qualifiers[pair.slice(0, at).toLowerCase()] = value;
  }
  const namespace = segments.length === 0 ? undefined : segments.map((s) => decode(s) ?? s).join('/');
  return { type: type.toLowerCase(), namespace, name, version, qualifiers };
}

/**
 * The version and digest a package URL names. An OCI image's purl version is its digest, and its version string
 * comes from the `tag` qualifier (`latest` names no version); other types carry their version as the purl's
 * version, and a digest, if any, in a `digest` qualifier.
 */
export function releaseHintOf(purl: PackageUrl): ReleaseHint {
  const tagged = purl.qualifiers.tag === 'latest' ? undefined : purl.qualifiers.tag;
  const digestOf = (value: string | undefined) =>
    value !== undefined && DIGEST.test(value.toLowerCase()) ? value.toLowerCase() : undefined;
  const versionDigest = digestOf(purl.version);
  return {
    version: versionDigest === undefined ? (purl.version ?? tagged) : tagged,
    digest: versionDigest ?? digestOf(purl.qualifiers.digest),
  };
}

/** The image reference a purl of type `oci` names (`repository_url` or its name, with the digest), else undefined. */
export function imageOf(purl: PackageUrl, digest: string | undefined): string | undefined {
  if (purl.type !== 'oci' && purl.type !== 'docker') return undefined;
  const repository = purl.qualifiers.repository_url ?? [purl.namespace, purl.name].filter(Boolean).join('/');
  return digest === undefined ? repository : `${repository}@${digest}`;
}
