/**
 * Record descriptions of the vocabulary terms this registry holds itself: artifact types minted or adopted
 * here, and licences adopted here. Both live in the local graph keyed by the term's own IRI, so the vocabulary
 * rule finds them with one record read.
 */
import { DCT, PROV, RDFS, REG, SKOS } from '../ns.js';
import type { Declared, RecordSpec } from './schema.js';

/** Path segment of minted artifact types: `{base}/type/<slug>`. */
export const TYPE_PATH = 'type';

const ARTIFACT_TYPE_TABLE = {
  kind: 'type',
  path: TYPE_PATH,
  types: [REG('ArtifactType'), SKOS('Concept')],
  fields: [
    { json: 'label', predicate: SKOS('prefLabel'), type: 'string' },
    { json: 'definition', predicate: SKOS('definition'), type: 'string' },
    { json: 'aliases', predicate: SKOS('altLabel'), type: 'string', many: true },
    { json: 'scheme', predicate: SKOS('inScheme'), type: 'iri', many: true },
    { json: 'default_media_type', predicate: REG('defaultMediaType'), type: 'string' },
    { json: 'attributed_to', predicate: PROV('wasAttributedTo'), type: 'iri', registry: true },
  ],
  derived: ['source', 'adopted', 'artifact_count'],
} as const satisfies RecordSpec;
/** An artifact type minted at `{base}/type/<slug>` or adopted under its own IRI (docs/rdf-model.md §3.10). */
export const ARTIFACT_TYPE: Declared<RecordSpec, typeof ARTIFACT_TYPE_TABLE> = ARTIFACT_TYPE_TABLE;

const ADOPTED_LICENSE_TABLE = {
  kind: 'license',
  path: 'license',
  types: [DCT('LicenseDocument')],
  fields: [
    { json: 'label', predicate: RDFS('label'), type: 'string' },
    { json: 'attributed_to', predicate: PROV('wasAttributedTo'), type: 'iri', registry: true },
  ],
  derived: ['source', 'adopted'],
} as const satisfies RecordSpec;
/**
 * A licence adopted here under its own IRI: typed `dct:LicenseDocument`, which the vocabulary rule accepts in
 * the licence slot beside the bundled SPDX licences.
 */
export const ADOPTED_LICENSE: Declared<RecordSpec, typeof ADOPTED_LICENSE_TABLE> = ADOPTED_LICENSE_TABLE;
