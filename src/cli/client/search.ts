import type { SearchHit } from '../../api/index.js';
import type { Column } from './table.js';

/** `GET /api/v1/search` and its hits (declared in `src/api`). */
export type { SearchAnswer as SearchJson, SearchHit } from '../../api/index.js';

/** The record kinds search finds, as `--type` accepts them. */
export const SEARCH_TYPES = ['software', 'instance', 'artifact', 'run'] as const;

/** Columns of `reg search`: the snippet gives up space first, so kind, title and id stay readable. */
export const SEARCH_COLUMNS: readonly Column<SearchHit>[] = [
  { header: 'TYPE', value: (hit) => hit.entity_type, min: 8 },
  { header: 'TITLE', value: (hit) => hit.title, min: 20 },
  { header: 'ID', value: (hit) => hit.id ?? hit.iri, min: 36 },
  { header: 'SCORE', value: (hit) => hit.score.toFixed(1) },
  { header: 'SNIPPET', value: (hit) => hit.snippet, min: 6 },
];
