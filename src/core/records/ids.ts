import { v7 as uuidv7 } from 'uuid';
import { BadRequestError } from '../errors.js';
import { iriProblem } from './iri.js';

/** Mints a record IRI `{base}/<path>/<uuidv7>`: time-ordered, so newest-first is descending IRI order. */
export function mintIri(baseIri: string, path: string): string {
  return `${baseIri}/${path}/${uuidv7()}`;
}

/** The id of a record: the last segment of its IRI. */
export function idOf(iri: string): string {
  return iri.slice(iri.lastIndexOf('/') + 1);
}

/**
 * Expands a bare registry id (`0190…`) to `{base}/<path>/<id>`; a full IRI is kept as it is. Anything else is
 * refused, so no path segment can smuggle characters into an IRI.
 */
export function expandId(baseIri: string, path: string, idOrIri: string, field = 'id'): string {
  const refuse = (why: string): never => {
    const message = `${field} must be a registry id or a full IRI, got ${JSON.stringify(idOrIri)}${why}`;
    throw new BadRequestError(message, { errors: [{ field, message }] });
  };
  if (/^https?:\/\//.test(idOrIri)) {
    const problem = iriProblem(idOrIri);
    return problem === undefined ? idOrIri : refuse(`, which ${problem}`);
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/.test(idOrIri)) refuse('');
  return `${baseIri}/${path}/${idOrIri}`;
}
