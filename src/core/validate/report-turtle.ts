/**
 * Writes a validation report as a SHACL validation report in Turtle, the form a 422 refusal carries. Each
 * result also carries reg:jsonField, so a machine reader can map it back to the JSON it sent.
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory, Writer } from 'n3';
import { PREFIXES, RDF as RDF_NS, REG, SH, XSD } from '../ns.js';
import type { ValidationReport, ValidationResult } from './validator.js';

// Wrappers rather than destructured methods, so the factory is always called on itself.
const blankNode = (id?: string) => DataFactory.blankNode(id);
const literal = (value: string, datatype?: RDF.NamedNode) => DataFactory.literal(value, datatype);
const namedNode = (iri: string) => DataFactory.namedNode(iri);
const quad = (s: RDF.Quad_Subject, p: RDF.Quad_Predicate, o: RDF.Quad_Object) => DataFactory.quad(s, p, o);

/** Serialises a report as a SHACL sh:ValidationReport in Turtle, with reg:jsonField on every result. */
export function reportTurtle(report: ValidationReport): string {
  // sh:conforms follows SHACL (false when there is any result, warnings included), unlike report.conforms,
  // which only counts violations.
  const quads: RDF.Quad[] = [];
  const add = (s: RDF.Quad_Subject, p: string, o: RDF.Quad_Object): void => {
    quads.push(quad(s, namedNode(p), o));
  };
  const root = blankNode('report');
  add(root, RDF_NS('type'), namedNode(SH('ValidationReport')));
  add(root, SH('conforms'), literal(String(report.results.length === 0), namedNode(XSD('boolean'))));
  // All statements about the report first, then each result, so the writer keeps every subject in one block.
  const nodes = report.results.map((_, index) => blankNode(`result${index}`));
  for (const node of nodes) add(root, SH('result'), node);
  report.results.forEach((result, index) => {
    const node = nodes[index] ?? blankNode();
    for (const [p, o] of resultStatements(result)) add(node, p, o);
  });
  const { sh, reg, dct, dcat, schema, rdfs, prov, xsd } = PREFIXES;
  const writer = new Writer({
    format: 'text/turtle',
    prefixes: { sh, reg, dct, dcat, schema, rdfs, prov, xsd },
  });
  writer.addQuads(quads);
  let text = '';
  // The n3 writer without an output stream finishes synchronously; the callback only hands over the string.
  writer.end((error, result: string) => {
    if (error) throw error;
    text = result;
  });
  return text;
}

function resultStatements(result: ValidationResult): [string, RDF.Quad_Object][] {
  const statements: [string, RDF.Quad_Object][] = [
    [RDF_NS('type'), namedNode(SH('ValidationResult'))],
    [SH('resultSeverity'), namedNode(result.severity === 'violation' ? SH('Violation') : SH('Warning'))],
    [SH('focusNode'), nodeTerm(result.focusNode)],
    [SH('sourceConstraintComponent'), namedNode(result.component)],
    [SH('resultMessage'), literal(result.message)],
    [REG('jsonField'), literal(result.field)],
  ];
  if (result.path !== undefined) statements.push([SH('resultPath'), namedNode(result.path)]);
  if (result.value !== undefined) {
    const value = result.valueType === 'iri' ? namedNode(result.value) : literal(result.value);
    statements.push([SH('value'), value]);
  }
  return statements;
}

function nodeTerm(id: string): RDF.Quad_Object {
  return id.startsWith('_:') ? blankNode(id.slice(2)) : namedNode(id);
}
