/**
 * What the registry reads from a code forge, in one shape whatever the forge: a snapshot of a repository's
 * description, homepage, licence, topics, avatar, README and releases. The forge modules fill it; the sync
 * service maps it onto the fields a software record lets a sync manage.
 */

/** The code forges a software record can be synced from. */
export const FORGE_SOURCES = ['github', 'gitlab'] as const;

/** A code forge the registry syncs from. */
export type ForgeSource = (typeof FORGE_SOURCES)[number];

/** One release as the forge lists it. */
export interface ForgeRelease {
  /** The tag the release is made from, as the forge names it (`v1.2.0`). */
  readonly tag: string;
  /** Publication date, `YYYY-MM-DD`, when the forge gives one. */
  readonly date?: string;
  /** The release's page at the forge. */
  readonly url?: string;
}

/** The licence a repository states, as the forge identifies it. */
export type ForgeLicense =
  /** The forge identified an SPDX licence (GitHub's `spdx_id`, GitLab's licence key). */
  | { readonly kind: 'spdx'; readonly id: string }
  /** A licence file the forge could not identify (`NOASSERTION`, `other`). */
  | { readonly kind: 'unidentified'; readonly name: string };

/** A repository's README: its text and the URL relative paths in it resolve against. */
export interface ForgeReadme {
  readonly text: string;
  readonly baseUrl?: string;
}

/** A repository as one sync run reads it. */
export interface ForgeSnapshot {
  readonly description?: string;
  readonly homepage?: string;
  /** Undefined when the repository states no licence. */
  readonly license?: ForgeLicense;
  readonly topics: readonly string[];
  readonly archived: boolean;
  /** The repository's avatar (or its owner's). */
  readonly image?: string;
  /** Null when the repository has no README; undefined when it was not asked for. */
  readonly readme?: ForgeReadme | null;
  /** Undefined when releases were not asked for. */
  readonly releases?: readonly ForgeRelease[];
}

/** The parts of a repository beyond its main description a sync run needs. */
export interface ForgeWants {
  readonly readme: boolean;
  readonly releases: boolean;
}

/** A forge's REST API, as the sync service uses it. */
export interface Forge {
  readonly source: ForgeSource;
  /** Reads a repository (`owner/name`, or `group/subgroup/name` on GitLab). */
  snapshot(repo: string, wants: ForgeWants): Promise<ForgeSnapshot>;
}

/** How a forge request failed, for the message on the record and for the scheduler's backoff. */
export type ForgeFailure =
  'not-found' | 'unauthorized' | 'forbidden' | 'rate-limited' | 'failed' | 'unreachable';

/** A forge request that did not give what the sync needs. The message never carries a credential. */
export class ForgeError extends Error {
  constructor(
    readonly failure: ForgeFailure,
    message: string,
    /** Until when the forge asked not to be called again (rate limits). */
    readonly until?: Date,
  ) {
    super(message);
    this.name = 'ForgeError';
  }
}
