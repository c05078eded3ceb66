/**
 * Projects a software record into the interchange shape of the life-science tool catalogue (bio.tools JSON):
 * names, tool types, topics, functions from the capability's EDAM data terms, licence, documentation,
 * downloads, links and credits.
 */
import { GRAPHS, REG } from '../ns.js';
import type { Json, JsonObject } from '../records/mapper.js';
import { RELEASE } from '../records/specs.js';
import type { Core } from '../core.js';
import { readStored } from '../stored/records.js';
import { getSoftware } from './software.js';

/** Catalogue tool types of the registry's software kinds. */
const TOOL_TYPES: Readonly<Record<string, string>> = {
  service: 'Web service',
  cli: 'Command-line tool',
  library: 'Library',
  workflow: 'Workflow',
  desktop: 'Desktop application',
};

/** Credit entity types of agent kinds (software agents have none in the catalogue). */
const ENTITY_TYPES: Readonly<Record<string, string>> = { person: 'Person', organization: 'Institute' };

// The catalogue has a field of its own for ORCID iDs; any other identifier IRI goes in `url`.
const ORCID_PREFIX = 'https://orcid.org/';

/** The software record in the catalogue's JSON shape; 404 when there is no such software. */
export async function exportCatalogue(core: Core, id: string): Promise<JsonObject> {
  const software = await getSoftware(core, id);
  const text = (key: string): string | undefined => {
    const value = software[key];
    return typeof value === 'string' ? value : undefined;
  };
  const name = text('name') ?? '';
  const description = text('description') ?? text('tagline');
  const latest = objectOf(software.latest_release);
  const version = typeof latest?.version === 'string' ? latest.version : undefined;
  const licence = text('license');
  const iri = text('iri') ?? '';
  return {
    name,
    biotoolsID: catalogueId(name),
    ...(description === undefined ? {} : { description }),
    homepage: text('homepage') ?? text('code_repository') ?? iri,
    version: version === undefined ? [] : [version],
    toolType: stringsOf(software.kinds).flatMap((kind) => {
      const type = TOOL_TYPES[kind];
      return type === undefined ? [] : [type];
    }),
    topic: objectsOf(software.topics).map(term),
    function: functions(core, objectOf(software.capability)),
    ...(licence === undefined ? {} : { license: licenceId(core, licence) }),
    documentation: [
      ...optional(text('documentation'), (url) => ({ url, type: ['General'] })),
      ...objectsOf(software.api_docs).map((doc) => ({ url: doc.url ?? null, type: ['API documentation'] })),
    ],
    download: [
      ...optional(text('download_url'), (url) => ({ url, type: 'Binaries' })),
      ...(await releaseDownloads(core, latest)),
    ],
    link: [
      ...optional(text('code_repository'), (url) => ({ url, type: ['Repository'] })),
      { url: iri, type: ['Registry'] },
    ],
    credit: [
      ...optional(objectOf(software.publisher), (agent) => credit(agent, 'Provider')),
      ...optional(objectOf(software.contact), (agent) => credit(agent, 'Primary contact')),
    ],
    publication: [],
  };
}

/** A catalogue id from the name: lower case, with runs of other characters than `[a-z0-9_.-]` as `_`. */
function catalogueId(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The SPDX short id (the IRI's last segment) of a bundled SPDX licence; `Other` for any other licence. */
function licenceId(core: Core, iri: string): string {
  return core.reference.index.get(iri)?.graph === GRAPHS.spdx ? iri.slice(iri.lastIndexOf('/') + 1) : 'Other';
}

/** One function whose inputs are the consumed and outputs the produced EDAM data terms; none without any. */
function functions(core: Core, capability: JsonObject | undefined): Json[] {
  const edamData = (value: Json | undefined): JsonObject[] =>
    objectsOf(value)
      .filter((ref) => {
        const iri = typeof ref.iri === 'string' ? ref.iri : '';
        return (
          core.reference.index.get(iri)?.graph === GRAPHS.edam &&
          core.reference.index.hasClass(iri, REG('ArtifactType'))
        );
      })
      .map((ref) => ({ data: term(ref) }));
  const input = edamData(capability?.consumes);
  const output = edamData(capability?.produces);
  return input.length === 0 && output.length === 0 ? [] : [{ operation: [], input, output }];
}

async function releaseDownloads(core: Core, latest: JsonObject | undefined): Promise<JsonObject[]> {
  if (typeof latest?.iri !== 'string') return [];
  const release = await readStored(core, RELEASE, latest.iri);
  return objectsOf(release?.json.downloads)
    .filter((download) => download.availability !== 'metadata-only' && typeof download.url === 'string')
    .map((download) => ({
      url: download.url ?? null,
      type: 'Binaries',
      ...(typeof latest.version === 'string' ? { version: latest.version } : {}),
    }));
}

function credit(agent: JsonObject, role: string): JsonObject {
  const identifier = typeof agent.identifier === 'string' ? agent.identifier : undefined;
  const entity = typeof agent.kind === 'string' ? ENTITY_TYPES[agent.kind] : undefined;
  const url =
    identifier !== undefined && /^https?:\/\//.test(identifier) && !identifier.startsWith(ORCID_PREFIX)
      ? identifier
      : agent.homepage;
  return {
    name: agent.name ?? null,
    ...(entity === undefined ? {} : { typeEntity: entity }),
    typeRole: [role],
    ...(identifier?.startsWith(ORCID_PREFIX) === true ? { orcidid: identifier } : {}),
    ...(typeof url === 'string' ? { url } : {}),
    ...(typeof agent.email === 'string' ? { email: agent.email } : {}),
  };
}

function term(ref: JsonObject): JsonObject {
  return { uri: ref.iri ?? null, ...(typeof ref.label === 'string' ? { term: ref.label } : {}) };
}

function optional<T, R>(value: T | undefined, map: (value: T) => R): R[] {
  return value === undefined ? [] : [map(value)];
}

function objectOf(value: Json | undefined): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

function objectsOf(value: Json | undefined): JsonObject[] {
  return Array.isArray(value) ? value.flatMap((item) => optional(objectOf(item), (object) => object)) : [];
}

function stringsOf(value: Json | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
