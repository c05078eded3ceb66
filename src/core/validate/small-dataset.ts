import type * as RDF from '@rdfjs/types';

const same = (pattern: RDF.Term | null | undefined, term: RDF.Term): boolean =>
  pattern === null || pattern === undefined || pattern.equals(term);

/** Whether a pattern position is bound. */
const bound = (pattern: RDF.Term | null | undefined): pattern is RDF.Term =>
  pattern !== null && pattern !== undefined;

/**
 * An RDF/JS DatasetCore for the quads of one record: quads kept in insertion order, keyed by their text and
 * grouped by subject and predicate. Validation builds one per record and one per report. Every operation the
 * engine calls per value (`add`, `has`, a match on subject and predicate) is a hash lookup, so a record whose
 * node holds thousands of values of one field validates in time linear in their number; a scan of the subject's
 * quads per value made it quadratic.
 */
export class SmallDataset implements RDF.DatasetCore {
  private readonly quads = new Map<string, RDF.Quad>();
  /** subject key -> predicate IRI -> quads. */
  private readonly bySubject = new Map<string, Map<string, RDF.Quad[]>>();

  constructor(quads: Iterable<RDF.Quad> = []) {
    for (const quad of quads) this.add(quad);
  }

  get size(): number {
    return this.quads.size;
  }

  add(quad: RDF.Quad): this {
    const key = quadKey(quad);
    if (this.quads.has(key)) return this;
    this.quads.set(key, quad);
    const subject = termKey(quad.subject);
    let byPredicate = this.bySubject.get(subject);
    if (byPredicate === undefined) this.bySubject.set(subject, (byPredicate = new Map<string, RDF.Quad[]>()));
    const group = byPredicate.get(quad.predicate.value);
    if (group === undefined) byPredicate.set(quad.predicate.value, [quad]);
    else group.push(quad);
    return this;
  }

  delete(quad: RDF.Quad): this {
    const key = quadKey(quad);
    const known = this.quads.get(key);
    if (known === undefined) return this;
    this.quads.delete(key);
    const group = this.bySubject.get(termKey(quad.subject))?.get(quad.predicate.value) ?? [];
    group.splice(group.indexOf(known), 1);
    return this;
  }

  has(quad: RDF.Quad): boolean {
    return this.quads.has(quadKey(quad));
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
      if (quad.subject.equals(subject) && quad.predicate.equals(predicate)) values.push(quad.object);
    return values;
  }

  [Symbol.iterator](): Iterator<RDF.Quad> {
    return this.quads.values();
  }

  /** The quads a match may select, narrowed by the index when subject (and predicate) are bound. */
  private candidates(subject?: RDF.Term | null, predicate?: RDF.Term | null): Iterable<RDF.Quad> {
    if (!bound(subject)) return this.quads.values();
    const byPredicate = this.bySubject.get(termKey(subject));
    if (byPredicate === undefined) return [];
    if (bound(predicate)) return byPredicate.get(predicate.value) ?? [];
    return [...byPredicate.values()].flat();
  }
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
