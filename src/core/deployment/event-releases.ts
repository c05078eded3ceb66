/**
 * The releases deployment events name: found among the software's releases by image digest or version, and
 * registered under the software when an event names both a version and a digest that no release carries yet.
 */
import { DCT, REG, SCHEMA } from '../ns.js';
import { mintIri } from '../records/ids.js';
import type { JsonObject } from '../records/mapper.js';
import { RELEASE, SOFTWARE } from '../records/specs.js';
import type { Core } from '../core.js';
import {
  recordsLinkingTo,
  valueOf,
  valuesOf,
  type AlsoStating,
  type FoundRecord,
} from '../stored/stating.js';
import { createRecord, readStored } from '../stored/records.js';
import type { Act } from '../stored/write-path.js';
import { imageOf, type PackageUrl, type ReleaseHint } from './purl.js';

/** A release an event resolved to, with its version, and whether the event registered it. */
export interface EventRelease {
  readonly iri: string;
  readonly version: string | null;
  readonly created: boolean;
}

/**
 * The newest live release of `software` the hint names: the one with its image digest, else (when the hint has
 * a version) one with that version whose digest, if it has one, is not another.
 */
export async function findRelease(
  core: Core,
  software: string,
  hint: ReleaseHint,
): Promise<EventRelease | undefined> {
  const newest = async (also: AlsoStating, keep: (release: FoundRecord) => boolean) =>
    (await recordsLinkingTo(core, DCT('isVersionOf'), software, [REG('Release')], also)).filter(keep).at(-1);
  const found =
    (hint.digest === undefined
      ? undefined
      : await newest({ predicate: REG('imageDigest'), value: hint.digest, caseless: true }, () => true)) ??
    (hint.version === undefined
      ? undefined
      : await newest(
          { predicate: SCHEMA('softwareVersion'), value: hint.version },
          // With a digest in the hint, a release carrying a digest is another image.
          ({ iri, about }) =>
            hint.digest === undefined || valuesOf(about, iri, REG('imageDigest')).length === 0,
        ));
  if (found === undefined) return undefined;
  return {
    iri: found.iri,
    version: valueOf(found.about, found.iri, SCHEMA('softwareVersion')) ?? null,
    created: false,
  };
}

/**
 * The release an event names, registering it under `software` (as `release.create` of the event's sender) when
 * none matches and the event gives both a version and an image digest, or (for a published artifact) a version.
 * Undefined when nothing matches and nothing can be registered, or the software is withdrawn.
 */
export async function releaseOfEvent(
  core: Core,
  act: Act,
  software: string,
  purl: PackageUrl,
  hint: ReleaseHint,
  published: boolean,
): Promise<EventRelease | undefined> {
  const found = await findRelease(core, software, hint);
  if (found !== undefined) return found;
  if (hint.version === undefined || (hint.digest === undefined && !published)) return undefined;
  const owner = await readStored(core, SOFTWARE, software);
  if (owner === undefined || owner.tombstoned) return undefined;
  const image = imageOf(purl, undefined);
  const fields: JsonObject = {
    version: hint.version,
    ...(hint.digest === undefined ? {} : { image_digest: hint.digest }),
    ...(image === undefined ? {} : { container_image: image }),
  };
  const iri = mintIri(core.config.baseIri, RELEASE.path);
  await createRecord(core, RELEASE, iri, fields, { software }, { act, action: 'release.create' });
  return { iri, version: hint.version, created: true };
}
