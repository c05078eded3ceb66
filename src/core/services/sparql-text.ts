import { BadRequestError } from '../errors.js';
import { XSD } from '../ns.js';
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

/** A SPARQL filter keeping `variable` (an xsd:dateTime) within the last `days` days. */
export function withinLastDays(variable: string, days: number): string {
  const since = new Date(Date.now() - days * 86_400_000).toISOString();
  return `FILTER(${variable} >= "${since}"^^<${XSD('dateTime')}>)`;
}
