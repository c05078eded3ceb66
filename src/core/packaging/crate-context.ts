/**
 * What reading a crate keeps track of: its entities by `@id`, those a run's record accounts for, and every
 * statement found that the registry cannot record, each named by the entity and property it is in.
 */
import type { FieldError } from '../errors.js';
import { isObject } from '../records/json.js';
import { isAbsoluteIri, type Json, type JsonObject } from '../records/mapper.js';

/** One entity of the crate, with where it sits in `@graph`. */
export interface Entity {
  readonly at: number;
  readonly id: string;
  readonly types: readonly string[];
  readonly node: JsonObject;
}

/** The entities of a crate being read, and what was found in them that cannot be recorded. */
export class CrateContext {
  readonly errors: FieldError[] = [];
  readonly entities = new Map<string, Entity>();
  /** Entities a run's record accounts for, and those that only package the crate. */
  readonly accounted = new Set<string>();

  /** The `@id`s a member refers to; a value that is not a reference is refused. */
  refsOf(entity: Entity, member: string, value: Json): string[] {
    const ids: string[] = [];
    for (const item of asList(value)) {
      const id = refId(item);
      if (id === undefined) this.refuse(this.field(entity, member), 'must refer to entities as {"@id": …}');
      else ids.push(id);
    }
    return ids;
  }

  iriMember(entity: Entity, member: string): string | undefined {
    const value = entity.node[member];
    if (value === undefined) return undefined;
    const iri = refId(value) ?? text(value);
    if (iri === undefined || !isAbsoluteIri(iri)) {
      this.refuse(this.field(entity, member), 'must be an absolute IRI');
      return undefined;
    }
    return iri;
  }

  copyText(entity: Entity, member: string, out: JsonObject, field: string): void {
    const value = entity.node[member];
    if (value === undefined) return;
    if (typeof value === 'string') out[field] = value;
    else this.refuse(this.field(entity, member), 'must be text');
  }

  copyTime(entity: Entity, member: string, out: JsonObject, field: string): void {
    const value = entity.node[member];
    if (value === undefined) return;
    if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) && Number.isFinite(Date.parse(value)))
      out[field] = value;
    else this.refuse(this.field(entity, member), 'must be an ISO 8601 date and time');
  }

  onlyMembers(entity: Entity, allowed: ReadonlySet<string>): void {
    for (const key of Object.keys(entity.node))
      if (!allowed.has(key))
        this.refuse(this.field(entity, key), 'is a statement the registry cannot record');
  }

  /** Names an entity (and a property of it) the way a refusal does: its place in `@graph` and its `@id`. */
  field(entity: Entity, member?: string): string {
    return `@graph[${entity.at}]${member === undefined ? '' : `.${member}`}`;
  }

  refuse(field: string, why: string): void {
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

/** A member's value as a list. */
export function asList(value: Json): Json[] {
  return Array.isArray(value) ? value : [value];
}

/** The `@id` of a reference `{"@id": …}`. */
export function refId(value: Json | undefined): string | undefined {
  return isObject(value) && typeof value['@id'] === 'string' && Object.keys(value).length === 1
    ? value['@id']
    : undefined;
}

/** The `@id`s of one reference or a list of them. */
export function refIds(value: Json | undefined): string[] {
  return value === undefined
    ? []
    : asList(value)
        .map(refId)
        .filter((id): id is string => id !== undefined);
}

/** A member that is non-empty text. */
export function text(value: Json | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
