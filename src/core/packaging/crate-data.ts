/**
 * The data entities of a crate (a run's `object`s and `result`s) as the artifacts an advertisement sends, with
 * their distributions and creators.
 */
import { isAbsoluteIri, type JsonObject } from '../records/mapper.js';
import { asList, type CrateContext, refId, text, type Entity } from './crate-context.js';
import { str } from './crate-entities.js';
import { spdxLicense } from './terms.js';

const DATA_TYPES = new Set(['File', 'MediaObject', 'Dataset', 'CreativeWork']);
const DATA_MEMBERS = new Set([
  '@id',
  '@type',
  'name',
  'description',
  'encodingFormat',
  'contentSize',
  'contentUrl',
  'sha256',
  'license',
  'version',
  'keywords',
  'datePublished',
  'url',
  'creator',
  'author',
  'isBasedOn',
  'conformsTo',
  'distribution',
]);
const DOWNLOAD_MEMBERS = new Set([
  '@id',
  '@type',
  'name',
  'contentUrl',
  'url',
  'encodingFormat',
  'contentSize',
  'sha256',
]);
const AGENT_TYPES: Readonly<Record<string, string>> = {
  Person: 'person',
  Organization: 'organization',
  SoftwareApplication: 'software',
};
/** The members of an agent the registry records. */
export const AGENT_MEMBERS = new Set(['@id', '@type', 'name', 'url', 'email']);

/** A data entity as an artifact: its key is its `@id` (within this crate when the `@id` is relative). */
export function readArtifact(ctx: CrateContext, entity: Entity, crateKey: string): JsonObject {
  if (!entity.types.some((type) => DATA_TYPES.has(type)))
    ctx.refuse(
      ctx.field(entity, '@type'),
      `is ${entity.types.join(', ') || 'untyped'}; a run's object or result is recorded as a File, Dataset or CreativeWork`,
    );
  ctx.onlyMembers(entity, DATA_MEMBERS);
  const node = entity.node;
  const out: JsonObject = {
    external_key: isAbsoluteIri(entity.id) ? entity.id : `ro-crate:${crateKey}:${entity.id}`,
  };
  ctx.copyText(entity, 'name', out, 'title');
  ctx.copyText(entity, 'description', out, 'description');
  ctx.copyText(entity, 'version', out, 'version');
  ctx.copyTime(entity, 'datePublished', out, 'issued');
  const license = ctx.iriMember(entity, 'license');
  if (license !== undefined) out.license = spdxLicense(license);
  const landing = ctx.iriMember(entity, 'url');
  if (landing !== undefined) out.landing_page = landing;
  const keywords = node.keywords;
  if (keywords !== undefined) {
    const list = typeof keywords === 'string' ? keywords.split(',').map((word) => word.trim()) : keywords;
    if (Array.isArray(list) && list.every((word) => typeof word === 'string')) out.keywords = list;
    else ctx.refuse(ctx.field(entity, 'keywords'), 'must be text or a list of texts');
  }
  const types = formats(ctx, entity);
  if (types.conformsTo !== undefined) out.conforms_to = types.conformsTo;
  const creators = [...readAgents(ctx, entity, 'creator'), ...readAgents(ctx, entity, 'author')];
  if (creators.length > 0) out.creators = creators;
  const derived = node.isBasedOn === undefined ? [] : ctx.refsOf(entity, 'isBasedOn', node.isBasedOn);
  for (const id of derived)
    if (!isAbsoluteIri(id)) ctx.refuse(ctx.field(entity, 'isBasedOn'), `"${id}" is not an absolute IRI`);
  if (derived.length > 0) out.was_derived_from = derived.filter(isAbsoluteIri);
  const distributions: JsonObject[] = [];
  const own = distribution(ctx, entity, types.mediaType);
  if (own !== undefined) distributions.push(own);
  if (node.distribution !== undefined)
    for (const id of ctx.refsOf(entity, 'distribution', node.distribution)) {
      const download = ctx.entities.get(id);
      if (download === undefined) {
        ctx.refuse(ctx.field(entity, 'distribution'), `names "${id}", which the crate does not describe`);
        continue;
      }
      ctx.accounted.add(id);
      ctx.onlyMembers(download, DOWNLOAD_MEMBERS);
      const item = distribution(ctx, download, text(download.node.encodingFormat));
      if (item !== undefined) distributions.push(item);
    }
  if (distributions.length > 0) out.distributions = distributions;
  return out;
}

