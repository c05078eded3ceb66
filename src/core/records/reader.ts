/**
 * Reading records back: quads into JSON, from the same record descriptions that map JSON to quads (mapper.ts).
 */
import type * as RDF from '@rdfjs/types';
import { RDF as RDFNS, SCHEMA } from '../ns.js';
import type { Quad } from '../store/nquads.js';
import { AGENT_CLASSES, type Json, type JsonObject } from './mapper.js';
import type { FieldSpec, NodeSpec, ScalarField } from './schema.js';

const RDF_TYPE = RDFNS('type');

/** Quads grouped by subject and predicate, for reading records back. */
export type SubjectIndex = Map<string, Map<string, RDF.Term[]>>;

/** Indexes quads by subject and predicate. */
export function indexQuads(quads: Iterable<Quad>): SubjectIndex {
  const index: SubjectIndex = new Map();
  for (const quad of quads) {
    let byPredicate = index.get(quad.subject.value);
    if (byPredicate === undefined)
      index.set(quad.subject.value, (byPredicate = new Map<string, RDF.Term[]>()));
    const objects = byPredicate.get(quad.predicate.value);
    if (objects === undefined) byPredicate.set(quad.predicate.value, [quad.object]);
    else objects.push(quad.object);
  }
  return index;
}

/** Reads a node back into JSON from the same description that wrote it. Absent fields are omitted. */
export function nodeToJson(spec: NodeSpec, node: string, index: SubjectIndex): JsonObject {
  const byPredicate: Map<string, RDF.Term[]> = index.get(node) ?? new Map<string, RDF.Term[]>();
  const json: JsonObject = {};
  for (const field of spec.fields) {
    let objects = byPredicate.get(field.predicate) ?? [];
    for (const legacy of field.legacy ?? [])
      if (objects.length === 0) objects = byPredicate.get(legacy) ?? [];
    if (objects.length === 0) continue;
    const values = readValues(field, objects, index);
    if (values.length === 0) continue;
    json[field.json] = field.many === true ? values : (values[0] ?? null);
  }
  return json;
}

function readValues(field: FieldSpec, objects: readonly RDF.Term[], index: SubjectIndex): Json[] {
  if (field.type === 'node') {
    // Owned nodes are told apart by their fragment, so two fields may share a predicate (the two producer claims).
    const own = new RegExp(`[#-]${field.fragment}${field.many === true ? '-\\d+' : ''}$`);
    const nodes = objects.map((term) => term.value).filter((iri) => own.test(iri));
    return sortByPosition(nodes).map((node) => nodeToJson(field.node, node, index));
  }
  if (field.type === 'agent')
    return sortByPosition(objects.map((term) => term.value)).map((agent) => agentToJson(agent, index));
  const values = objects.map((term) => scalarValue(field, term));
  if (field.values !== undefined) {
    const order = field.values;
    const rank = (value: Json): number => (typeof value === 'string' ? order.indexOf(value) : -1);
    return [...new Set(values)].sort((a, b) => rank(a) - rank(b));
  }
  return field.many === true ? [...new Set(values)].sort() : values;
}

function scalarValue(field: ScalarField, term: RDF.Term): Json {
  if (field.type === 'json') {
    try {
      return JSON.parse(term.value) as Json;
    } catch {
      return term.value;
    }
  }
  if (field.type === 'boolean') return term.value === 'true';
  if (field.type === 'integer') return Number(term.value);
  return term.value;
}

/** Orders owned nodes by the index at the end of their fragment (`#download-2` after `#download-1`). */
function sortByPosition(nodes: string[]): string[] {
  const position = (iri: string): number => Number(/-(\d+)$/.exec(iri)?.[1] ?? 0);
  return [...new Set(nodes)].sort((a, b) => position(a) - position(b) || a.localeCompare(b));
}

/** Reads an agent node: name, kind, identifier, homepage, email, version. */
export function agentToJson(agent: string, index: SubjectIndex): JsonObject {
  const byPredicate = index.get(agent) ?? new Map<string, RDF.Term[]>();
  const first = (predicate: string): string | undefined => byPredicate.get(predicate)?.[0]?.value;
  const json: JsonObject = { iri: agent };
  const name = first(SCHEMA('name'));
  if (name !== undefined) json.name = name;
  const types = new Set((byPredicate.get(RDF_TYPE) ?? []).map((term) => term.value));
  const kind = Object.entries(AGENT_CLASSES).find(([, cls]) => types.has(cls))?.[0];
  if (kind !== undefined) json.kind = kind;
  const identifier = first(SCHEMA('identifier')) ?? (agent.includes('#') ? undefined : agent);
  if (identifier !== undefined) json.identifier = identifier;
  for (const [key, predicate] of [
    ['homepage', SCHEMA('url')],
    ['email', SCHEMA('email')],
    ['version', SCHEMA('softwareVersion')],
  ] as const) {
    const value = first(predicate);
    if (value !== undefined) json[key] = value;
  }
  return json;
}
