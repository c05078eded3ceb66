/**
 * Deployment events as they arrive: CDEvents (0.4 and later) carried by CloudEvents 1.0 over HTTP, in structured
 * mode (a CloudEvents envelope with the CDEvent as `data`, or the CDEvent alone) or in binary mode (the CloudEvents
 * attributes as `ce-*` headers, the CDEvent as the body). Reading checks everything the registry acts on and names
 * the field the client sent for each problem, so a refused event writes nothing.
 */
import { BadRequestError, type FieldError } from '../errors.js';
import { isObject } from '../records/json.js';
import type { JsonObject } from '../records/mapper.js';
import { parsePurl, type PackageUrl } from './purl.js';

/** The kinds of CDEvent the registry applies to deployments. */
export const DEPLOYMENT_EVENT_KINDS = [
  'service.deployed',
  'service.upgraded',
  'service.rolledback',
  'service.removed',
  'environment.created',
  'environment.modified',
  'environment.deleted',
  'artifact.published',
] as const;

/** One kind of deployment event, such as `service.deployed`. */
export type DeploymentEventKind = (typeof DEPLOYMENT_EVENT_KINDS)[number];

/** How the event was carried. */
export type TransportMode = 'structured' | 'binary' | 'cdevent';

/** A deployment event as read: what the registry acts on, and the CDEvent itself. */
export interface DeploymentEvent {
  readonly id: string;
  readonly source: string;
  /** The full CDEvents type, `dev.cdevents.service.deployed.0.2.0`. */
  readonly type: string;
  readonly kind: DeploymentEventKind;
  /** The CDEvents specification version the event follows. */
  readonly specVersion: string;
  /** The event's own time (`context.timestamp`), as an ISO 8601 instant. */
  readonly timestamp: string;
  readonly mode: TransportMode;
  /** `subject.id`: the service of a service event, the environment of an environment event, the artifact's purl. */
  readonly subjectId: string;
  /** The environment the event concerns, when it names one. */
  readonly environment: string | undefined;
  /** The artifact the event names (`subject.content.artifactId`, or `subject.id` of `artifact.published`). */
  readonly artifactId: string | undefined;
  readonly purl: PackageUrl | undefined;
  readonly cdevent: JsonObject;
}

/** What the transport delivered: the body and the request headers (names in lower case). */
export interface EventInput {
  readonly body: unknown;
  readonly header: (name: string) => string | undefined;
}

