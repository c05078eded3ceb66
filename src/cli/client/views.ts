import type { InstanceJson, OriginJson, SoftwareJson, TypeJson, VocabHit } from '../../api/index.js';
import type { Column } from './table.js';

/** The last segment of an IRI: enough to tell licences, types and records apart in a table. */
export const tail = (iri: string | undefined): string | undefined =>
  iri === undefined ? undefined : iri.replace(/[/#]+$/, '').replace(/^.*[/#]/, '');

/** Columns of `reg software list`: the name first, the id last; the tagline goes first when space is short. */
export const SOFTWARE_COLUMNS: readonly Column<SoftwareJson>[] = [
  { header: 'NAME', value: (row) => row.name, min: 12, priority: 0 },
  { header: 'KINDS', value: (row) => row.kinds.join(','), priority: 3 },
  { header: 'LICENSE', value: (row) => tail(row.license), priority: 3 },
  { header: 'TAGLINE', value: (row) => row.tagline, min: 10, priority: 4 },
  { header: 'REGISTRY', value: (row) => registryOf(row.origin), hidden: true },
  { header: 'ID', value: (row) => row.id, kind: 'id', priority: 1 },
];

/** Columns of `reg instances list`. */
export const INSTANCE_COLUMNS: readonly Column<InstanceJson>[] = [
  { header: 'LABEL', value: (row) => row.label, min: 12, priority: 0 },
  { header: 'SOFTWARE', value: (row) => row.software_name ?? tail(row.software), min: 10, priority: 2 },
  { header: 'HEALTH', value: (row) => row.health, kind: 'status', priority: 1 },
  { header: 'AVAILABILITY', value: (row) => row.availability, kind: 'status', priority: 3 },
  { header: 'ENDPOINT', value: (row) => row.endpoint_url, min: 12, priority: 4 },
  { header: 'REGISTRY', value: (row) => registryOf(row.origin), hidden: true },
  { header: 'ID', value: (row) => row.id, kind: 'id', priority: 1 },
];

/** Columns of `reg types list`. */
export const TYPE_COLUMNS: readonly Column<TypeJson>[] = [
  { header: 'LABEL', value: (row) => row.label, min: 12, priority: 0 },
  {
    header: 'SOURCE',
    value: (row) => row.source ?? (row.adopted === true ? 'external' : 'local'),
    kind: 'status',
    priority: 3,
  },
  {
    header: 'ARTIFACTS',
    value: (row) => (row.artifact_count === undefined ? '' : String(row.artifact_count)),
    priority: 3,
  },
  { header: 'ID', value: (row) => row.id, kind: 'iri', min: 12, priority: 4 },
  { header: 'IRI', value: (row) => row.iri, kind: 'iri', min: 20, priority: 1 },
];

/** Columns of `reg vocab search`. */
export const VOCAB_COLUMNS: readonly Column<VocabHit>[] = [
  { header: 'LABEL', value: (row) => row.label, min: 16, priority: 0 },
  { header: 'BRANCH', value: (row) => row.branch, priority: 3 },
  { header: 'SOURCE', value: (row) => row.source, kind: 'status', priority: 3 },
  { header: 'SCORE', value: (row) => row.score.toFixed(1), priority: 4 },
  { header: 'IRI', value: (row) => row.iri, kind: 'iri', min: 20, priority: 1 },
];

/** Where a record is held: `local`, or the id of the peer registry it was cached from. */
export function registryOf(origin: OriginJson | undefined): string | undefined {
  if (origin === undefined) return undefined;
  return origin.kind === 'local' ? 'local' : (origin.peer_id ?? origin.peer_base_iri ?? 'peer');
}
