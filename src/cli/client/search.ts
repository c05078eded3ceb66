import type { SearchHit } from '../../api/index.js';
import type { Column } from './table.js';
import { registryOf } from './views.js';

/** `GET /api/v1/search` and its hits (declared in `src/api`). */
export type { SearchAnswer as SearchJson, SearchHit } from '../../api/index.js';

/** The record kinds search finds, as `--type` accepts them. */
export const SEARCH_TYPES = ['software', 'instance', 'artifact', 'run'] as const;

/**
 * Columns of `reg search`: the title first and the id last; the snippet and the registry come back when two hits
 * would otherwise print alike.
 */
export const SEARCH_COLUMNS: readonly Column<SearchHit>[] = [
  { header: 'TITLE', value: (hit) => hit.title, min: 20, priority: 0 },
  { header: 'TYPE', value: (hit) => hit.entity_type, min: 8, priority: 1 },
  { header: 'SCORE', value: (hit) => hit.score.toFixed(1), priority: 4 },
  { header: 'SNIPPET', value: (hit) => hit.snippet, min: 10, priority: 3 },
  { header: 'REGISTRY', value: (hit) => registryOf(hit.origin), hidden: true },
  { header: 'ID', value: (hit) => hit.id ?? hit.iri, kind: 'id', priority: 1 },
];
