/**
 * SHACL validation of candidate records. The validator is compiled once from the shapes graph and reused for
 * every write; each result names the JSON field it concerns (from the shape's reg:jsonField), so a refusal
 * can list every problem in the caller's terms.
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser, Store, type Quad as N3Quad } from 'n3';
import { Validator, type ShaclFactory, type ShaclResult } from 'shacl-engine';
import { RDF as RDF_NS, RDFS, REG, SH } from '../ns.js';
import { ENGINE_VALIDATIONS } from './datatype.js';
import { compileFastPath, remainingWork, subclassesOf, termKey } from './fast-path.js';
import { SmallDataset } from './small-dataset.js';

/** Severity of a result: violations refuse a write, warnings never do. */
export type ResultSeverity = 'violation' | 'warning';

/** One problem found in a record. */
export interface ValidationResult {
  readonly severity: ResultSeverity;
  /** JSON field the problem concerns, e.g. `name` or `distributions[0].byte_size`. */
  readonly field: string;
  /** Plain-English sentence starting with `field`. */
  readonly message: string;
  /** IRI of the node that failed (a blank node is written `_:label`). */
  readonly focusNode: string;
  /** Predicate IRI of the property concerned, when the constraint is on a single property. */
  readonly path?: string;
  /** The offending value (IRI or lexical form), when there is one. */
  readonly value?: string;
  /** Whether `value` is an IRI, a literal or a blank node. */
  readonly valueType?: 'iri' | 'literal' | 'blank';
  /** IRI of the SHACL constraint component, e.g. sh:MinCountConstraintComponent. */
  readonly component: string;
}

/** Outcome of validating one record. */
export interface ValidationReport {
  /** True when no result is a violation (warnings allowed). */
  readonly conforms: boolean;
  /** Every result, violations first, then by field; deterministic for the same input. */
  readonly results: readonly ValidationResult[];
}

/** Options of one validation. */
export interface ValidateOptions {
  /**
   * JSON path of owned sub-resources by node IRI, e.g. `<artifact>#distribution-2` -> `distributions[2]`. A
   * result on such a node is named `<path>.<last segment of its field>`, so nested problems name their element.
   */
  readonly locate?: ReadonlyMap<string, string>;
}

/** A validator compiled from one shapes graph. */
export interface RecordValidator {
  /** Validates the quads of one candidate record (graph names are ignored) and names every problem. */
  validate(quads: Iterable<RDF.Quad>, options?: ValidateOptions): Promise<ValidationReport>;
  /** Validates several records in one go (one message to a worker); reports in the order given. */
  validateMany(records: readonly RecordToValidate[]): Promise<ValidationReport[]>;
}

/** One record of a batch: its quads and how to name its nodes. */
export interface RecordToValidate {
  readonly quads: Iterable<RDF.Quad>;
  /**
   * The quads' canonical N-Quads text, when the caller holds it: a validator in worker threads sends it as it is
   * (and `quads` may then parse it only when iterated).
   */
  readonly nquads?: string;
  readonly options?: ValidateOptions;
}

const VIOLATION = SH('Violation');
const RDF_TYPE = RDF_NS('type');
const JSON_FIELD = REG('jsonField');

/**
 * The data factory shacl-engine needs: n3 terms, with small list-backed datasets for records and reports (the
 * shapes graph itself stays an indexed n3 Store).
 */
export const shaclFactory: ShaclFactory = {
  ...DataFactory,
  dataset: (quads?: RDF.Quad[]) => new SmallDataset(quads),
};

/** How a validator reaches its results. */
export interface ValidatorOptions {
  /**
   * `fast` (the default) proves conforming property shapes itself and asks shacl-engine only about the rest;
   * `engine` hands every record to shacl-engine whole. Both give the same results; `engine` is the reference
   * the fast path is tested against.
   */
  readonly strategy?: 'fast' | 'engine';
}

