/**
 * Reads an RO-Crate metadata document into what the registry records: each `CreateAction` a run of the
 * deployment that sends the crate, its `object`s the artifacts it used, its `result`s those it generated. Every
 * statement the registry cannot record is collected, with the entity and property it is in, so that a crate is
 * either recorded whole or refused naming all of them. The metadata descriptor, the root data entity and the
 * profiles it conforms to describe the package, not the runs, and are not recorded.
 */
import { createHash } from 'node:crypto';
import { BadRequestError, type FieldError } from '../errors.js';
import { isObject } from '../records/json.js';
import { isAbsoluteIri, type Json, type JsonObject } from '../records/mapper.js';
import { ABORTED, str } from './crate-entities.js';
import { ACTION_STATUSES, RO_CRATE, RUN_PROFILES, spdxLicense } from './terms.js';

/** One entity of the crate, with where it sits in `@graph`. */
interface Entity {
  readonly at: number;
  readonly id: string;
  readonly types: readonly string[];
  readonly node: JsonObject;
}

/** One `CreateAction` as the run and artifacts an advertisement records. */
export interface CrateAction {
  /** The action's `@id`: the run's key. */
  readonly id: string;
  /** Where the action sits in the crate, as a refusal names it. */
  readonly field: string;
  readonly run: JsonObject;
  readonly used: JsonObject[];
  readonly generated: JsonObject[];
  /** What the crate says ran it and who: checked against the deployment that sends it. */
  readonly instrument: CrateInstrument | undefined;
  readonly agent: CrateAgent | undefined;
}

/** The instrument of an action: the addresses and version it names the software by. */
export interface CrateInstrument {
  readonly field: string;
  readonly id: string;
  readonly addresses: readonly string[];
  readonly version: string | undefined;
}

/** The agent of an action. */
export interface CrateAgent {
  readonly field: string;
  readonly id: string;
}

/** A crate read: its actions, producers before the actions that use what they made. */
export interface ReadCrate {
  readonly actions: CrateAction[];
}

const ACTION_MEMBERS = new Set([
  '@id',
  '@type',
  'name',
  'description',
  'identifier',
  'startTime',
  'endTime',
  'actionStatus',
  'error',
  'instrument',
  'agent',
  'object',
  'result',
]);
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
const AGENT_MEMBERS = new Set(['@id', '@type', 'name', 'url', 'email']);
const INSTRUMENT_TYPES = new Set([
  'SoftwareApplication',
  'SoftwareSourceCode',
  'ComputationalWorkflow',
  'File',
]);
const INSTRUMENT_MEMBERS = new Set([
  '@id',
  '@type',
  'name',
  'description',
  'url',
  'codeRepository',
  'softwareVersion',
  'version',
  'license',
  'isPartOf',
]);
/** Actions a crate may hold that record steps, engines or settings the registry has no place for. */
const OTHER_ACTIONS = ['OrganizeAction', 'ControlAction', 'ActivateAction', 'UpdateAction'];

/** Reads a crate's metadata document; refuses it (422) naming every statement that cannot be recorded. */
export function readCrate(document: unknown, baseIri: string): ReadCrate {
  const reader = new CrateReader(document, baseIri);
  return reader.read();
}

class CrateReader {
  private readonly errors: FieldError[] = [];
  private readonly entities = new Map<string, Entity>();
  /** Entities a run's record accounts for, and those that only package the crate. */
  private readonly accounted = new Set<string>();
  private crateKey = '';

  constructor(
    private readonly document: unknown,
    private readonly baseIri: string,
  ) {}

