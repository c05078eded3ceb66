/**
 * A shortcut through SHACL for records that conform. Most writes are valid, and proving a property shape holds
 * for a focus node is a few comparisons, while shacl-engine builds pointers, contexts and a report for every
 * shape it visits. The fast path only ever says "this property shape certainly holds here"; whatever it cannot
 * prove (a failure, or a constraint it does not evaluate) goes to shacl-engine, whose report is the only one
 * ever returned. So the results are the engine's, and a record that conforms never reaches it.
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory, type Store } from 'n3';
import { RDF as RDF_NS, RDFS, SH } from '../ns.js';
import { validLexicalForm } from './datatype.js';
import type { SmallDataset } from './small-dataset.js';

/** How one property shape fares on one focus node: holds, or needs the engine. */
type Verdict = 'holds' | 'engine';

/** A property shape compiled to a check over the values of its predicate. */
interface CompiledProperty {
  readonly shape: RDF.Term;
  check(focus: RDF.Term, data: SmallDataset): Verdict;
}

/** A node shape: its property shapes, and whether it has node-level constraints the fast path leaves alone. */
export interface CompiledNodeShape {
  readonly shape: RDF.Term;
  /** False when the shape constrains the focus node itself (sh:or, sh:not, ...): the engine validates it whole. */
  readonly simple: boolean;
  readonly properties: readonly CompiledProperty[];
}

/** Node-shape predicates that constrain nothing (targets, annotations, the property list). */
const NODE_SHAPE_FREE = new Set(
  [
    'targetClass',
    'targetNode',
    'targetObjectsOf',
    'targetSubjectsOf',
    'property',
    'message',
    'severity',
    'name',
    'description',
    'order',
    'group',
  ].map((local) => SH(local)),
);
/** Property-shape predicates that constrain nothing. */
const PROPERTY_FREE = new Set(
  ['path', 'message', 'severity', 'name', 'description', 'order', 'group', 'defaultValue', 'flags'].map(
    (local) => SH(local),
  ),
);
/** Constraints on each value: with no values they hold whatever they say. */
const PER_VALUE = new Set(
  [
    'datatype',
    'nodeKind',
    'class',
    'minLength',
    'maxLength',
    'pattern',
    'in',
    'node',
    'or',
    'and',
    'not',
    'xone',
    'minInclusive',
    'maxInclusive',
    'minExclusive',
    'maxExclusive',
    'languageIn',
    'uniqueLang',
  ].map((local) => SH(local)),
);
/** Comparisons with another property's values: they hold when either side has no values. */
const ORDERING = new Set([SH('lessThan'), SH('lessThanOrEquals')]);

const NODE_KINDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [SH('BlankNode'), new Set(['BlankNode'])],
  [SH('BlankNodeOrIRI'), new Set(['BlankNode', 'NamedNode'])],
  [SH('BlankNodeOrLiteral'), new Set(['BlankNode', 'Literal'])],
  [SH('IRI'), new Set(['NamedNode'])],
  [SH('IRIOrLiteral'), new Set(['NamedNode', 'Literal'])],
  [SH('Literal'), new Set(['Literal'])],
]);

const RDF_TYPE = DataFactory.namedNode(RDF_NS('type'));

/** The key two equal terms share (TermSet's notion of equality). */
export function termKey(term: RDF.Term): string {
  if (term.termType === 'Literal') return `"${term.value}"@${term.language}^^${term.datatype.value}`;
  return `${term.termType}:${term.value}`;
}

/** A class and every class the shapes graph declares a subclass of it, directly or not; the class first. */
export function subclassesOf(shapes: Store, cls: RDF.Term): RDF.Term[] {
  const found = new Map<string, RDF.Term>();
  const pending = [cls];
  while (pending.length > 0) {
    const next = pending.pop() as RDF.Term;
    if (found.has(termKey(next))) continue;
    found.set(termKey(next), next);
    pending.push(...shapes.getSubjects(DataFactory.namedNode(RDFS('subClassOf')), next, null));
  }
  return [...found.values()];
}

