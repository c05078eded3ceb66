/**
 * The keyword bundle: the artifact keyword list as a SKOS scheme under the registry's own base IRI, so that
 * keyword concepts dereference and artifacts can point at them with dcat:theme.
 */
import { ntIri, ntLine, ntLiteral } from './ntriples.js';
import { T } from './bundle-terms.js';
import { ARTIFACT_KEYWORDS, keywordIri, keywordSchemeIri } from './keywords.js';

const EN = '@en';

/** Builds the N-Triples lines of the keyword bundle for the given base IRI. */
export function keywordLines(baseIri: string): string[] {
  const scheme = ntIri(keywordSchemeIri(baseIri));
  const lines = [
    ntLine(scheme, T.type, T.conceptScheme),
    ntLine(scheme, T.prefLabel, ntLiteral('Artifact keywords', EN)),
    ntLine(scheme, T.title, ntLiteral('Artifact keywords', EN)),
  ];
  for (const entry of ARTIFACT_KEYWORDS) {
    const s = ntIri(keywordIri(baseIri, entry.slug));
    lines.push(
      ntLine(s, T.type, T.concept),
      ntLine(s, T.type, T.artifactKeyword),
      ntLine(s, T.prefLabel, ntLiteral(entry.label, EN)),
      ntLine(s, T.definition, ntLiteral(entry.definition, EN)),
      ntLine(s, T.notation, ntLiteral(entry.slug)),
      ntLine(s, T.inScheme, scheme),
      ntLine(s, T.topConceptOf, scheme),
      ntLine(scheme, T.hasTopConcept, s),
      ...entry.aliases.map((alias) => ntLine(s, T.altLabel, ntLiteral(alias, EN))),
    );
  }
  return lines;
}
