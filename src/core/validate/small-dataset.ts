import type * as RDF from '@rdfjs/types';

const same = (pattern: RDF.Term | null | undefined, term: RDF.Term): boolean =>
  pattern === null || pattern === undefined || pattern.equals(term);

/**
 * An RDF/JS DatasetCore for the few dozen quads of one record: quads kept in a list and grouped by subject.
 * Validation builds one per record and one per report, and a fully indexed store costs more to build than
 * the engine saves in lookups at this size.
 */
export class SmallDataset implements RDF.DatasetCore {
  private readonly quads: RDF.Quad[] = [];
  private readonly bySubject = new Map<string, RDF.Quad[]>();

  constructor(quads: Iterable<RDF.Quad> = []) {
    for (const quad of quads) this.add(quad);
  }

  get size(): number {
    return this.quads.length;
  }

  add(quad: RDF.Quad): this {
    if (!this.has(quad)) this.push(quad);
    return this;
  }

  delete(quad: RDF.Quad): this {
    const at = this.quads.findIndex((known) => known.equals(quad));
    if (at < 0) return this;
    this.quads.splice(at, 1);
    const group = this.bySubject.get(subjectKey(quad.subject)) ?? [];
    group.splice(
      group.findIndex((known) => known.equals(quad)),
      1,
    );
    return this;
  }

  has(quad: RDF.Quad): boolean {
    return (this.bySubject.get(subjectKey(quad.subject)) ?? []).some((known) => known.equals(quad));
  }

  match(
    subject?: RDF.Term | null,
    predicate?: RDF.Term | null,
    object?: RDF.Term | null,
    graph?: RDF.Term | null,
  ): SmallDataset {
    const candidates =
      subject === null || subject === undefined
        ? this.quads
        : (this.bySubject.get(subjectKey(subject)) ?? []);
    const found = new SmallDataset();
    for (const quad of candidates) {
      if (
        same(subject, quad.subject) &&
        same(predicate, quad.predicate) &&
        same(object, quad.object) &&
        same(graph, quad.graph)
      )
        found.push(quad);
    }
    return found;
  }

  /** The objects of one subject and predicate, without building a dataset. */
  objectsOf(subject: RDF.Term, predicate: RDF.Term): RDF.Term[] {
    const values: RDF.Term[] = [];
    for (const quad of this.bySubject.get(subjectKey(subject)) ?? [])
      if (quad.predicate.equals(predicate) && quad.subject.equals(subject)) values.push(quad.object);
    return values;
  }

  [Symbol.iterator](): Iterator<RDF.Quad> {
    return this.quads[Symbol.iterator]();
  }

  /** Appends a quad known to be new (a match of a dataset without duplicates). */
  private push(quad: RDF.Quad): void {
    this.quads.push(quad);
    const key = subjectKey(quad.subject);
    const group = this.bySubject.get(key);
    if (group === undefined) this.bySubject.set(key, [quad]);
    else group.push(quad);
  }
}

function subjectKey(term: RDF.Term): string {
  return term.termType === 'BlankNode' ? `_:${term.value}` : term.value;
}