/** Compiles every node shape of the shapes graph, keyed by `termKey` of the shape. */
export function compileFastPath(shapes: Store): Map<string, CompiledNodeShape> {
  const compiler = new Compiler(shapes);
  const nodeShapes = shapes.getSubjects(RDF_TYPE, DataFactory.namedNode(SH('NodeShape')), null);
  const compiled = new Map<string, CompiledNodeShape>();
  for (const shape of nodeShapes) compiled.set(termKey(shape), compiler.nodeShape(shape));
  return compiled;
}

class Compiler {
  private readonly nodeShapes = new Map<string, CompiledNodeShape>();

  constructor(private readonly shapes: Store) {}

  private objects(subject: RDF.Term, predicate: string): RDF.Term[] {
    return this.shapes.getObjects(subject, DataFactory.namedNode(predicate), null);
  }

  private one(subject: RDF.Term, predicate: string): RDF.Term | undefined {
    return this.objects(subject, predicate)[0];
  }

  private list(head: RDF.Term): RDF.Term[] {
    const items: RDF.Term[] = [];
    let node: RDF.Term | undefined = head;
    while (node !== undefined && node.value !== RDF_NS('nil')) {
      const first = this.one(node, RDF_NS('first'));
      if (first !== undefined) items.push(first);
      node = this.one(node, RDF_NS('rest'));
    }
    return items;
  }

  /** A class and its subclasses as the shapes graph declares them (what shacl-engine resolves `sh:class` to). */
  private classes(cls: RDF.Term): Set<string> {
    return new Set(subclassesOf(this.shapes, cls).map(termKey));
  }

  nodeShape(shape: RDF.Term): CompiledNodeShape {
    const key = termKey(shape);
    const known = this.nodeShapes.get(key);
    if (known !== undefined) return known;
    // Placed first, so a shape that reaches itself through sh:node is left to the engine, not compiled forever.
    const placeholder: CompiledNodeShape = { shape, simple: false, properties: [] };
    this.nodeShapes.set(key, placeholder);
    const quads = this.shapes.getQuads(shape, null, null, null);
    const simple = quads.every(
      ({ predicate }) =>
        NODE_SHAPE_FREE.has(predicate.value) ||
        predicate.value === RDF_NS('type') ||
        !predicate.value.startsWith(SH('')),
    );
    const compiled: CompiledNodeShape = {
      shape,
      simple,
      properties: this.objects(shape, SH('property')).map((property) => this.property(property)),
    };
    this.nodeShapes.set(key, compiled);
    return compiled;
  }

  private property(shape: RDF.Term): CompiledProperty {
    const engine: CompiledProperty = { shape, check: () => 'engine' };
    const path = this.one(shape, SH('path'));
    if (path?.termType !== 'NamedNode') return engine;
    const predicate = path;
    const constraints = this.shapes
      .getQuads(shape as RDF.Quad_Subject, null, null, null)
      .filter(({ predicate: p }) => p.value.startsWith(SH('')) && !PROPERTY_FREE.has(p.value));
    const countChecks: ((values: readonly RDF.Term[]) => boolean)[] = [];
    const valueChecks: ((value: RDF.Term, data: SmallDataset) => boolean)[] = [];
    // Constraints the fast path does not evaluate, and when they still hold without evaluating them.
    let opaqueValues = false;
    const ordering: RDF.NamedNode[] = [];
    for (const { predicate: constraint, object } of constraints) {
      const kind = constraint.value;
      const compiledValue = this.valueCheck(kind, object, shape);
      if (kind === SH('minCount')) {
        const least = Number.parseInt(object.value, 10);
        countChecks.push((values) => values.length >= least);
      } else if (kind === SH('maxCount')) {
        const most = Number.parseInt(object.value, 10);
        countChecks.push((values) => values.length <= most);
      } else if (kind === SH('hasValue')) {
        const wanted = termKey(object);
        countChecks.push((values) => values.some((value) => termKey(value) === wanted));
      } else if (ORDERING.has(kind) && object.termType === 'NamedNode') {
        ordering.push(object);
      } else if (compiledValue !== undefined) {
        valueChecks.push(compiledValue);
      } else if (PER_VALUE.has(kind)) {
        opaqueValues = true;
      } else {
        return engine;
      }
    }
    return {
      shape,
      check(focus, data) {
        const values = objectsOf(data, focus, predicate);
        if (!countChecks.every((check) => check(values))) return 'engine';
        if (values.length === 0) return 'holds';
        if (opaqueValues) return 'engine';
        if (ordering.some((other) => objectsOf(data, focus, other).length > 0)) return 'engine';
        for (const value of values) {
          for (const check of valueChecks) if (!check(value, data)) return 'engine';
        }
        return 'holds';
      },
    };
  }

