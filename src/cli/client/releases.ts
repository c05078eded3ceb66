import { Flags } from '@oclif/core';
import type { ListPage, ReleaseJson } from '../../api/index.js';
import type { HttpClient, JsonObject } from './http.js';
import type { Column } from './table.js';

export type { ReleaseJson } from '../../api/index.js';

/** What `reg releases delete` prints under --json: the API answers 204, so the command reports what it did. */
export interface ReleaseWithdrawal {
  readonly software: string;
  readonly id: string;
  readonly withdrawn: true;
}

const releasesOf = (software: string): string => `/api/v1/software/${encodeURIComponent(software)}/releases`;

/** The releases of a software (id or IRI), newest registered first; the API answers them all at once. */
export function listReleases(http: HttpClient, software: string): Promise<ListPage<ReleaseJson>> {
  return http.request<ListPage<ReleaseJson>>('GET', releasesOf(software));
}

/** Registers a release of a software; the API answers with the full record. */
export function createRelease(http: HttpClient, software: string, body: JsonObject): Promise<ReleaseJson> {
  return http.request<ReleaseJson>('POST', releasesOf(software), { body });
}

/** Withdraws (tombstones) a release through its own software. */
export async function withdrawRelease(
  http: HttpClient,
  software: string,
  release: string,
): Promise<ReleaseWithdrawal> {
  await http.request('DELETE', `${releasesOf(software)}/${encodeURIComponent(release)}`);
  return { software, id: release, withdrawn: true };
}

/** Flags for the fields of a new release. */
export const releaseFields = {
  file: Flags.string({
    char: 'f',
    description: 'JSON release to send (- for standard input); field flags override it',
  }),
  version: Flags.string({
    description: 'version string of the release (required, in the flags or the file)',
  }),
  'date-published': Flags.string({ description: 'day the release was published, such as 2026-01-31' }),
  'container-image': Flags.string({
    description: 'container image reference, such as ghcr.io/org/tool:1.2.0',
  }),
  'image-digest': Flags.string({ description: 'digest of the container image, such as sha256:0123…' }),
  'install-command': Flags.string({ description: 'command that installs this release' }),
  changelog: Flags.string({ description: 'URL of the release notes' }),
  swhid: Flags.string({
    description: 'Software Heritage identifier of the release source, such as swh:1:rel:… (repeatable)',
    multiple: true,
  }),
  download: Flags.string({
    description: 'URL a build of the release is downloaded from (repeatable)',
    multiple: true,
  }),
  produces: Flags.string({
    description: 'artifact type (IRI) the release produces (repeatable)',
    multiple: true,
  }),
  consumes: Flags.string({
    description: 'artifact type (IRI) the release consumes (repeatable)',
    multiple: true,
  }),
};

/** The release fields the flags set; undefined ones are left out of the body. */
export function releaseBody(flags: {
  version?: string | undefined;
  'date-published'?: string | undefined;
  'container-image'?: string | undefined;
  'image-digest'?: string | undefined;
  'install-command'?: string | undefined;
  changelog?: string | undefined;
  swhid?: string[] | undefined;
  download?: string[] | undefined;
  produces?: string[] | undefined;
  consumes?: string[] | undefined;
}): Record<string, unknown> {
  const capability =
    flags.produces === undefined && flags.consumes === undefined
      ? undefined
      : { produces: flags.produces ?? [], consumes: flags.consumes ?? [] };
  return {
    version: flags.version,
    date_published: flags['date-published'],
    container_image: flags['container-image'],
    image_digest: flags['image-digest'],
    install_command: flags['install-command'],
    changelog: flags.changelog,
    swhids: flags.swhid,
    downloads: flags.download?.map((url) => ({ url })),
    capability,
  };
}

/** The capability of a release as a short line: what it produces and consumes, by label. */
function capabilityOf(release: ReleaseJson): string | undefined {
  const capability = release.capability as
    | {
        produces?: readonly { label?: string; iri: string }[];
        consumes?: readonly { label?: string; iri: string }[];
      }
    | undefined;
  const names = (terms: readonly { label?: string; iri: string }[] | undefined): string =>
    (terms ?? []).map((term) => term.label ?? term.iri).join(',');
  const parts = [
    names(capability?.produces) === '' ? '' : `produces ${names(capability?.produces)}`,
    names(capability?.consumes) === '' ? '' : `consumes ${names(capability?.consumes)}`,
  ].filter((part) => part !== '');
  return parts.length === 0 ? undefined : parts.join('; ');
}

/** Columns of `reg releases list`. */
export const RELEASE_COLUMNS: readonly Column<ReleaseJson>[] = [
  { header: 'VERSION', value: (row) => row.version, min: 8 },
  { header: 'PUBLISHED', value: (row) => row.date_published },
  { header: 'IMAGE', value: (row) => row.container_image, min: 12 },
  { header: 'CAPABILITY', value: capabilityOf, min: 12 },
  { header: 'ID', value: (row) => row.id, min: 36 },
];
