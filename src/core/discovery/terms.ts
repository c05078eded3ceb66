import { GRAPHS, RDFS, SKOS } from '../ns.js';
import type { JsonObject } from '../records/mapper.js';
import { indexQuads } from '../records/mapper.js';
import { parseNQuads } from '../store/nquads.js';
import type { Core } from '../core.js';
import { cachedRecord } from '../federation/peers.js';

/** How record JSON refers to a vocabulary term: its IRI, label, and where the registry holds it. */
export interface TypeRef {
  readonly iri: string;
  readonly label?: string;
  readonly definition?: string;
  readonly source: 'bundled' | 'local' | 'external';
}

/**
 * Describes a term for record JSON: bundled terms from the in-memory index, others from the local graph, or from a
 * peer's cached stub.
 */
export async function describeTerm(core: Core, iri: string): Promise<TypeRef> {
  const held = core.reference.index.get(iri);
  if (held !== undefined)
    return held.label === undefined
      ? { iri, source: 'bundled' }
      : { iri, label: held.label, source: 'bundled' };
  const cached = core.memo.get<TypeRef>(`term ${iri}`, core.graph.generation);
  if (cached !== undefined) return cached;
  const source = iri.startsWith(`${core.config.baseIri}/`) ? 'local' : 'external';
  // A term of another registry is read from its stub when a peer's copy is cached.
  const text =
    (await core.graph.readRecord(GRAPHS.local, iri)) ??
    (source === 'external' ? (await cachedRecord(core, iri))?.nquads : undefined);
  let ref: TypeRef = { iri, source };
  if (text !== undefined) {
    const byPredicate = indexQuads(parseNQuads(text)).get(iri);
    const label =
      byPredicate?.get(SKOS('prefLabel'))?.[0]?.value ?? byPredicate?.get(RDFS('label'))?.[0]?.value;
    const definition = byPredicate?.get(SKOS('definition'))?.[0]?.value;
    ref = {
      iri,
      ...(label === undefined ? {} : { label }),
      ...(definition === undefined ? {} : { definition }),
      source,
    };
  }
  core.memo.set(`term ${iri}`, core.graph.generation, ref);
  return ref;
}

/** Replaces a list of term IRIs by their descriptions. */
export async function describeTerms(core: Core, iris: unknown): Promise<TypeRef[]> {
  if (!Array.isArray(iris)) return [];
  return Promise.all(
    iris.filter((iri): iri is string => typeof iri === 'string').map((iri) => describeTerm(core, iri)),
  );
}

/** The JSON of a capability node with its type IRIs described, and where it was declared. */
export async function presentCapability(
  core: Core,
  capability: unknown,
  owner: string,
  declaredAt: string,
): Promise<JsonObject | undefined> {
  if (capability === null || typeof capability !== 'object' || Array.isArray(capability)) return undefined;
  const json = capability as JsonObject;
  return {
    iri: `${owner}#capability`,
    produces: (await describeTerms(core, json.produces)) as unknown as JsonObject[],
    consumes: (await describeTerms(core, json.consumes)) as unknown as JsonObject[],
    declared_at: declaredAt,
  };
}
