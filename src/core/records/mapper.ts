import type * as RDF from '@rdfjs/types';
import type { FieldError } from '../errors.js';
import { PROV, RDF as RDFNS, SCHEMA, XSD } from '../ns.js';
import { factory, type Quad } from '../store/nquads.js';
import { iriProblem, isRfc3987Iri } from './iri.js';
import { refuseLongLists } from './list-limit.js';
import { WEB_LINK } from './links.js';
import type { FieldSpec, LinkRule, NodeSpec, RecordSpec, ScalarField } from './schema.js';

const namedNode = (iri: string): RDF.NamedNode => factory.namedNode(iri);
const literal = (value: string, datatype?: RDF.NamedNode): RDF.Literal => factory.literal(value, datatype);
const makeQuad = (s: RDF.Quad_Subject, p: RDF.Quad_Predicate, o: RDF.Quad_Object, g: RDF.Quad_Graph): Quad =>
  factory.quad(s, p, o, g);
const RDF_TYPE = RDFNS('type');

/** JSON values as they arrive in a request body. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** Agent kinds and the class each is typed with. */
export const AGENT_CLASSES: Readonly<Record<string, string>> = {
  person: PROV('Person'),
  organization: PROV('Organization'),
  software: PROV('SoftwareAgent'),
};
/** The members an agent object may carry. */
export const AGENT_FIELDS: ReadonlySet<string> = new Set([
  'iri',
  'name',
  'kind',
  'identifier',
  'homepage',
  'email',
  'version',
]);

/** What mapping a JSON record gave: its quads, the problems found, and where each owned node sits in JSON. */
export interface MappedRecord {
  readonly quads: Quad[];
  readonly errors: FieldError[];
  /** JSON path of each owned node by IRI, for naming validation results. */
  readonly locate: Map<string, string>;
}

/**
 * Whether a string is an absolute IRI the registry stores: RFC 3987 syntax (what the query index's strict parser
 * accepts, and what can sit between `<` and `>` of a query) that the WHATWG URL parser also reads, since clients
 * follow these as links.
 */
