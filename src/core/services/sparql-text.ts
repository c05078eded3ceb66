import { BadRequestError } from '../errors.js';
import { isAbsoluteIri } from '../records/mapper.js';

/** A SPARQL string literal for `value`, escaped so no input can end the literal. */
export function sparqlString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`;
}

/** A SPARQL IRI reference for `value`; anything that is not an absolute IRI is refused (400) naming `what`. */
export function sparqlIri(value: string, what: string): string {
  if (!isAbsoluteIri(value)) throw new BadRequestError(`${what} must be an absolute IRI, got "${value}"`);
  return `<${value}>`;
}
