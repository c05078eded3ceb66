/**
 * Software and releases as CodeMeta 3 (`codemeta.json`) and as the Citation File Format, read through the
 * catalogue's own read services so that both say what the API says.
 */
import { getRelease } from '../catalogue/releases.js';
import { getSoftware } from '../catalogue/software.js';
import { NotFoundError } from '../errors.js';
import { isObject } from '../records/json.js';
import type { Json, JsonObject } from '../records/mapper.js';
import { iriOf } from '../stored/records.js';
import type { Core } from '../core.js';
import { agentIri, present, text } from './crate-entities.js';
import { CODEMETA_CONTEXT, spdxLicense } from './terms.js';

/** A software record, and one of its releases when a release is asked for. */
export interface SoftwareAndRelease {
  readonly software: JsonObject;
  readonly release: JsonObject | undefined;
}

/** Reads a software record and, when `releaseId` is given, that release of it (a release of another is a 404). */
export async function readSoftwareAndRelease(
  core: Core,
  softwareId: string,
  releaseId?: string,
): Promise<SoftwareAndRelease> {
  const software = await getSoftware(core, softwareId);
  if (releaseId === undefined) return { software, release: undefined };
  const release = await getRelease(core, releaseId);
  if (release.software !== software.iri)
    throw new NotFoundError(`no release ${releaseId} of software ${iriOf(core, 'software', softwareId)}`);
  return { software, release };
}

/** The CodeMeta type of an agent as the registry records its kind. */
const AGENT_TYPES: Readonly<Record<string, string>> = {
  person: 'Person',
  organization: 'Organization',
  software: 'SoftwareApplication',
};

function agent(value: Json | undefined): JsonObject | undefined {
  if (!isObject(value) || text(value.name) === undefined) return undefined;
  const iri = agentIri(value);
  return present({
    type: AGENT_TYPES[text(value.kind) ?? 'organization'] ?? 'Organization',
    id: iri,
    name: text(value.name),
    email: text(value.email),
    url: text(value.homepage),
  });
}

/**
 * `codemeta.json` of a software record, or of one release of it: CodeMeta 3 with the record's IRI as its
 * identifier, the licence as an SPDX IRI, the software's addresses, categories, keywords and agents, and for a
 * release its version, date and download.
 */
export function codeMetaOf({ software, release }: SoftwareAndRelease): JsonObject {
  const downloads = (Array.isArray(release?.downloads) ? release.downloads : []).filter(isObject);
  const iri = text(release?.iri) ?? text(software.iri);
  const keywords = Array.isArray(software.keywords) ? software.keywords : [];
  const kinds = Array.isArray(software.kinds) ? software.kinds : [];
  const publisher = agent(software.publisher);
  const maintainer = agent(software.contact);
  return {
    '@context': CODEMETA_CONTEXT,
    type: 'SoftwareSourceCode',
    ...present({
      id: iri,
      identifier: iri,
      name: text(software.name),
      description: text(software.description) ?? text(software.tagline),
      codeRepository: text(software.code_repository),
      url: text(software.homepage),
      license: licenseOf(software),
      version: text(release?.version),
      softwareVersion: text(release?.version),
      developmentStatus: text(software.maturity),
      keywords,
      applicationCategory: kinds,
      softwareHelp: text(software.documentation),
      downloadUrl: text(downloads[0]?.url) ?? text(software.download_url),
      releaseNotes: text(release?.changelog),
      publisher,
      maintainer,
      isPartOf: release === undefined ? undefined : text(software.iri),
      dateCreated: text(release?.created) ?? text(software.created),
      dateModified: text(release?.modified) ?? text(software.modified),
      datePublished: text(release?.date_published),
    }),
  };
}

/** The software's licence, a licence of the SPDX list under its `https://spdx.org/licenses/` IRI. */
function licenseOf(software: JsonObject): string | undefined {
  const license = text(software.license);
  return license === undefined ? undefined : spdxLicense(license);
}
