/**
 * SHACL validation of candidate records. The validator is compiled once from the shapes graph and reused for
 * every write; each result names the JSON field it concerns (from the shape's reg:jsonField), so a refusal
 * can list every problem in the caller's terms.
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser, Store, type Quad as N3Quad } from 'n3';
import { Validator, type ShaclFactory, type ShaclResult } from 'shacl-engine';
import { REG, SH } from '../ns.js';

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
}

const VIOLATION = SH('Violation');
const JSON_FIELD = REG('jsonField');

/** The data factory shacl-engine needs: n3 terms, with n3 Stores as datasets (fastest combination measured). */
export const shaclFactory: ShaclFactory = {
  ...DataFactory,
  dataset: (quads?: RDF.Quad[]) => new Store(quads),
};

/** Compiles a validator from the shapes graph as N-Triples (the shapes bundle) or Turtle. */
export function createValidator(shapesText: string): RecordValidator {
  const shapes = new Store(new Parser({ format: 'text/turtle' }).parse(shapesText));
  const fields = new Map<string, string>();
  for (const quad of shapes.match(null, DataFactory.namedNode(JSON_FIELD), null, null)) {
    fields.set(termKey(quad.subject), quad.object.value);
  }
  if (fields.size === 0)
    throw new Error('the shapes graph names no reg:jsonField; is it the registry shapes graph?');
  const engine = new Validator(shapes, { factory: shaclFactory });

  return {
    async validate(quads, options = {}) {
      const data = new Store();
      for (const quad of quads) {
        // Records live in named graphs, but a record is validated as one graph: drop the graph name.
        // fromQuad copies terms made by other libraries (oxigraph) into n3 terms; its typing only admits n3 quads.
        const { subject, predicate, object } = DataFactory.fromQuad(quad as N3Quad);
        data.addQuad(subject, predicate, object);
      }
      const report = await engine.validate({ dataset: data });
      const results = dedupe(report.results.map((result) => toResult(result, fields, options.locate)));
      results.sort(compareResults);
      return { conforms: !results.some((r) => r.severity === 'violation'), results };
    },
  };
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

function termKey(term: RDF.Term): string {
  return `${term.termType}:${term.value}`;
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
