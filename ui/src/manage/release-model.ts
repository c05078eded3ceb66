/** The release form's state and the request body it makes. */
import type { Availability } from '../api';
import { integer, rowsBody, text, type Body } from './body';
import { CAPABILITY_FIELDS, capabilityBody, NO_CAPABILITY, type CapabilityState } from './capability';
import { repeatedFields } from './repeated-group';

/** Every availability value, in words. */
const AVAILABILITY_LABELS = {
  public: 'Public',
  restricted: 'Restricted',
  embargoed: 'Embargoed',
  'metadata-only': 'Metadata only',
} satisfies Record<Availability, string>;

export const AVAILABILITY = Object.entries(AVAILABILITY_LABELS).map(([value, label]) => ({ value, label }));

export interface DownloadState {
  readonly url: string;
  readonly label: string;
  readonly platform: string;
  readonly byte_size: string;
  readonly availability: string;
}

export const EMPTY_DOWNLOAD: DownloadState = {
  url: '',
  label: '',
  platform: '',
  byte_size: '',
  availability: '',
};
const DOWNLOAD_MEMBERS = ['url', 'label', 'platform', 'byte_size', 'availability'] as const;

export interface ReleaseState {
  readonly version: string;
  readonly date_published: string;
  readonly container_image: string;
  readonly image_digest: string;
  readonly install_command: string;
  readonly changelog: string;
  readonly downloads: readonly DownloadState[];
  readonly capability: CapabilityState;
}

export const EMPTY_RELEASE: ReleaseState = {
  version: '',
  date_published: '',
  container_image: '',
  image_digest: '',
  install_command: '',
  changelog: '',
  downloads: [],
  capability: NO_CAPABILITY,
};

export function releaseBody(state: ReleaseState): Body {
  return {
    version: text(state.version),
    date_published: text(state.date_published),
    container_image: text(state.container_image),
    image_digest: text(state.image_digest),
    install_command: text(state.install_command),
    changelog: text(state.changelog),
    downloads: rowsBody(state.downloads, (download) => ({
      url: text(download.url),
      label: text(download.label),
      platform: text(download.platform),
      byte_size: integer(download.byte_size),
      availability: text(download.availability),
    })),
    capability: capabilityBody(state.capability),
  };
}

export function releaseFields(state: ReleaseState): string[] {
  return [
    'version',
    'date_published',
    'container_image',
    'image_digest',
    'install_command',
    'changelog',
    ...repeatedFields('downloads', state.downloads, DOWNLOAD_MEMBERS),
    ...CAPABILITY_FIELDS,
  ];
}