  /** A check of one value against one constraint, or undefined when the fast path does not evaluate it. */
  private valueCheck(
    kind: string,
    object: RDF.Term,
    shape: RDF.Term,
  ): ((value: RDF.Term, data: SmallDataset) => boolean) | undefined {
    switch (kind) {
      case SH('datatype'):
        return (value) =>
          value.termType === 'Literal' && value.datatype.equals(object) && validLexicalForm(value);
      case SH('nodeKind'): {
        const allowed = NODE_KINDS.get(object.value);
        return allowed === undefined ? undefined : (value) => allowed.has(value.termType);
      }
      case SH('minLength'): {
        const least = Number.parseInt(object.value, 10);
        return (value) => value.termType !== 'BlankNode' && value.value.length >= least;
      }
      case SH('maxLength'): {
        const most = Number.parseInt(object.value, 10);
        return (value) => value.termType !== 'BlankNode' && value.value.length <= most;
      }
      case SH('pattern'): {
        const flags = this.one(shape, SH('flags'))?.value;
        const pattern = new RegExp(object.value, flags);
        return (value) => pattern.test(value.value);
      }
      case SH('in'): {
        const allowed = new Set(this.list(object).map(termKey));
        return (value) => allowed.has(termKey(value));
      }
      case SH('class'): {
        const classes = this.classes(object);
        return (value, data) => objectsOf(data, value, RDF_TYPE).some((type) => classes.has(termKey(type)));
      }
      case SH('node'): {
        const nested = this.nodeShape(object);
        return (value, data) => holdsWhole(nested, value, data);
      }
      default:
        return undefined;
    }
  }
}

/** Whether a node shape certainly holds for a node (every property shape proven, no node-level constraint). */
function holdsWhole(shape: CompiledNodeShape, focus: RDF.Term, data: SmallDataset): boolean {
  return shape.simple && shape.properties.every((property) => property.check(focus, data) === 'holds');
}

function objectsOf(data: SmallDataset, subject: RDF.Term, predicate: RDF.Term): RDF.Term[] {
  return data.objectsOf(subject, predicate);
}

/**
 * What the engine must still validate for one node shape on its focus nodes: the whole shape for nodes when it
 * has node-level constraints, otherwise each property shape on the nodes the fast path could not prove it for.
 */
export function remainingWork(
  compiled: CompiledNodeShape | undefined,
  shape: RDF.Term,
  focus: readonly RDF.Term[],
  data: SmallDataset,
): [shape: RDF.Term, focus: RDF.Term[]][] {
  if (compiled === undefined || !compiled.simple) return [[shape, [...focus]]];
  const work: [RDF.Term, RDF.Term[]][] = [];
  for (const property of compiled.properties) {
    const open = focus.filter((node) => property.check(node, data) !== 'holds');
    if (open.length > 0) work.push([property.shape, open]);
  }
  return work;
}
