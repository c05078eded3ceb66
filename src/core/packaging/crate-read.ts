/**
 * Reads an RO-Crate metadata document into what the registry records: each `CreateAction` a run of the
 * deployment that sends the crate, its `object`s the artifacts it used, its `result`s those it generated. Every
 * statement the registry cannot record is collected, with the entity and property it is in, so that a crate is
 * either recorded whole or refused naming all of them. The metadata descriptor, the root data entity and the
 * profiles it conforms to describe the package, not the runs, and are not recorded.
 */
import { createHash } from 'node:crypto';
import { BadRequestError } from '../errors.js';
import { isObject } from '../records/json.js';
import { isAbsoluteIri, type Json, type JsonObject } from '../records/mapper.js';
import { ABORTED, str } from './crate-entities.js';
import { CrateContext, RefusedCrateError, refId, refIds, text, type Entity } from './crate-context.js';
import { AGENT_MEMBERS, readArtifact } from './crate-data.js';
import { ACTION_STATUSES, RO_CRATE, RUN_PROFILES } from './terms.js';

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

class CrateReader extends CrateContext {
  private crateKey = '';

  constructor(
    private readonly document: unknown,
    private readonly baseIri: string,
  ) {
    super();
  }

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
      out.push(readArtifact(this, entity, this.crateKey));
    }
    return out;
  }

  /** Entities a registry-held artifact's description points at are part of that description. */
  private accountNested(entity: Entity): void {
    for (const key of ['creator', 'author', 'distribution'])
      for (const id of refIds(entity.node[key])) this.accounted.add(id);
  }

  private instrument(action: Entity, value: Json | undefined): CrateInstrument | undefined {
    if (value === undefined) return undefined;
    const [id, ...more] = this.refsOf(action, 'instrument', value);
    if (id === undefined) return undefined;
    if (more.length > 0)
      this.refuse(
        this.field(action, 'instrument'),
        'names more than one piece of software; a run is recorded against one deployment',
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
