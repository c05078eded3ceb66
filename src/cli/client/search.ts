import type { Column } from './table.js';

/** One hit of `GET /api/v1/search` (contract §3.12). */
export interface SearchHit {
  readonly iri: string;
  readonly id?: string;
  readonly entity_type: string;
  readonly title: string;
  readonly snippet?: string;
  readonly score: number;
}

/** `GET /api/v1/search`. */
export interface SearchJson {
  readonly query: string;
  readonly hits: SearchHit[];
  readonly total: number;
  readonly partial: boolean;
}

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
