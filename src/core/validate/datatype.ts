/**
 * The `sh:datatype` check, for the fast path and for shacl-engine alike. The XSD lexical rules come from
 * rdf-validation, whose string pattern reads text by UTF-16 code units: it refuses every character beyond U+FFFF
 * (an emoji, a CJK extension character), since those are written as two surrogate code units, and it misses some
 * lone surrogates. Here a character is a character: each one beyond U+FFFF is checked as an ordinary letter would
 * be, and any lone surrogate makes the value invalid, whatever its datatype.
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { XsdValidation } from 'rdf-validation';
import type { ShaclCompiled, ShaclCompileShape } from 'shacl-engine';
import { SH } from '../ns.js';

const xsd = new XsdValidation();
const LONE_SURROGATE = /\p{Cs}/u;
const BEYOND_BMP = /[\u{10000}-\u{10FFFF}]/gu;

/** Whether a literal's lexical form is valid for its datatype, reading characters beyond U+FFFF as characters. */
export function validLexicalForm(term: RDF.Literal): boolean {
  if (LONE_SURROGATE.test(term.value)) return false;
  const value = term.value.replace(BEYOND_BMP, 'x');
  if (value === term.value) return xsd.validateSimple(term);
  return xsd.validateSimple(DataFactory.literal(value, term.language === '' ? term.datatype : term.language));
}

const DATATYPE_COMPONENT = DataFactory.namedNode(SH('DatatypeConstraintComponent'));
const DATATYPE = DataFactory.namedNode(SH('datatype'));

/** shacl-engine's compilation of `sh:datatype`, with the lexical check above in place of its own. */
export function compileDatatype(shape: ShaclCompileShape): ShaclCompiled {
  const datatype = shape.ptr.out([DATATYPE]).term;
  return {
    generic: (context) => {
      const term = context.valueOrNode.term;
      const holds =
        term?.termType === 'Literal' &&
        datatype !== undefined &&
        datatype.equals(term.datatype) &&
        validLexicalForm(term);
      context.test(holds, DATATYPE_COMPONENT, {
        args: { datatype },
        message: [context.factory.literal('Value does not have datatype {$datatype}')],
        value: context.valueOrNode,
      });
    },
  };
}

/** The validations the registry gives shacl-engine in place of its own. */
export const ENGINE_VALIDATIONS: readonly [RDF.Term, (shape: ShaclCompileShape) => ShaclCompiled][] = [
  [DATATYPE, compileDatatype],
];