const TYPE = /^dev\.cdevents\.([a-z]+)\.([a-z]+)\.(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?$/;
const SPEC_VERSION = /^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?$/;
const MIN_MINOR = 4;
const SERVICE_KINDS: readonly DeploymentEventKind[] = DEPLOYMENT_EVENT_KINDS.filter((kind) =>
  kind.startsWith('service.'),
);

/** Collects the problems of one event, each naming its field; refuses the event once, with all of them. */
class Problems {
  readonly list: FieldError[] = [];
  add(field: string, message: string): void {
    this.list.push({ field, message: `${field}: ${message}` });
  }
  refuse(): void {
    if (this.list.length === 0) return;
    throw new BadRequestError(this.list.map((problem) => problem.message).join('; '), {
      errors: this.list,
      extra: { field: this.list[0]?.field },
    });
  }
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** An RFC 3339 instant as ISO 8601 in UTC, or undefined when the text is not one. */
function instantOf(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** The CloudEvents attributes of the transport, and the CDEvent it carries, or the refusal naming what is wrong. */
function unwrap(
  input: EventInput,
  problems: Problems,
): { mode: TransportMode; attributes: JsonObject; cdevent: unknown } {
  const specversion = input.header('ce-specversion');
  if (
    specversion !== undefined ||
    input.header('ce-type') !== undefined ||
    input.header('ce-id') !== undefined
  ) {
    const attributes: JsonObject = {};
    for (const name of ['specversion', 'id', 'source', 'type', 'time']) {
      const value = input.header(`ce-${name}`);
      if (value !== undefined) attributes[name] = value;
    }
    return { mode: 'binary', attributes, cdevent: input.body };
  }
  if (isObject(input.body) && 'specversion' in input.body) {
    const { data, ...attributes } = input.body;
    let cdevent: unknown = data;
    if (typeof data === 'string') {
      try {
        cdevent = JSON.parse(data) as unknown;
      } catch {
        problems.add('data', 'the CDEvent must be JSON (send it as the data member, an object)');
      }
    } else if (data === undefined) {
      problems.add('data', 'a CloudEvent in structured mode carries the CDEvent as data; it is missing');
    }
    return { mode: 'structured', attributes, cdevent };
  }
  return { mode: 'cdevent', attributes: {}, cdevent: input.body };
}

/** Checks the CloudEvents attributes of a binary or structured event (the header or member names them). */
function checkAttributes(mode: TransportMode, attributes: JsonObject, problems: Problems): void {
  if (mode === 'cdevent') return;
  const name = (attribute: string) => (mode === 'binary' ? `ce-${attribute}` : attribute);
  if (attributes.specversion !== '1.0')
    problems.add(
      name('specversion'),
      attributes.specversion === undefined
        ? 'missing: a CloudEvent names its specification version, 1.0'
        : `CloudEvents ${JSON.stringify(attributes.specversion)} is not read here; send 1.0`,
    );
  for (const attribute of ['id', 'source', 'type'])
    if (text(attributes[attribute]) === undefined)
      problems.add(name(attribute), 'missing: a CloudEvent needs it (CloudEvents 1.0, required attributes)');
  if (
    attributes.time !== undefined &&
    (typeof attributes.time !== 'string' || instantOf(attributes.time) === undefined)
  )
    problems.add(name('time'), 'not an RFC 3339 timestamp');
}

/** The kind of a CDEvents type the registry applies, or undefined. */
function kindOf(type: string): DeploymentEventKind | undefined {
  const match = TYPE.exec(type);
  if (match === null || match[3] !== '0') return undefined;
  const kind = `${match[1]}.${match[2]}`;
  return (DEPLOYMENT_EVENT_KINDS as readonly string[]).includes(kind)
    ? (kind as DeploymentEventKind)
    : undefined;
}

/** Checks the CDEvent's context; answers its type's kind when it is one the registry applies. */
function checkContext(context: JsonObject, problems: Problems): DeploymentEventKind | undefined {
  const versionField = context.specversion !== undefined ? 'context.specversion' : 'context.version';
  const version = text(context.specversion) ?? text(context.version);
  const parts = version === undefined ? null : SPEC_VERSION.exec(version);
  if (parts === null)
    problems.add(
      versionField,
      'missing or not a version such as 0.4.1: say which CDEvents specification the event follows',
    );
  else if (parts[1] === '0' && Number(parts[2]) < MIN_MINOR)
    problems.add(versionField, `CDEvents ${version ?? ''} is older than 0.4, the first version read here`);
  for (const field of ['id', 'source'])
    if (text(context[field]) === undefined)
      problems.add(`context.${field}`, 'missing: every CDEvent carries it');
  const timestamp = context.timestamp;
  if (typeof timestamp !== 'string' || instantOf(timestamp) === undefined)
    problems.add('context.timestamp', 'missing or not an RFC 3339 timestamp');
  const type = text(context.type);
  const kind = type === undefined ? undefined : kindOf(type);
  if (kind === undefined)
    problems.add(
      'context.type',
      `${type === undefined ? 'missing' : JSON.stringify(type)}: a deployment event is one of ${DEPLOYMENT_EVENT_KINDS.map((k) => `dev.cdevents.${k}.0.x.y`).join(', ')}`,
    );
  return kind;
}

/** Checks the subject of a CDEvent of `kind`; answers its environment, artifact id and purl. */
function checkSubject(
  kind: DeploymentEventKind,
  subject: JsonObject,
  problems: Problems,
): { environment: string | undefined; artifactId: string | undefined; purl: PackageUrl | undefined } {
  const id = text(subject.id);
  if (id === undefined) problems.add('subject.id', 'missing: every CDEvent subject has an id');
  const content = subject.content ?? {};
  if (!isObject(content)) {
    problems.add('subject.content', 'must be an object');
    return { environment: undefined, artifactId: undefined, purl: undefined };
  }
  let environment: string | undefined;
  let artifactId: string | undefined;
  let artifactField = 'subject.content.artifactId';
  if (SERVICE_KINDS.includes(kind)) {
    const named = isObject(content.environment) ? text(content.environment.id) : undefined;
    if (named === undefined)
      problems.add(
        'subject.content.environment.id',
        'missing: a service event names the environment it happened in',
      );
    environment = named;
    artifactId = text(content.artifactId);
    if (content.artifactId !== undefined && artifactId === undefined)
      problems.add(artifactField, 'must be a package URL such as pkg:oci/myapp@sha256%3A…');
    else if (artifactId === undefined && (kind === 'service.deployed' || kind === 'service.upgraded'))
      problems.add(artifactField, `missing: a ${kind} event names what now runs, as a package URL`);
  } else if (kind.startsWith('environment.')) {
    environment = id;
  } else {
    artifactField = 'subject.id';
    artifactId = id;
  }
  const purl = artifactId === undefined ? undefined : parsePurl(artifactId);
  if (artifactId !== undefined && purl === undefined)
    problems.add(
      artifactField,
      `${JSON.stringify(artifactId)} is not a package URL (pkg:<type>/<name>@<version>)`,
    );
  return { environment, artifactId, purl };
}

/**
 * Reads a deployment event from what the transport delivered. Refuses (400, naming every field at fault) an
 * envelope or a CDEvent it cannot act on: a missing CloudEvents attribute, a type it does not apply, a CDEvents
 * version before 0.4, an artifact that is not a package URL, or CloudEvents attributes that contradict the CDEvent.
 */
export function readDeploymentEvent(input: EventInput): DeploymentEvent {
  const problems = new Problems();
  const { mode, attributes, cdevent } = unwrap(input, problems);
  problems.refuse();
  checkAttributes(mode, attributes, problems);
  const root = mode === 'structured' ? 'data' : 'body';
  if (!isObject(cdevent) || !isObject(cdevent.context) || !isObject(cdevent.subject)) {
    problems.add(
      isObject(cdevent) ? (isObject(cdevent.context) ? 'subject' : 'context') : root,
      'a CDEvent is an object with a context and a subject',
    );
    problems.refuse();
  }
  const event = cdevent as JsonObject & { context: JsonObject; subject: JsonObject };
  const kind = checkContext(event.context, problems);
  const subject = kind === undefined ? undefined : checkSubject(kind, event.subject, problems);
  const name = (attribute: string) => (mode === 'binary' ? `ce-${attribute}` : attribute);
  for (const [attribute, field] of [
    ['type', 'type'],
    ['id', 'id'],
    ['source', 'source'],
  ] as const) {
    const value = attributes[attribute];
    if (mode !== 'cdevent' && value !== undefined && value !== event.context[field])
      problems.add(
        name(attribute),
        `${JSON.stringify(value)} differs from the CDEvent's context.${field}, ${JSON.stringify(event.context[field])}`,
      );
  }
  problems.refuse();
  const context = event.context;
  return {
    id: context.id as string,
    source: context.source as string,
    type: context.type as string,
    kind: kind as DeploymentEventKind,
    specVersion: (text(context.specversion) ?? text(context.version)) as string,
    timestamp: instantOf(context.timestamp as string) as string,
    mode,
    subjectId: event.subject.id as string,
    environment: subject?.environment,
    artifactId: subject?.artifactId,
    purl: subject?.purl,
    cdevent: event,
  };
}
