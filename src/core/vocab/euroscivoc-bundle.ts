/**
 * The EuroSciVoc bundle: every concept becomes a research topic, the vocabulary software is classified by.
 * Broader links stay IRIs (not labels) so that a hierarchy can be walked.
 */
import { ntIri, ntLine, ntLiteral } from './ntriples.js';
import { T, urlInParentheses } from './bundle-terms.js';
import { splitMulti, type TsvTable } from './tsv.js';

const EN = '@en';

/** Builds the N-Triples lines of the EuroSciVoc bundle from the parsed `euroscivoc.tsv`. */
export function euroscivocLines(table: TsvTable): string[] {
  const scheme = schemeIri(table);
  const schemeTerm = ntIri(scheme);
  const lines: string[] = [];
  const add = (s: string, p: string, o: string): void => {
    lines.push(ntLine(s, p, o));
  };
  for (const row of table.rows) {
    const iri = row.iri ?? '';
    if (iri === '') throw new Error('euroscivoc.tsv: a row has no iri');
    const s = ntIri(iri);
    add(s, T.type, T.concept);
    add(s, T.type, T.researchTopic);
    add(s, T.inScheme, schemeTerm);
    if (row.pref_label) add(s, T.prefLabel, ntLiteral(row.pref_label, EN));
    for (const alt of splitMulti(row.alt_labels)) add(s, T.altLabel, ntLiteral(alt, EN));
    if (row.definition) add(s, T.definition, ntLiteral(row.definition, EN));
    if (row.notation) add(s, T.notation, ntLiteral(row.notation));
    if (row.broader) {
      add(s, T.broader, ntIri(row.broader));
    } else {
      add(s, T.topConceptOf, schemeTerm);
      add(schemeTerm, T.hasTopConcept, s);
    }
  }
  add(schemeTerm, T.type, T.conceptScheme);
  add(schemeTerm, T.prefLabel, ntLiteral('EuroSciVoc', EN));
  const version = table.meta.get('euroscivoc-version')?.split(' ')[0];
  if (version) add(schemeTerm, T.versionInfo, ntLiteral(version));
  // CC BY requires attribution; keeping it in the graph makes it travel with dumps.
  const licence = table.meta.get('licence');
  const licenceUrl = urlInParentheses(licence);
  if (licenceUrl !== undefined) add(schemeTerm, T.license, ntIri(licenceUrl));
  if (licence) add(schemeTerm, T.rights, ntLiteral(licence, EN));
  return lines;
}

// The scheme IRI is data, so it is read from the file's header comment rather than written in code.
function schemeIri(table: TsvTable): string {
  for (const comment of table.comments) {
    const match = /concept scheme (\S+)/.exec(comment);
    if (match?.[1] !== undefined) return match[1];
  }
  throw new Error('euroscivoc.tsv: the header comment does not name the concept scheme');
}