/** `encodingFormat`: a media type as text, or a format IRI (the artifact's type when `conformsTo` is absent). */
function formats(
  ctx: CrateContext,
  entity: Entity,
): { mediaType: string | undefined; conformsTo: string | undefined } {
  const values = entity.node.encodingFormat === undefined ? [] : asList(entity.node.encodingFormat);
  const mediaTypes = values.filter((value): value is string => typeof value === 'string');
  const formats = values.map(refId).filter((value): value is string => value !== undefined);
  const declared =
    entity.node.conformsTo === undefined ? [] : ctx.refsOf(entity, 'conformsTo', entity.node.conformsTo);
  if (mediaTypes.length > 1)
    ctx.refuse(ctx.field(entity, 'encodingFormat'), 'names more than one media type; a distribution has one');
  const types = [...declared, ...formats];
  if (new Set(types).size > 1)
    ctx.refuse(
      ctx.field(entity, declared.length > 0 ? 'conformsTo' : 'encodingFormat'),
      'names more than one type; an artifact has one',
    );
  return { mediaType: mediaTypes[0], conformsTo: types[0] };
}

/** The distribution a `File` or `DataDownload` describes, when it says anything of the bytes. */
function distribution(
  ctx: CrateContext,
  entity: Entity,
  mediaType: string | undefined,
): JsonObject | undefined {
  const node = entity.node;
  const out: JsonObject = {};
  const url = ctx.iriMember(entity, 'contentUrl');
  if (url !== undefined) out.download_url = url;
  if (entity.types.includes('DataDownload')) {
    const access = ctx.iriMember(entity, 'url');
    if (access !== undefined) out.access_url = access;
    ctx.copyText(entity, 'name', out, 'title');
  }
  if (mediaType !== undefined) out.media_type = mediaType;
  if (node.contentSize !== undefined) {
    const size =
      typeof node.contentSize === 'number' ? node.contentSize : Number(text(node.contentSize) ?? NaN);
    if (Number.isSafeInteger(size) && size >= 0) out.byte_size = size;
    else ctx.refuse(ctx.field(entity, 'contentSize'), 'must be a whole number of bytes');
  }
  const digest = text(node.sha256);
  if (node.sha256 !== undefined && digest === undefined)
    ctx.refuse(ctx.field(entity, 'sha256'), 'must be text');
  if (digest !== undefined) out.checksum = { algorithm: 'sha256', value: digest };
  if (Object.keys(out).length === 0) return undefined;
  if (out.download_url === undefined && out.access_url === undefined) out.availability = 'metadata-only';
  return out;
}

/** The agents a member names, as the registry records agents. */
export function readAgents(ctx: CrateContext, entity: Entity, member: string): JsonObject[] {
  const value = entity.node[member];
  if (value === undefined) return [];
  return ctx.refsOf(entity, member, value).flatMap((id) => {
    const agent = ctx.entities.get(id);
    if (agent === undefined) {
      if (isAbsoluteIri(id)) return [{ identifier: id }];
      ctx.refuse(ctx.field(entity, member), `names "${id}", which the crate does not describe`);
      return [];
    }
    ctx.accounted.add(id);
    ctx.onlyMembers(agent, AGENT_MEMBERS);
    const kind = agent.types.map((type) => AGENT_TYPES[type]).find((value) => value !== undefined);
    if (kind === undefined)
      ctx.refuse(ctx.field(agent, '@type'), 'an agent is a Person, Organization or SoftwareApplication');
    const homepage = ctx.iriMember(agent, 'url');
    return [
      {
        ...(isAbsoluteIri(id) ? { identifier: id } : {}),
        ...(kind === undefined ? {} : { kind }),
        ...(text(agent.node.name) === undefined ? {} : { name: str(agent.node.name) }),
        ...(homepage === undefined ? {} : { homepage }),
        ...(text(agent.node.email) === undefined ? {} : { email: str(agent.node.email) }),
      },
    ];
  });
}
