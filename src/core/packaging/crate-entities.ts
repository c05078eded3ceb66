/**
 * The entities of a crate the registry writes, made from records as the API presents them: a run as a
 * `CreateAction`, an artifact as a `File` (one distribution) or a `Dataset` (none or several, each a
 * `DataDownload`), the software a deployment runs as the action's instrument, and agents.
 */
import { foldAlgorithm } from '../records/content-id.js';
import { isObject } from '../records/json.js';
import type { Json, JsonObject } from '../records/mapper.js';
import { schemaOrg } from './terms.js';

/** A JSON-LD node of a crate's `@graph`. */
export type CrateEntity = JsonObject & { '@id': string };

/** A reference to another entity of the crate. */
export function ref(id: string): JsonObject {
  return { '@id': id };
}

/** The string value of a member, if it is one. */
export function text(value: Json | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Only the members whose value is present. */
export function present(members: Record<string, Json | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(members))
    if (value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0))
      out[key] = value;
  return out;
}

/** The schema.org type of an agent as the registry records its kind. */
const AGENT_TYPES: Readonly<Record<string, string>> = {
  person: 'Person',
  organization: 'Organization',
  software: 'SoftwareApplication',
};

/** An agent of a record (`{name, kind, iri, …}`) as a contextual entity, under `fallback` when it has no IRI. */
export function agentEntity(agent: JsonObject, fallback: string): CrateEntity {
  return {
    '@id': agentIri(agent) ?? fallback,
    '@type': AGENT_TYPES[text(agent.kind) ?? 'person'] ?? 'Person',
    ...present({ name: text(agent.name), url: text(agent.homepage), email: text(agent.email) }),
  };
}

/** The action status of a run's status; an aborted run failed, and says so in `error`. */
export function actionStatusOf(status: string | undefined): JsonObject {
  switch (status) {
    case 'running':
      return { actionStatus: ref(schemaOrg('ActiveActionStatus')) };
    case 'failed':
      return { actionStatus: ref(schemaOrg('FailedActionStatus')) };
    case 'aborted':
      return { actionStatus: ref(schemaOrg('FailedActionStatus')), error: ABORTED };
    default:
      return { actionStatus: ref(schemaOrg('CompletedActionStatus')) };
  }
}

/** The `error` a crate gives a run that was stopped rather than one that broke. */
export const ABORTED = 'aborted';

/** One distribution of an artifact as the members of a `File` or `DataDownload`. */
function distributionMembers(item: JsonObject, withAccessUrl: boolean): JsonObject {
  const checksum = isObject(item.checksum) ? item.checksum : undefined;
  return present({
    name: text(item.title),
    contentUrl: text(item.download_url),
    url: withAccessUrl ? text(item.access_url) : undefined,
    encodingFormat: text(item.media_type),
    contentSize: typeof item.byte_size === 'number' ? item.byte_size.toString() : undefined,
    sha256:
      typeof checksum?.algorithm === 'string' && foldAlgorithm(checksum.algorithm) === 'sha256'
        ? text(checksum.value)
        : undefined,
  });
}

/**
 * An artifact as a data entity: a `File` when it has one distribution (its bytes), else a `Dataset` whose
 * distributions are `DataDownload`s. Contextual entities it refers to (its creators) are added to `more`.
 */
export function artifactEntity(artifact: JsonObject, more: CrateEntity[]): CrateEntity {
  const iri = str(artifact.iri);
  const distributions = (Array.isArray(artifact.distributions) ? artifact.distributions : []).filter(
    isObject,
  );
  const type = isObject(artifact.conforms_to) ? text(artifact.conforms_to.iri) : text(artifact.conforms_to);
  const creators = (Array.isArray(artifact.creators) ? artifact.creators : [])
    .filter(isObject)
    .map((agent, at) => agentEntity(agent, `${iri}#creator-${at + 1}`));
  more.push(...creators);
  const common = present({
    name: text(artifact.title),
    description: text(artifact.description),
    conformsTo: type === undefined ? undefined : ref(type),
    license: text(artifact.license) === undefined ? undefined : ref(str(artifact.license)),
    version: text(artifact.version),
    keywords:
      Array.isArray(artifact.keywords) && artifact.keywords.length > 0 ? artifact.keywords : undefined,
    datePublished: text(artifact.issued),
    url: text(artifact.landing_page),
    creator: creators.map((agent) => ref(agent['@id'])),
    isBasedOn: (Array.isArray(artifact.was_derived_from) ? artifact.was_derived_from : [])
      .filter((value): value is string => typeof value === 'string')
      .map(ref),
  });
  const [only] = distributions;
  if (distributions.length === 1 && only !== undefined)
    return { '@id': iri, '@type': 'File', ...distributionMembers(only, false), ...common };
  const downloads = distributions.map((item, at) => ({
    '@id': `${iri}#distribution-${at + 1}`,
    '@type': 'DataDownload',
    ...distributionMembers(item, true),
  }));
  more.push(...downloads);
  return {
    '@id': iri,
    '@type': 'Dataset',
    ...common,
    ...(downloads.length === 0 ? {} : { distribution: downloads.map((item) => ref(item['@id'])) }),
  };
}

/** An artifact the registry holds nothing readable about: only what the run's reference to it says. */
export function referenceEntity(item: JsonObject): CrateEntity {
  return { '@id': str(item.iri), '@type': 'Dataset', ...present({ name: text(item.title) }) };
}

/** A member that holds text (an IRI, an id) as a string; anything else as empty. */
export function str(value: Json | undefined): string {
  return typeof value === 'string' ? value : '';
}

/** The IRI an agent is known by: its identifier when that is an IRI (an ORCID, a ROR), else its node's IRI. */
export function agentIri(agent: JsonObject): string | undefined {
  const iriLike = (value: string | undefined) =>
    value !== undefined && /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : undefined;
  return iriLike(text(agent.identifier)) ?? iriLike(text(agent.iri));
}
