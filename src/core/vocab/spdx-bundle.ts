/**
 * The SPDX licence bundle: one spdx:ListedLicense (also a dct:LicenseDocument, the range of dct:license) per
 * licence id, so that a licence IRI on a record can be checked and labelled without the network.
 */
import { ntBoolean, ntIri, ntLine, ntLiteral } from './ntriples.js';
import { T } from './bundle-terms.js';
import { readBoolean, splitMulti, type TsvTable } from './tsv.js';

/** Builds the N-Triples lines of the SPDX bundle from the parsed `spdx-licenses.tsv`. */
export function spdxLines(table: TsvTable): string[] {
  const iriById = new Map<string, string>();
  for (const row of table.rows) {
    if (row.id && row.iri) iriById.set(row.id, row.iri);
  }
  const lines: string[] = [];
  const add = (s: string, p: string, o: string): void => {
    lines.push(ntLine(s, p, o));
  };
  for (const row of table.rows) {
    const id = row.id ?? '';
    const iri = row.iri ?? '';
    if (id === '' || iri === '') throw new Error('spdx-licenses.tsv: a row has no id or iri');
    const where = `spdx-licenses.tsv ${id}`;
    const s = ntIri(iri);
    add(s, T.type, T.listedLicense);
    add(s, T.type, T.licenseDocument);
    add(s, T.licenseId, ntLiteral(id));
    if (row.name) {
      add(s, T.label, ntLiteral(row.name));
      add(s, T.spdxName, ntLiteral(row.name));
    }
    add(s, T.isOsiApproved, ntBoolean(readBoolean(row.osi_approved, where)));
    const deprecated = readBoolean(row.deprecated, where);
    add(s, T.isDeprecatedLicenseId, ntBoolean(deprecated));
    if (deprecated) {
      add(s, T.deprecated, ntBoolean(true));
      for (const replacementId of splitMulti(row.replaced_by)) {
        const replacement = iriById.get(replacementId);
        if (replacement !== undefined) {
          add(s, T.isReplacedBy, ntIri(replacement));
          continue;
        }
        // A licence expression ("X WITH exception") has no IRI of its own: keep it as text, and point at the
        // base licence only as a hint, because the exception changes the terms.
        const baseIri = iriById.get(replacementId.split(' WITH ')[0] ?? '');
        if (baseIri === undefined && !replacementId.includes(' ')) {
          throw new Error(`${where}: replacement ${replacementId} is not in the list`);
        }
        add(s, T.comment, ntLiteral(`Replaced by the licence expression ${replacementId}.`, '@en'));
        if (baseIri !== undefined) add(s, T.seeAlso, ntIri(baseIri));
      }
    }
  }
  return lines;
}