  read(): ReadCrate {
    const graph = this.structure();
    for (const [at, node] of graph.entries()) {
      const id = node['@id'];
      if (typeof id !== 'string' || id === '') {
        this.refuse(`@graph[${at}]`, 'has no @id');
        continue;
      }
      if (this.entities.has(id)) this.refuse(`@graph[${at}]`, `repeats the @id "${id}"`);
      const type = node['@type'];
      const types = (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string');
      this.entities.set(id, { at, id, types, node });
    }
    this.packaging();
    const found = [...this.entities.values()].filter((entity) => entity.types.includes('CreateAction'));
    for (const entity of this.entities.values())
      for (const other of OTHER_ACTIONS.filter((name) => entity.types.includes(name)))
        this.refuse(
          this.field(entity, '@type'),
          `is a ${other}; the registry records CreateActions (runs) only`,
        );
    if (found.length === 0 && this.errors.length === 0)
      this.refuse('@graph', 'holds no CreateAction: the crate records no run');
    this.crateKey = createHash('sha256')
      .update(JSON.stringify(found.map((entity) => entity.id).sort()))
      .digest('hex')
      .slice(0, 24);
    const actions = found.map((entity) => this.action(entity));
    for (const entity of this.entities.values())
      if (!this.accounted.has(entity.id))
        this.refuse(
          this.field(entity),
          'is not part of any run the crate records; the registry cannot record it',
        );
    if (this.errors.length > 0) {
      throw new RefusedCrateError(this.errors);
    }
    return { actions: ordered(actions) };
  }

  /** The document's shape: a flattened JSON-LD object with an RO-Crate context and a `@graph` of objects. */
  private structure(): JsonObject[] {
    const document = this.document;
    if (!isObject(document)) throw new BadRequestError('an RO-Crate metadata document must be a JSON object');
    const contexts = Array.isArray(document['@context']) ? document['@context'] : [document['@context']];
    if (!contexts.some((item) => typeof item === 'string' && item.startsWith(RO_CRATE.contextPrefix)))
      throw new BadRequestError(`@context must name an RO-Crate context such as ${RO_CRATE.context}`);
    for (const [at, item] of contexts.entries())
      if (
        typeof item !== 'string' ||
        !(item.startsWith(RO_CRATE.contextPrefix) || item === RUN_PROFILES.termsContext)
      )
        this.refuse(
          `@context[${at}]`,
          'defines terms of its own; the registry reads the RO-Crate and workflow-run terms only',
        );
    const graph = document['@graph'];
    if (!Array.isArray(graph) || !graph.every(isObject))
      throw new BadRequestError('@graph must be a list of objects (a flattened RO-Crate metadata document)');
    const others = Object.keys(document).filter((key) => key !== '@context' && key !== '@graph');
    for (const key of others) this.refuse(key, 'is not a member of an RO-Crate metadata document');
    return graph;
  }

  /** The metadata descriptor, the root data entity and the profiles: accounted for, never recorded. */
  private packaging(): void {
    const descriptor = this.entities.get(RO_CRATE.metadataFile);
    if (descriptor === undefined)
      throw new BadRequestError(`the crate has no ${RO_CRATE.metadataFile} descriptor`);
    const rootId = refId(descriptor.node.about);
    const root = rootId === undefined ? undefined : this.entities.get(rootId);
    if (root === undefined)
      throw new BadRequestError(`the ${RO_CRATE.metadataFile} descriptor is about no entity of the crate`);
    this.accounted.add(descriptor.id).add(root.id);
    // The specifications and profiles the crate conforms to describe the package.
    for (const node of [descriptor.node, root.node])
      for (const id of refIds(node.conformsTo))
        if (this.entities.get(id)?.types.includes('CreativeWork') === true) this.accounted.add(id);
  }

  private action(entity: Entity): CrateAction {
    const node = entity.node;
    this.accounted.add(entity.id);
    this.onlyMembers(entity, ACTION_MEMBERS);
    const run: JsonObject = { external_key: entity.id };
    this.copyText(entity, 'name', run, 'label');
    this.copyText(entity, 'description', run, 'description');
    this.copyText(entity, 'identifier', run, 'identifier');
    this.copyTime(entity, 'startTime', run, 'started_at');
    this.copyTime(entity, 'endTime', run, 'ended_at');
    run.status = this.status(entity);
    const used = this.dataList(entity, 'object');
    const generated = this.dataList(entity, 'result');
    return {
      id: entity.id,
      field: this.field(entity),
      run,
      used,
      generated,
      instrument: this.instrument(entity, node.instrument),
      agent: this.agent(entity, node.agent),
    };
  }

  /** `actionStatus` (completed when absent, as the profile says) and an `error` only as an aborted run's. */
  private status(entity: Entity): string {
    const value = refId(entity.node.actionStatus) ?? text(entity.node.actionStatus);
    const local = value?.replace(/^https?:\/\/schema\.org\//, '');
    let status: string = 'success';
    if (value !== undefined) {
      const known = ACTION_STATUSES[local as keyof typeof ACTION_STATUSES] as string | undefined;
      if (known === undefined)
        this.refuse(
          this.field(entity, 'actionStatus'),
          `"${value}" is not CompletedActionStatus, FailedActionStatus or ActiveActionStatus`,
        );
      else status = known;
    }
    const error = entity.node.error;
    if (error !== undefined) {
      if (status === 'failed' && error === ABORTED) status = 'aborted';
      else
        this.refuse(
          this.field(entity, 'error'),
          `the registry records why a run failed only as "${ABORTED}" on a FailedActionStatus`,
        );
    }
    return status;
  }

  /** The artifacts an action's `object` or `result` names, as an advertisement sends them. */
  private dataList(action: Entity, member: 'object' | 'result'): JsonObject[] {
    const out: JsonObject[] = [];
    const value = action.node[member];
    if (value === undefined) return out;
    for (const id of this.refsOf(action, member, value)) {
      const entity = this.entities.get(id);
      if (entity === undefined) {
        if (isAbsoluteIri(id)) out.push({ iri: id });
        else this.refuse(this.field(action, member), `names "${id}", which the crate does not describe`);
        continue;
      }
      this.accounted.add(id);
      if (id.startsWith(`${this.baseIri}/`) && isAbsoluteIri(id)) {
        // An artifact this registry holds: the crate refers to it; what it says of it is already recorded.
        this.accountNested(entity);
        out.push({ iri: id });
        continue;
      }
      out.push(this.artifact(entity));
    }
    return out;
  }

  /** Entities a registry-held artifact's description points at are part of that description. */
  private accountNested(entity: Entity): void {
    for (const key of ['creator', 'author', 'distribution'])
      for (const id of refIds(entity.node[key])) this.accounted.add(id);
  }

  /** A data entity as an artifact: its key is its `@id` (within this crate when the `@id` is relative). */
  private artifact(entity: Entity): JsonObject {
    if (!entity.types.some((type) => DATA_TYPES.has(type)))
      this.refuse(
        this.field(entity, '@type'),
        `is ${entity.types.join(', ') || 'untyped'}; a run's object or result is recorded as a File, Dataset or CreativeWork`,
      );
    this.onlyMembers(entity, DATA_MEMBERS);
    const node = entity.node;
    const out: JsonObject = {
      external_key: isAbsoluteIri(entity.id) ? entity.id : `ro-crate:${this.crateKey}:${entity.id}`,
    };
    this.copyText(entity, 'name', out, 'title');
    this.copyText(entity, 'description', out, 'description');
    this.copyText(entity, 'version', out, 'version');
    this.copyTime(entity, 'datePublished', out, 'issued');
    const license = this.iriMember(entity, 'license');
    if (license !== undefined) out.license = spdxLicense(license);
    const landing = this.iriMember(entity, 'url');
    if (landing !== undefined) out.landing_page = landing;
    const keywords = node.keywords;
    if (keywords !== undefined) {
      const list = typeof keywords === 'string' ? keywords.split(',').map((word) => word.trim()) : keywords;
      if (Array.isArray(list) && list.every((word) => typeof word === 'string')) out.keywords = list;
      else this.refuse(this.field(entity, 'keywords'), 'must be text or a list of texts');
    }
    const types = this.formats(entity);
    if (types.conformsTo !== undefined) out.conforms_to = types.conformsTo;
    const creators = [...this.agents(entity, 'creator'), ...this.agents(entity, 'author')];
    if (creators.length > 0) out.creators = creators;
    const derived = node.isBasedOn === undefined ? [] : this.refsOf(entity, 'isBasedOn', node.isBasedOn);
    for (const id of derived)
      if (!isAbsoluteIri(id)) this.refuse(this.field(entity, 'isBasedOn'), `"${id}" is not an absolute IRI`);
    if (derived.length > 0) out.was_derived_from = derived.filter(isAbsoluteIri);
    const distributions: JsonObject[] = [];
    const own = this.distribution(entity, types.mediaType);
    if (own !== undefined) distributions.push(own);
    if (node.distribution !== undefined)
      for (const id of this.refsOf(entity, 'distribution', node.distribution)) {
        const download = this.entities.get(id);
        if (download === undefined) {
          this.refuse(this.field(entity, 'distribution'), `names "${id}", which the crate does not describe`);
          continue;
        }
        this.accounted.add(id);
        this.onlyMembers(download, DOWNLOAD_MEMBERS);
        const item = this.distribution(download, text(download.node.encodingFormat));
        if (item !== undefined) distributions.push(item);
      }
    if (distributions.length > 0) out.distributions = distributions;
    return out;
  }

  /** `encodingFormat`: a media type as text, or a format IRI (the artifact's type when `conformsTo` is absent). */
  private formats(entity: Entity): { mediaType: string | undefined; conformsTo: string | undefined } {
    const values = entity.node.encodingFormat === undefined ? [] : asList(entity.node.encodingFormat);
    const mediaTypes = values.filter((value): value is string => typeof value === 'string');
    const formats = values.map(refId).filter((value): value is string => value !== undefined);
    const declared =
      entity.node.conformsTo === undefined ? [] : this.refsOf(entity, 'conformsTo', entity.node.conformsTo);
    if (mediaTypes.length > 1)
      this.refuse(
        this.field(entity, 'encodingFormat'),
        'names more than one media type; a distribution has one',
      );
    const types = [...declared, ...formats];
    if (new Set(types).size > 1)
      this.refuse(
        this.field(entity, declared.length > 0 ? 'conformsTo' : 'encodingFormat'),
        'names more than one type; an artifact has one',
      );
    return { mediaType: mediaTypes[0], conformsTo: types[0] };
  }

  /** The distribution a `File` or `DataDownload` describes, when it says anything of the bytes. */
  private distribution(entity: Entity, mediaType: string | undefined): JsonObject | undefined {
    const node = entity.node;
    const out: JsonObject = {};
    const url = this.iriMember(entity, 'contentUrl');
    if (url !== undefined) out.download_url = url;
    if (entity.types.includes('DataDownload')) {
      const access = this.iriMember(entity, 'url');
      if (access !== undefined) out.access_url = access;
      this.copyText(entity, 'name', out, 'title');
    }
    if (mediaType !== undefined) out.media_type = mediaType;
    if (node.contentSize !== undefined) {
      const size =
        typeof node.contentSize === 'number' ? node.contentSize : Number(text(node.contentSize) ?? NaN);
      if (Number.isSafeInteger(size) && size >= 0) out.byte_size = size;
      else this.refuse(this.field(entity, 'contentSize'), 'must be a whole number of bytes');
    }
    const digest = text(node.sha256);
    if (node.sha256 !== undefined && digest === undefined)
      this.refuse(this.field(entity, 'sha256'), 'must be text');
    if (digest !== undefined) out.checksum = { algorithm: 'sha256', value: digest };
    if (Object.keys(out).length === 0) return undefined;
    if (out.download_url === undefined && out.access_url === undefined) out.availability = 'metadata-only';
    return out;
  }

  /** The agents a member names, as the registry records agents. */
  private agents(entity: Entity, member: string): JsonObject[] {
    const value = entity.node[member];
    if (value === undefined) return [];
    return this.refsOf(entity, member, value).flatMap((id) => {
      const agent = this.entities.get(id);
      if (agent === undefined) {
        if (isAbsoluteIri(id)) return [{ identifier: id }];
        this.refuse(this.field(entity, member), `names "${id}", which the crate does not describe`);
        return [];
      }
      this.accounted.add(id);
      this.onlyMembers(agent, AGENT_MEMBERS);
      const kind = agent.types.map((type) => AGENT_TYPES[type]).find((value) => value !== undefined);
      if (kind === undefined)
        this.refuse(this.field(agent, '@type'), 'an agent is a Person, Organization or SoftwareApplication');
      const homepage = this.iriMember(agent, 'url');
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

  private instrument(action: Entity, value: Json | undefined): CrateInstrument | undefined {
    if (value === undefined) return undefined;
    const [id, ...more] = this.refsOf(action, 'instrument', value);
    if (id === undefined) return undefined;
    if (more.length > 0)
      this.refuse(
        this.field(action, 'instrument'),
        'names more than one tool; a run is recorded against one deployment',
      );
    const field = this.field(action, 'instrument');
    const entity = this.entities.get(id);
    if (entity === undefined) return { field, id, addresses: [id], version: undefined };
    this.accounted.add(id);
    this.onlyMembers(entity, INSTRUMENT_MEMBERS);
    if (!entity.types.some((type) => INSTRUMENT_TYPES.has(type)))
      this.refuse(
        this.field(entity, '@type'),
        'an instrument is a SoftwareApplication, SoftwareSourceCode or ComputationalWorkflow',
      );
    const node = entity.node;
    const addresses = [
      id,
      text(node.url),
      text(node.codeRepository),
      refId(node.isPartOf),
      refId(node.url),
      refId(node.codeRepository),
    ].filter((value): value is string => value !== undefined);
    return { field, id, addresses, version: text(node.softwareVersion) ?? text(node.version) };
  }

  private agent(action: Entity, value: Json | undefined): CrateAgent | undefined {
    if (value === undefined) return undefined;
    const [id, ...more] = this.refsOf(action, 'agent', value);
    if (id === undefined) return undefined;
    if (more.length > 0)
      this.refuse(
        this.field(action, 'agent'),
        'names more than one agent; a run is recorded against one deployment',
      );
    const entity = this.entities.get(id);
    if (entity !== undefined) {
      this.accounted.add(id);
      this.onlyMembers(entity, AGENT_MEMBERS);
    }
    return { field: this.field(action, 'agent'), id };
  }

  /** The `@id`s a member refers to; a value that is not a reference is refused. */
  private refsOf(entity: Entity, member: string, value: Json): string[] {
    const ids: string[] = [];
    for (const item of asList(value)) {
      const id = refId(item);
      if (id === undefined) this.refuse(this.field(entity, member), 'must refer to entities as {"@id": …}');
      else ids.push(id);
    }
    return ids;
  }

  private iriMember(entity: Entity, member: string): string | undefined {
    const value = entity.node[member];
    if (value === undefined) return undefined;
    const iri = refId(value) ?? text(value);
    if (iri === undefined || !isAbsoluteIri(iri)) {
      this.refuse(this.field(entity, member), 'must be an absolute IRI');
      return undefined;
    }
    return iri;
  }

  private copyText(entity: Entity, member: string, out: JsonObject, field: string): void {
    const value = entity.node[member];
    if (value === undefined) return;
    if (typeof value === 'string') out[field] = value;
    else this.refuse(this.field(entity, member), 'must be text');
  }

  private copyTime(entity: Entity, member: string, out: JsonObject, field: string): void {
    const value = entity.node[member];
    if (value === undefined) return;
    if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) && Number.isFinite(Date.parse(value)))
      out[field] = value;
    else this.refuse(this.field(entity, member), 'must be an ISO 8601 date and time');
  }

  private onlyMembers(entity: Entity, allowed: ReadonlySet<string>): void {
    for (const key of Object.keys(entity.node))
      if (!allowed.has(key))
        this.refuse(this.field(entity, key), 'is a statement the registry cannot record');
  }

  /** Names an entity (and a property of it) the way a refusal does: its place in `@graph` and its `@id`. */
  private field(entity: Entity, member?: string): string {
    return `@graph[${entity.at}]${member === undefined ? '' : `.${member}`}`;
  }

  private refuse(field: string, why: string): void {
    const entity = /^@graph\[(\d+)\]/.exec(field);
    const id =
      entity === null
        ? undefined
        : [...this.entities.values()].find((item) => item.at === Number(entity[1]))?.id;
    const member = field.includes('.') ? field.slice(field.indexOf('.') + 1) : undefined;
    const subject =
      id === undefined ? field : `entity "${id}"${member === undefined ? '' : ` property ${member}`}`;
    this.errors.push({ field, message: `${subject} ${why}` });
  }
}

/** A crate that says something the registry cannot record (422), with every such statement. */
export class RefusedCrateError extends Error {
  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((error) => error.message).join('; '));
  }
}

/** Actions ordered so that one that generated an artifact comes before those that used it. */
function ordered(actions: CrateAction[]): CrateAction[] {
  const keyOf = (item: JsonObject) => str(item.iri ?? item.external_key);
  const makers = new Map<string, CrateAction>();
  for (const action of actions) for (const item of action.generated) makers.set(keyOf(item), action);
  const out: CrateAction[] = [];
  const seen = new Set<CrateAction>();
  const visit = (action: CrateAction, path: Set<CrateAction>) => {
    if (seen.has(action) || path.has(action)) return;
    path.add(action);
    for (const item of action.used) {
      const maker = makers.get(keyOf(item));
      if (maker !== undefined && maker !== action) visit(maker, path);
    }
    seen.add(action);
    out.push(action);
  };
  for (const action of actions) visit(action, new Set());
  return out;
}

function asList(value: Json): Json[] {
  return Array.isArray(value) ? value : [value];
}

function refId(value: Json | undefined): string | undefined {
  return isObject(value) && typeof value['@id'] === 'string' && Object.keys(value).length === 1
    ? value['@id']
    : undefined;
}

function refIds(value: Json | undefined): string[] {
  return value === undefined
    ? []
    : asList(value)
        .map(refId)
        .filter((id): id is string => id !== undefined);
}

function text(value: Json | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
