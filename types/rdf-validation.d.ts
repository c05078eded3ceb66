/**
 * Type declarations for rdf-validation 0.1.1, which ships none. Only the XSD lexical-form check the SHACL fast
 * path shares with shacl-engine is declared (lib/term/XsdValidation.js).
 */
declare module 'rdf-validation' {
  import type * as RDF from '@rdfjs/types';

  /** Checks literals against the lexical space of their XSD datatype; unknown datatypes pass. */
  export class XsdValidation {
    /** True when the literal's lexical form is valid for its datatype. */
    validateSimple(term: RDF.Literal): boolean;
  }
}
