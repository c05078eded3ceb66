/**
 * Type declarations for shacl-engine 1.1.2, which ships none. Only the surface the validator module uses is
 * declared; the shapes are taken from the package's Validator.js, lib/Report.js and lib/Result.js.
 */
declare module 'shacl-engine' {
  import type * as RDF from '@rdfjs/types';

  /** RDF/JS data factory plus `dataset()`, which the engine calls when it builds `report.dataset`. */
  export interface ShaclFactory extends RDF.DataFactory {
    dataset(quads?: RDF.Quad[]): RDF.DatasetCore;
  }

  /** The pointer of the shape being compiled, as a validation's compile function reads it. */
  export interface ShaclCompileShape {
    readonly ptr: { out(predicates: RDF.Term[]): ShaclPointer };
  }

  /** What a validation's check sees of one value (or the focus node). */
  export interface ShaclContext {
    readonly valueOrNode: ShaclPointer;
    readonly factory: ShaclFactory;
    test(
      holds: boolean,
      component: RDF.NamedNode,
      options: { args?: Record<string, RDF.Term | undefined>; message?: RDF.Literal[]; value?: ShaclPointer },
    ): void;
  }

  /** A compiled validation: `generic` runs on each value of a property shape, or on the focus node. */
  export interface ShaclCompiled {
    readonly generic: (context: ShaclContext) => void;
  }

  export interface ValidatorOptions {
    factory: ShaclFactory;
    /** Validations by constraint predicate, replacing the engine's own (lib/validations.js). */
    validations?: Iterable<readonly [RDF.Term, (shape: ShaclCompileShape) => ShaclCompiled]>;
    coverage?: boolean;
    debug?: boolean;
    details?: boolean;
    trace?: boolean;
  }

  /** A grapoi pointer: the engine's handle on one or more nodes of a dataset. */
  export interface ShaclPointer {
    readonly term: RDF.Term | undefined;
    readonly terms: RDF.Term[];
  }

  /** One step of a parsed sh:path. */
  export interface ShaclPathStep {
    readonly quantifier: 'one' | 'oneOrMore' | 'zeroOrMore' | 'zeroOrOne';
    readonly start: 'subject' | 'object';
    readonly end: 'subject' | 'object';
    readonly predicates: RDF.Term[];
  }

  export interface ShaclShape {
    readonly ptr: ShaclPointer;
    readonly isPropertyShape: boolean;
  }

  export interface ShaclResult {
    readonly severity: RDF.NamedNode;
    readonly constraintComponent: RDF.NamedNode;
    readonly focusNode: ShaclPointer;
    readonly path: ShaclPathStep[] | null | undefined;
    readonly value: ShaclPointer | undefined;
    readonly shape: ShaclShape;
    readonly message: RDF.Literal[];
    readonly results: ShaclResult[];
  }

  export interface ShaclReport {
    readonly conforms: boolean;
    readonly results: ShaclResult[];
    readonly dataset: RDF.DatasetCore;
    readonly term: RDF.Term;
  }

  export class Validator {
    constructor(shapes: RDF.DatasetCore, options: ValidatorOptions);
    validate(
      data: { dataset: RDF.DatasetCore; terms?: Iterable<RDF.Term> },
      shapes?: { terms: Iterable<RDF.Term> }[],
    ): Promise<ShaclReport>;
  }
}
