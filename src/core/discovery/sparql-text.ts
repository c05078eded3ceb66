import { BadRequestError } from '../errors.js';
import { XSD } from '../ns.js';
import { iriProblem } from '../records/iri.js';
import { isAbsoluteIri } from '../records/mapper.js';

const ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/**
 * A SPARQL string literal for `value`, escaped so no input can end the literal: quotes and backslashes, and every
 * control character (written `\uXXXX`, which no SPARQL server reads as the end of a literal or of the query).
 */
export function sparqlString(value: string): string {
  const escaped = value.replace(
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is escaped here
    /[\\"\u0000-\u001f\u007f]/g,
    (char) => ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `"${escaped}"`;
}

/** A SPARQL IRI reference for `value`; anything that is not an absolute IRI is refused (400) naming `what`. */
export function sparqlIri(value: string, what: string): string {
  if (!isAbsoluteIri(value)) {
    const reason = iriProblem(value);
    const message = `${what} must be an absolute IRI, got ${JSON.stringify(value)}${reason === undefined ? '' : `, which ${reason}`}`;
    throw new BadRequestError(message, { errors: [{ field: what, message }] });
  }
  return `<${value}>`;
}

/** A SPARQL filter keeping `variable` (an xsd:dateTime) within the last `days` days. */
export function withinLastDays(variable: string, days: number): string {
  const since = new Date(Date.now() - days * 86_400_000).toISOString();
  return `FILTER(${variable} >= "${since}"^^<${XSD('dateTime')}>)`;
}
