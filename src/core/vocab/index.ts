/**
 * Reference data of the registry: bundle building, the catalogue of loaded bundles, the in-memory index of
 * held terms and the artifact keyword list.
 */
export { BUNDLE_LAYOUT_VERSION, KEYWORD_BUNDLE_SOURCE, buildBundles, bundleDigest } from './bundles.js';
export type { Bundle, BundleName, BuildBundlesOptions } from './bundles.js';
export { catalogueChecksumIri, catalogueNTriples, parseCatalogue } from './catalogue.js';
export type { CatalogueEntry } from './catalogue.js';
export {
  ARTIFACT_KEYWORDS,
  KEYWORD_PATH,
  KEYWORD_SCHEME_PATH,
  foldKeyword,
  keywordIri,
  keywordSchemeIri,
  matchKeyword,
  matchKeywordFilter,
  normaliseKeywords,
} from './keywords.js';
export type { KeywordEntry } from './keywords.js';
export { ReferenceIndex } from './reference-index.js';
export type { HeldTerm, TermVerdict } from './reference-index.js';
export { readBoolean, readTsv, splitMulti } from './tsv.js';
export type { TsvTable } from './tsv.js';