export function isAbsoluteIri(value: string): boolean {
  if (!isRfc3987Iri(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** Bounds a mapping applies: list lengths (`REG_MAX_LIST_ITEMS`), named from where the record sits (`path`). */
export interface MapLimits {
  readonly maxListItems?: number;
  readonly path?: string;
}

/**
 * Maps a JSON record to quads in `graph`. With `trusted`, registry-only fields are taken too (the services
 * set them); otherwise they are ignored. Unknown members are reported, derived ones ignored.
 */
export function recordToQuads(
  spec: RecordSpec,
  iri: string,
  json: JsonObject,
  graph: string,
  trusted = false,
  limits: MapLimits = {},
): MappedRecord {
  refuseLongLists(spec, json, limits.maxListItems ?? Number.POSITIVE_INFINITY, limits.path);
  const out: MappedRecord = { quads: [], errors: [], locate: new Map() };
  if (!isAbsoluteIri(iri)) out.errors.push({ field: 'iri', message: 'iri must be an absolute IRI (URL)' });
  const ignored = new Set(['iri', 'id', ...spec.derived]);
  writeNode(spec, iri, iri, json, '', { out, graph: namedNode(graph), trusted, ignored });
  return out;
}

interface Context {
  readonly out: MappedRecord;
  readonly graph: RDF.NamedNode;
  readonly trusted: boolean;
  readonly ignored: ReadonlySet<string>;
}

function writeNode(
  spec: NodeSpec,
  record: string,
  node: string,
  json: JsonObject,
  path: string,
  ctx: Context,
): void {
  const subject = namedNode(node);
  const add = (predicate: string, object: RDF.Quad['object']): void => {
    ctx.out.quads.push(makeQuad(subject, namedNode(predicate), object, ctx.graph));
  };
  for (const type of spec.types) add(RDF_TYPE, namedNode(type));
  if (
    spec.typeWhen !== undefined &&
    json[spec.typeWhen.field] !== undefined &&
    json[spec.typeWhen.field] !== null
  ) {
    add(RDF_TYPE, namedNode(spec.typeWhen.type));
  }
  const known = new Map(spec.fields.map((field) => [field.json, field]));
  for (const key of Object.keys(json)) {
    if (!known.has(key) && !(path === '' && ctx.ignored.has(key))) {
      ctx.out.errors.push({ field: `${path}${key}`, message: `${path}${key} is not a field of this record` });
    }
  }
  for (const field of spec.fields) {
    const value = json[field.json];
    if (value === undefined || value === null || (field.registry === true && !ctx.trusted)) continue;
    const name = `${path}${field.json}`;
    const values = field.many === true ? value : [value];
    if (!Array.isArray(values)) {
      ctx.out.errors.push({ field: name, message: `${name} must be a list` });
      continue;
    }
    values.forEach((item, index) => {
      const at = field.many === true ? `${name}[${index}]` : name;
      writeValue(field, record, node, item, at, index, add, ctx);
    });
  }
}

function writeValue(
  field: FieldSpec,
  record: string,
  parent: string,
  item: Json,
  at: string,
  index: number,
  add: (predicate: string, object: RDF.Quad['object']) => void,
  ctx: Context,
): void {
  if (field.type === 'node' || field.type === 'agent') {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      ctx.out.errors.push({ field: at, message: `${at} must be an object` });
      return;
    }
    const fragment = field.many === true ? `${field.fragment}-${index}` : field.fragment;
    if (field.type === 'node') {
      // A fragment cannot nest: a node owned by an owned node is `<record>#<parent>-<fragment>`.
      const node = parent === record ? `${record}#${fragment}` : `${parent}-${fragment}`;
      ctx.out.locate.set(node, at);
      add(field.predicate, namedNode(node));
      writeNode(field.node, record, node, item, `${at}.`, ctx);
    } else {
      const agent = writeAgent(record, fragment, item, at, ctx);
      if (agent !== undefined) add(field.predicate, namedNode(agent));
    }
    return;
  }
  const object = scalarTerm(field, item, at, ctx.out.errors);
  if (object !== undefined) add(field.predicate, object);
}

function scalarTerm(
  field: ScalarField,
  item: Json,
  at: string,
  errors: FieldError[],
): RDF.Quad['object'] | undefined {
  const fail = (what: string): undefined => {
    errors.push({ field: at, message: `${at} must be ${what}` });
    return undefined;
  };
  switch (field.type) {
    case 'string':
      return typeof item === 'string' ? literal(item) : fail('a string');
    case 'iri': {
      if (typeof item !== 'string') return fail('an absolute IRI (URL)');
      if (!isAbsoluteIri(item)) {
        const problem = iriProblem(item);
        return fail(`an absolute IRI (URL)${problem === undefined ? '' : `; this one ${problem}`}`);
      }
      if (field.link !== undefined && !linkAllowed(field.link, item)) return fail(linkRuleText(field.link));
      return namedNode(item);
    }
    case 'boolean':
      return typeof item === 'boolean'
        ? literal(String(item), namedNode(XSD('boolean')))
        : fail('true or false');
    case 'integer':
      return typeof item === 'number' && Number.isSafeInteger(item)
        ? literal(String(item), namedNode(XSD('integer')))
        : fail('a whole number');
    case 'date':
      return typeof item === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(item) && !Number.isNaN(Date.parse(item))
        ? literal(item, namedNode(XSD('date')))
        : fail('a date (YYYY-MM-DD)');
    case 'json':
      // Any JSON value, kept verbatim as an rdf:JSON literal (e.g. a whole OpenLineage event).
      return literal(JSON.stringify(item), namedNode(RDFNS('JSON')));
    case 'dateTime': {
      const time = typeof item === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(item) ? Date.parse(item) : NaN;
      return Number.isNaN(time)
        ? fail('a timestamp (ISO 8601, e.g. 2026-01-31T12:00:00Z)')
        : literal(new Date(time).toISOString(), namedNode(XSD('dateTime')));
    }
  }
}

/** Whether a link's scheme is one its field takes. */
export function linkAllowed(rule: LinkRule, iri: string): boolean {
  const scheme = iri.slice(0, iri.indexOf(':')).toLowerCase();
  return 'schemes' in rule ? rule.schemes.includes(scheme) : !rule.except.includes(scheme);
}

function linkRuleText(rule: LinkRule): string {
  return 'schemes' in rule
    ? `a URL with the scheme ${rule.schemes.join(', ').replace(/, ([^,]*)$/, ' or $1')}`
    : `a URL of a place data is kept (not ${rule.except.map((scheme) => `${scheme}:`).join(', ')})`;
}

function writeAgent(
  record: string,
  fragment: string,
  json: JsonObject,
  at: string,
  ctx: Context,
): string | undefined {
  for (const key of Object.keys(json)) {
    if (!AGENT_FIELDS.has(key))
      ctx.out.errors.push({ field: `${at}.${key}`, message: `${at}.${key} is not a field of an agent` });
  }
  const identifier = typeof json.identifier === 'string' ? json.identifier : undefined;
  const node = identifier !== undefined && isAbsoluteIri(identifier) ? identifier : `${record}#${fragment}`;
  ctx.out.locate.set(node, at);
  const subject = namedNode(node);
  const add = (predicate: string, object: RDF.Quad['object']): void => {
    ctx.out.quads.push(makeQuad(subject, namedNode(predicate), object, ctx.graph));
  };
  add(RDF_TYPE, namedNode(PROV('Agent')));
  const kind = json.kind;
  if (kind !== undefined && kind !== null) {
    const cls = typeof kind === 'string' ? AGENT_CLASSES[kind] : undefined;
    if (cls === undefined) {
      ctx.out.errors.push({
        field: `${at}.kind`,
        message: `${at}.kind must be one of ${Object.keys(AGENT_CLASSES).join(', ')}`,
      });
    } else add(RDF_TYPE, namedNode(cls));
  }
  const scalars: [string, ScalarField][] = [
    ['name', { json: 'name', predicate: SCHEMA('name'), type: 'string' }],
    ['homepage', { json: 'homepage', predicate: SCHEMA('url'), type: 'iri', link: WEB_LINK }],
    ['email', { json: 'email', predicate: SCHEMA('email'), type: 'string' }],
    ['version', { json: 'version', predicate: SCHEMA('softwareVersion'), type: 'string' }],
  ];
  if (identifier !== undefined && node !== identifier)
    scalars.push(['identifier', { json: 'identifier', predicate: SCHEMA('identifier'), type: 'string' }]);
  for (const [key, field] of scalars) {
    const value = json[key];
    if (value === undefined || value === null) continue;
    const object = scalarTerm(field, value, `${at}.${key}`, ctx.out.errors);
    if (object !== undefined) add(field.predicate, object);
  }
  return node;
}

export { agentToJson, indexQuads, nodeToJson, type SubjectIndex } from './reader.js';
