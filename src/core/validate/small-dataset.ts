import type * as RDF from '@rdfjs/types';

const same = (pattern: RDF.Term | null | undefined, term: RDF.Term): boolean =>
  pattern === null || pattern === undefined || pattern.equals(term);

/** Whether a pattern position is bound. */
const bound = (pattern: RDF.Term | null | undefined): pattern is RDF.Term =>
  pattern !== null && pattern !== undefined;

/**
 * An RDF/JS DatasetCore for the quads of one record: quads kept in insertion order and indexed by subject, then
 * predicate, then the key of the rest (a named subject by its IRI, so the common case builds one short key per
 * quad). Validation builds one per record and one per report. Every operation the
 * engine calls per value (`add`, `has`, a match on subject and predicate) is a hash lookup, so a record whose
 * node holds thousands of values of one field validates in time linear in their number; a scan of the subject's
 * quads per value made it quadratic.
 */
export class SmallDataset implements RDF.DatasetCore {
  /** Every quad, in insertion order. */
  private readonly all = new Set<RDF.Quad>();
  /** Named-node subjects by IRI, other subjects by `termKey`: predicate IRI -> rest of the quad's key -> quad. */
  private readonly byIri = new Map<string, Map<string, Map<string, RDF.Quad>>>();
  private readonly byKey = new Map<string, Map<string, Map<string, RDF.Quad>>>();

  constructor(quads: Iterable<RDF.Quad> = []) {
    for (const quad of quads) this.add(quad);
  }

  get size(): number {
    return this.all.size;
  }

  add(quad: RDF.Quad): this {
    const byPredicate = this.predicatesOf(quad.subject, true) as Map<string, Map<string, RDF.Quad>>;
    let group = byPredicate.get(quad.predicate.value);
    if (group === undefined) byPredicate.set(quad.predicate.value, (group = new Map<string, RDF.Quad>()));
    const key = restKey(quad);
    if (group.has(key)) return this;
    group.set(key, quad);
    this.all.add(quad);
    return this;
  }

  delete(quad: RDF.Quad): this {
    const group = this.predicatesOf(quad.subject, false)?.get(quad.predicate.value);
    const key = restKey(quad);
    const known = group?.get(key);
    if (known === undefined) return this;
    group?.delete(key);
    this.all.delete(known);
    return this;
  }

  has(quad: RDF.Quad): boolean {
    return this.predicatesOf(quad.subject, false)?.get(quad.predicate.value)?.has(restKey(quad)) ?? false;
  }

  match(
    subject?: RDF.Term | null,
    predicate?: RDF.Term | null,
    object?: RDF.Term | null,
    graph?: RDF.Term | null,
  ): SmallDataset {
    const found = new SmallDataset();
    for (const quad of this.candidates(subject, predicate)) {
      if (
        same(subject, quad.subject) &&
        same(predicate, quad.predicate) &&
        same(object, quad.object) &&
        same(graph, quad.graph)
      )
        found.add(quad);
    }
    return found;
  }

  /** The objects of one subject and predicate, without building a dataset. */
  objectsOf(subject: RDF.Term, predicate: RDF.Term): RDF.Term[] {
    const values: RDF.Term[] = [];
    for (const quad of this.candidates(subject, predicate))
      if (quad.predicate.equals(predicate)) values.push(quad.object);
    return values;
  }

  [Symbol.iterator](): Iterator<RDF.Quad> {
    return this.all.values();
  }

  /** The predicate index of one subject (made when `make`). */
  private predicatesOf(subject: RDF.Term, make: boolean): Map<string, Map<string, RDF.Quad>> | undefined {
    const named = subject.termType === 'NamedNode';
    const index = named ? this.byIri : this.byKey;
    const key = named ? subject.value : termKey(subject);
    let byPredicate = index.get(key);
    if (byPredicate === undefined && make)
      index.set(key, (byPredicate = new Map<string, Map<string, RDF.Quad>>()));
    return byPredicate;
  }

  /** The quads a match may select, narrowed by the index when subject (and predicate) are bound. */
  private candidates(subject?: RDF.Term | null, predicate?: RDF.Term | null): Iterable<RDF.Quad> {
    if (!bound(subject)) return this.all;
    const byPredicate = this.predicatesOf(subject, false);
    if (byPredicate === undefined) return [];
    if (bound(predicate)) return byPredicate.get(predicate.value)?.values() ?? [];
    return [...byPredicate.values()].flatMap((group) => [...group.values()]);
  }
}

/**
 * What tells apart two quads of one subject and predicate IRI: the predicate (`-` for a named node, which no term
 * key starts with), the object, and the graph when it is not the default graph (term keys are self-delimiting, so
 * joined they stay unambiguous).
 */
function restKey(quad: RDF.Quad): string {
  const predicate = quad.predicate.termType === 'NamedNode' ? '-' : termKey(quad.predicate);
  const graph = quad.graph.termType === 'DefaultGraph' ? '' : termKey(quad.graph);
  return `${predicate}${termKey(quad.object)}${graph}`;
}

/**
 * A key two equal terms share and two different terms never do: every variable part carries its length, so no
 * value, whatever characters it holds, can be read as the start of the next part.
 */
function termKey(term: RDF.Term): string {
  const sized = (text: string): string => `${text.length}:${text}`;
  switch (term.termType) {
    case 'Literal':
      return `L${sized(term.value)}${sized(term.language)}${sized(term.datatype.value)}`;
    case 'Quad':
      return `Q${quadKey(term)}`;
    default:
      return `${term.termType.charAt(0)}${term.termType.length}${sized(term.value)}`;
  }
}

function quadKey(quad: RDF.BaseQuad): string {
  return [quad.subject, quad.predicate, quad.object, quad.graph].map(termKey).join('');
}
