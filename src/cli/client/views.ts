import type { InstanceJson, SoftwareJson, TypeJson, VocabHit } from '../../api/index.js';
import type { Column } from './table.js';

/** The last segment of an IRI: enough to tell licences, types and records apart in a table. */
export const tail = (iri: string | undefined): string | undefined =>
  iri === undefined ? undefined : iri.replace(/[/#]+$/, '').replace(/^.*[/#]/, '');

/** Columns of `reg software list`. */
export const SOFTWARE_COLUMNS: readonly Column<SoftwareJson>[] = [
  { header: 'ID', value: (row) => row.id, min: 36 },
  { header: 'NAME', value: (row) => row.name, min: 12 },
  { header: 'KINDS', value: (row) => row.kinds.join(',') },
  { header: 'LICENSE', value: (row) => tail(row.license) },
  { header: 'TAGLINE', value: (row) => row.tagline },
];

/** Columns of `reg instances list`. */
export const INSTANCE_COLUMNS: readonly Column<InstanceJson>[] = [
  { header: 'ID', value: (row) => row.id, min: 36 },
  { header: 'LABEL', value: (row) => row.label, min: 12 },
  { header: 'SOFTWARE', value: (row) => row.software_name ?? tail(row.software) },
  { header: 'HEALTH', value: (row) => row.health },
  { header: 'AVAILABILITY', value: (row) => row.availability },
  { header: 'ENDPOINT', value: (row) => row.endpoint_url },
];

/** Columns of `reg types list`. */
export const TYPE_COLUMNS: readonly Column<TypeJson>[] = [
  { header: 'ID', value: (row) => row.id, min: 12 },
  { header: 'LABEL', value: (row) => row.label, min: 12 },
  { header: 'SOURCE', value: (row) => row.source ?? (row.adopted === true ? 'external' : 'local') },
  {
    header: 'ARTIFACTS',
    value: (row) => (row.artifact_count === undefined ? '' : String(row.artifact_count)),
  },
  { header: 'IRI', value: (row) => row.iri },
];

/** Columns of `reg vocab search`. */
export const VOCAB_COLUMNS: readonly Column<VocabHit>[] = [
  { header: 'LABEL', value: (row) => row.label, min: 16 },
  { header: 'BRANCH', value: (row) => row.branch },
  { header: 'SOURCE', value: (row) => row.source },
  { header: 'SCORE', value: (row) => row.score.toFixed(1) },
  { header: 'IRI', value: (row) => row.iri, min: 40 },
];