/** Compiles a validator from the shapes graph as N-Triples (the shapes bundle) or Turtle. */
export function createValidator(shapesText: string, options: ValidatorOptions = {}): RecordValidator {
  const shapes = new Store(new Parser({ format: 'text/turtle' }).parse(shapesText));
  const fields = new Map<string, string>();
  for (const quad of shapes.match(null, DataFactory.namedNode(JSON_FIELD), null, null)) {
    fields.set(termKey(quad.subject), quad.object.value);
  }
  if (fields.size === 0)
    throw new Error('the shapes graph names no reg:jsonField; is it the registry shapes graph?');
  const engine = new Validator(shapes, { factory: shaclFactory, validations: ENGINE_VALIDATIONS });
  const targets = options.strategy === 'engine' ? undefined : shapeTargets(shapes);
  const fast = compileFastPath(shapes);

  const validator: RecordValidator = {
    async validateMany(records) {
      const reports: ValidationReport[] = [];
      for (const record of records) reports.push(await validator.validate(record.quads, record.options));
      return reports;
    },
    async validate(quads, options = {}) {
      const data = new SmallDataset();
      for (const quad of quads) {
        // Records live in named graphs, but a record is validated as one graph: drop the graph name.
        // fromQuad copies terms made by other libraries (oxigraph) into n3 terms; its typing only admits n3 quads.
        const { subject, predicate, object } = DataFactory.fromQuad(quad as N3Quad);
        data.add(DataFactory.quad(subject, predicate, object));
      }
      const found: ShaclResult[] = [];
      if (targets === undefined) {
        found.push(...(await engine.validate({ dataset: data })).results);
      } else {
        // Each shape is validated on the focus nodes its targets select in this record, found from the index
        // built at compile time; the engine's own resolution would scan the whole record once per shape.
        // The fast path proves what it can; the engine validates the rest and writes every result.
        for (const [nodeShape, nodes] of focusNodes(targets, data)) {
          for (const [shape, focus] of remainingWork(fast.get(termKey(nodeShape)), nodeShape, nodes, data)) {
            const report = await engine.validate({ dataset: data, terms: focus }, [{ terms: [shape] }]);
            found.push(...report.results);
          }
        }
      }
      const results = dedupe(found.map((result) => toResult(result, fields, options.locate)));
      results.sort(compareResults);
      return { conforms: !results.some((r) => r.severity === 'violation'), results };
    },
  };
  return validator;
}

/** Which top-level shapes target which nodes: by class (subclasses included), by predicate, or by name. */
interface TargetIndex {
  readonly byClass: ReadonlyMap<string, readonly RDF.Term[]>;
  readonly bySubjectOf: ReadonlyMap<string, readonly RDF.Term[]>;
  readonly byObjectOf: ReadonlyMap<string, readonly RDF.Term[]>;
  readonly byNode: readonly [shape: RDF.Term, node: RDF.Term][];
}

/**
 * Indexes the targets of the shapes graph, or returns undefined when a shape uses a target the index does not
 * cover (SPARQL-based `sh:target`, or a shape that is also a class), so the engine resolves them itself.
 */
function shapeTargets(shapes: Store): TargetIndex | undefined {
  const term = (iri: string) => DataFactory.namedNode(iri);
  if (shapes.countQuads(null, term(SH('target')), null, null) > 0) return undefined;
  for (const shape of shapes.getSubjects(term(RDF_TYPE), term(SH('NodeShape')), null)) {
    if (shapes.countQuads(shape, term(RDF_TYPE), term(RDFS('Class')), null) > 0) return undefined;
  }
  const add = (map: Map<string, RDF.Term[]>, key: string, shape: RDF.Term) => {
    const list = map.get(key) ?? [];
    if (!list.some((known) => known.equals(shape))) list.push(shape);
    map.set(key, list);
  };
  const byClass = new Map<string, RDF.Term[]>();
  for (const quad of shapes.match(null, term(SH('targetClass')), null, null)) {
    // A class targets its instances and those of its subclasses (as declared in the shapes graph).
    for (const cls of subclassesOf(shapes, quad.object)) add(byClass, cls.value, quad.subject);
  }
  const byPredicate = (predicate: string) => {
    const map = new Map<string, RDF.Term[]>();
    for (const quad of shapes.match(null, term(SH(predicate)), null, null))
      add(map, quad.object.value, quad.subject);
    return map;
  };
  const byNode = shapes
    .getQuads(null, term(SH('targetNode')), null, null)
    .map((quad): [RDF.Term, RDF.Term] => [quad.subject, quad.object]);
  return {
    byClass,
    bySubjectOf: byPredicate('targetSubjectsOf'),
    byObjectOf: byPredicate('targetObjectsOf'),
    byNode,
  };
}

