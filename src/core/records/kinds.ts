import { DCAT, DCT, PROV, REG, VOID } from '../ns.js';

/** The kind of record each class marks, used to count records without reading their content. */
const KIND_BY_CLASS: ReadonlyMap<string, string> = new Map([
  [REG('Software'), 'software'],
  [REG('Release'), 'release'],
  [REG('Instance'), 'instance'],
  [REG('ArtifactType'), 'type'],
  [DCT('LicenseDocument'), 'license'],
  [DCAT('Dataset'), 'artifact'],
  [PROV('Activity'), 'run'],
  [VOID('Dataset'), 'bundle'],
]);

/** The record kind of a subject given its rdf:type IRIs, or null when none is a record class. */
export function kindOfTypes(types: Iterable<string>): string | null {
  let found: string | null = null;
  for (const type of types) {
    const kind = KIND_BY_CLASS.get(type);
    // Registry classes are more specific than the generic ones a record may also carry.
    if (kind !== undefined && (found === null || type.startsWith(REG('')))) found = kind;
  }
  return found;
}
