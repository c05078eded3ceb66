/**
 * The EDAM bundle: data-branch terms become artifact types, topic-branch terms legacy topics (kept only so
 * old records show a label). Obsolete terms are kept, flagged deprecated with their replacements, so that a
 * record citing one can be refused with a useful message instead of "unknown term".
 */
import { ntBoolean, ntIri, ntLine, ntLiteral } from './ntriples.js';
import { T, urlInParentheses } from './bundle-terms.js';
import { readBoolean, splitMulti, type TsvTable } from './tsv.js';

const EN = '@en';

/** Builds the N-Triples lines of the EDAM bundle from the parsed `edam.tsv`. */
export function edamLines(table: TsvTable): string[] {
  const lines: string[] = [];
  const add = (s: string, p: string, o: string): void => {
    lines.push(ntLine(s, p, o));
  };
  for (const row of table.rows) {
    const iri = row.iri ?? '';
    if (iri === '') throw new Error('edam.tsv: a row has no iri');
    const s = ntIri(iri);
    const where = `edam.tsv ${iri}`;
    add(s, T.type, T.concept);
    if (row.branch === 'data') add(s, T.type, T.artifactType);
    else if (row.branch === 'topic') add(s, T.type, T.legacyTopic);
    else throw new Error(`${where}: unknown branch ${JSON.stringify(row.branch)}`);
    if (row.pref_label) add(s, T.prefLabel, ntLiteral(row.pref_label, EN));
    for (const alt of splitMulti(row.alt_labels)) add(s, T.altLabel, ntLiteral(alt, EN));
    if (row.definition) add(s, T.definition, ntLiteral(row.definition, EN));
    for (const parent of splitMulti(row.parents)) add(s, T.broader, ntIri(parent));
    if (readBoolean(row.deprecated, where)) {
      add(s, T.deprecated, ntBoolean(true));
      for (const replacement of splitMulti(row.replaced_by)) add(s, T.isReplacedBy, ntIri(replacement));
      // "consider" is only a hint, not a replacement, so it must not read as dct:isReplacedBy.
      for (const hint of splitMulti(row.consider)) add(s, T.seeAlso, ntIri(hint));
    }
  }
  lines.push(...sourceLines(table));
  return lines;
}

// CC BY-SA requires the attribution to travel with the data, so the graph names its source and licence.
function sourceLines(table: TsvTable): string[] {
  const versionIri = table.meta.get('version-iri');
  if (versionIri === undefined || versionIri === '') return [];
  const s = ntIri(versionIri);
  const lines = [ntLine(s, T.title, ntLiteral('EDAM ontology of data analysis and data management', EN))];
  const version = table.meta.get('edam-version');
  if (version) lines.push(ntLine(s, T.versionInfo, ntLiteral(version)));
  const licence = table.meta.get('licence');
  const licenceUrl = urlInParentheses(licence);
  if (licenceUrl !== undefined) lines.push(ntLine(s, T.license, ntIri(licenceUrl)));
  if (licence) lines.push(ntLine(s, T.rights, ntLiteral(licence, EN)));
  return lines;
}