/** The focus nodes of each shape in one record, keyed by shape. */
function focusNodes(targets: TargetIndex, data: SmallDataset): Map<RDF.Term, RDF.Term[]> {
  const byShape = new Map<string, { shape: RDF.Term; nodes: Map<string, RDF.Term> }>();
  const target = (shape: RDF.Term, node: RDF.Term) => {
    const key = termKey(shape);
    const entry = byShape.get(key) ?? { shape, nodes: new Map<string, RDF.Term>() };
    entry.nodes.set(termKey(node), node);
    byShape.set(key, entry);
  };
  for (const quad of data) {
    const predicate = quad.predicate.value;
    if (predicate === RDF_TYPE)
      for (const shape of targets.byClass.get(quad.object.value) ?? []) target(shape, quad.subject);
    for (const shape of targets.bySubjectOf.get(predicate) ?? []) target(shape, quad.subject);
    for (const shape of targets.byObjectOf.get(predicate) ?? []) target(shape, quad.object);
  }
  for (const [shape, node] of targets.byNode) target(shape, node);
  return new Map([...byShape.values()].map(({ shape, nodes }) => [shape, [...nodes.values()]]));
}

function toResult(
  result: ShaclResult,
  fields: ReadonlyMap<string, string>,
  locate: ReadonlyMap<string, string> | undefined,
): ValidationResult {
  const shapeTerm = result.shape.ptr.term;
  const path = singlePredicate(result);
  const declared = (shapeTerm && fields.get(termKey(shapeTerm))) ?? (path ? localName(path) : 'record');
  const focus = result.focusNode.term;
  const focusNode =
    focus === undefined ? '' : focus.termType === 'BlankNode' ? `_:${focus.value}` : focus.value;
  const field = relocate(declared, locate?.get(focusNode));
  const shapeMessage = result.message[0]?.value ?? `${declared} is not valid.`;
  const message = shapeMessage.startsWith(declared)
    ? field + shapeMessage.slice(declared.length)
    : shapeMessage;
  // A node-level constraint reports the focus node itself as its value, which says nothing new.
  const valueTerm = result.value?.term?.equals(focus ?? null) === true ? undefined : result.value?.term;
  return {
    severity: result.severity.value === VIOLATION ? 'violation' : 'warning',
    field,
    message,
    focusNode,
    ...(path === undefined ? {} : { path }),
    ...(valueTerm === undefined ? {} : { value: valueTerm.value, valueType: valueType(valueTerm) }),
    component: result.constraintComponent.value,
  };
}

// `distributions.byte_size` on a node located at `distributions[2]` becomes `distributions[2].byte_size`.
function relocate(field: string, location: string | undefined): string {
  if (location === undefined || location === '') return field;
  return `${location}.${field.slice(field.lastIndexOf('.') + 1)}`;
}

function singlePredicate(result: ShaclResult): string | undefined {
  const step = result.path?.length === 1 ? result.path[0] : undefined;
  if (
    step === undefined ||
    step.quantifier !== 'one' ||
    step.start !== 'subject' ||
    step.predicates.length !== 1
  ) {
    return undefined;
  }
  return step.predicates[0]?.value;
}

function valueType(term: RDF.Term): 'iri' | 'literal' | 'blank' {
  return term.termType === 'NamedNode' ? 'iri' : term.termType === 'BlankNode' ? 'blank' : 'literal';
}

function localName(iri: string): string {
  return iri.slice(Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/')) + 1);
}

function dedupe(results: ValidationResult[]): ValidationResult[] {
  const seen = new Set<string>();
  return results.filter((r) => {
    // One property shape carries one message, so two of its constraints failing on the same value (datatype and
    // range, say) would repeat the same sentence: report it once.
    const key = JSON.stringify([r.severity, r.field, r.focusNode, r.path, r.value, r.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function compareResults(a: ValidationResult, b: ValidationResult): number {
  if (a.severity !== b.severity) return a.severity === 'violation' ? -1 : 1;
  for (const key of ['field', 'focusNode', 'message', 'value', 'component'] as const) {
    const x = a[key] ?? '';
    const y = b[key] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
