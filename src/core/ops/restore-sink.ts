/**
 * What a restore needs to know of the records it reads, whatever the store: which input a store cannot hold,
 * and the kind of each record from its lines (the store's bulk load, `GraphStore.bulkLoad`, takes the rest).
 */
import { BadRequestError } from '../errors.js';
import { RDF, REG, XSD } from '../ns.js';
import { kindOfTypes } from '../records/kinds.js';

const RDF_TYPE = RDF('type');

/**
 * The refusal of a file whose line `line` holds a quad in the default graph, which the external store does not
 * keep (it keeps named graphs only).
 */
export function defaultGraphRefusal(line: number): BadRequestError {
  return new BadRequestError(
    `line ${line} of the file is in the default graph, which the external graph store does not keep; nothing was restored`,
    { hints: ['restore a full N-Quads dump (reg dump), not the N-Triples of one graph'] },
  );
}

/** The kind of the record `owner` from its type lines; withdrawn records are counted apart. */
export function kindOfLines(owner: string, lines: readonly string[]): string | null {
  const prefix = `<${owner}> <${RDF_TYPE}> <`;
  const types = lines
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length, line.indexOf('>', prefix.length)));
  const kind = kindOfTypes(types);
  // Withdrawn records are counted apart, as the write path stores them.
  const withdrawn = lines.includes(
    `<${owner}> <${REG('tombstoned')}> "true"^^<${XSD('boolean')}> <${graphOf(lines)}> .`,
  );
  return kind !== null && withdrawn ? `${kind}:withdrawn` : kind;
}

function graphOf(lines: readonly string[]): string {
  const first = lines[0] ?? '';
  return first.slice(first.lastIndexOf(' <') + 2, first.lastIndexOf('>'));
}
