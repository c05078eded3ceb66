import { REG } from '../ns.js';
import { kindOfClass } from './kind-registry.js';

/** The record kind of a subject given its rdf:type IRIs, or null when none is a record class. */
export function kindOfTypes(types: Iterable<string>): string | null {
  let found: string | null = null;
  for (const type of types) {
    const kind = kindOfClass(type);
    // Registry classes are more specific than the generic ones a record may also carry.
    if (kind !== undefined && (found === null || type.startsWith(REG('')))) found = kind;
  }
  return found;
}
