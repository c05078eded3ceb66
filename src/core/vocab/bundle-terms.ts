/**
 * Serialised N-Triples forms of the terms the bundle builders write, computed once from `ns.ts` so that the
 * builders stay short and never spell a namespace.
 */
import { DCT, OWL, REG, RDF, RDFS, SKOS, SPDX, VOID, XSD } from '../ns.js';
import { ntIri } from './ntriples.js';

/** Predicates and classes used by the bundle builders, already written as `<iri>`. */
export const T = Object.freeze({
  type: ntIri(RDF('type')),
  label: ntIri(RDFS('label')),
  seeAlso: ntIri(RDFS('seeAlso')),
  comment: ntIri(RDFS('comment')),
  deprecated: ntIri(OWL('deprecated')),
  versionInfo: ntIri(OWL('versionInfo')),
  concept: ntIri(SKOS('Concept')),
  conceptScheme: ntIri(SKOS('ConceptScheme')),
  prefLabel: ntIri(SKOS('prefLabel')),
  altLabel: ntIri(SKOS('altLabel')),
  definition: ntIri(SKOS('definition')),
  broader: ntIri(SKOS('broader')),
  notation: ntIri(SKOS('notation')),
  inScheme: ntIri(SKOS('inScheme')),
  topConceptOf: ntIri(SKOS('topConceptOf')),
  hasTopConcept: ntIri(SKOS('hasTopConcept')),
  title: ntIri(DCT('title')),
  license: ntIri(DCT('license')),
  rights: ntIri(DCT('rights')),
  source: ntIri(DCT('source')),
  isReplacedBy: ntIri(DCT('isReplacedBy')),
  modified: ntIri(DCT('modified')),
  licenseDocument: ntIri(DCT('LicenseDocument')),
  artifactType: ntIri(REG('ArtifactType')),
  researchTopic: ntIri(REG('ResearchTopic')),
  artifactKeyword: ntIri(REG('ArtifactKeyword')),
  legacyTopic: ntIri(REG('LegacyTopic')),
  listedLicense: ntIri(SPDX('ListedLicense')),
  licenseId: ntIri(SPDX('licenseId')),
  spdxName: ntIri(SPDX('name')),
  isOsiApproved: ntIri(SPDX('isOsiApproved')),
  isDeprecatedLicenseId: ntIri(SPDX('isDeprecatedLicenseId')),
  checksum: ntIri(SPDX('checksum')),
  checksumClass: ntIri(SPDX('Checksum')),
  algorithm: ntIri(SPDX('algorithm')),
  sha256: ntIri(SPDX('checksumAlgorithm_sha256')),
  checksumValue: ntIri(SPDX('checksumValue')),
  voidDataset: ntIri(VOID('Dataset')),
  voidTriples: ntIri(VOID('triples')),
  dateTime: XSD('dateTime'),
});

/** Pulls the first `(http...)` URL out of a metadata value such as `CC BY 4.0 (https://...)`. */
export function urlInParentheses(text: string | undefined): string | undefined {
  const match = /\((https?:\/\/[^)\s]+)\)/.exec(text ?? '');
  return match?.[1];
}
