/**
 * Free-text search over the registry's own software, deployments, artifacts and runs, answered from the SQLite
 * search index (never a scan of the records). Hits are ranked by where the query matched: the whole title, the
 * start of the title, the start of a word of it, anywhere in it, or only in another field.
 */
import { BadRequestError } from '../errors.js';
import { idOf } from '../records/ids.js';
import type { JsonObject } from '../records/mapper.js';
import { foldText, foldWithPositions } from '../store/search-entry.js';
import { SEARCH_KINDS, type SearchKind } from '../records/kind-registry.js';
import {
  searchCandidates,
  searchBehind,
  type CandidateSource,
  searchBodies,
  type SearchCandidate,
} from '../store/search-index.js';
import type { Core } from '../core.js';
import { originOf } from '../stored/records.js';

/** Query parameters of `GET /api/v1/search`, as sent (`type` may repeat and hold comma-separated values). */
export interface SearchParams {
  readonly q?: string | undefined;
  readonly type?: readonly string[] | undefined;
  readonly limit?: string | undefined;
  readonly federated?: string | undefined;
}

/** One hit (contract §3.12); `score` says where the query matched (see `SCORES`). */
export interface SearchHit {
  readonly iri: string;
  readonly id: string;
  readonly entity_type: SearchKind;
  readonly title: string;
  readonly snippet?: string;
  readonly origin: JsonObject;
  readonly score: number;
}

/** The answer of `GET /api/v1/search`. */
export interface SearchResult {
  readonly query: string;
  readonly hits: SearchHit[];
  readonly total: number;
  /** True while the index is being rebuilt from the records: hits may be missing. */
  readonly partial: boolean;
  /** Peers asked: none here (federated search, which asks them, answers the local part through this). */
  readonly peers: JsonObject[];
}

/**
 * `limit` default and bounds; the longest query; how many candidates each kind of match reads (within one band,
 * ties are ranked among that many, at least twice the largest limit); the length of a snippet.
 */
export const SEARCH_LIMITS = { defaultLimit: 30, maxLimit: 100, maxQuery: 200, window: 200, snippet: 160 };

/** Where the query matched, best first, and the score each earns. */
const BANDS = ['exact', 'prefix', 'word', 'substring', 'other'] as const;
type Band = (typeof BANDS)[number];
export const SCORES: Readonly<Record<Band, number>> = {
  exact: 1,
  prefix: 0.8,
  word: 0.7,
  substring: 0.6,
  other: 0.3,
};

/** The worst band each candidate source can still find hits of: once that many are in hand, later ones lose. */
const COVERS: Readonly<Record<CandidateSource, number>> = { prefix: 1, word: 2, title: 3, text: 4 };

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Reads `type`: one or more of the searchable kinds; omitted means all four; anything else is a 400. */
export function searchKinds(values: readonly string[] | undefined): SearchKind[] {
  const asked = (values ?? []).flatMap((value) => value.split(',')).map((value) => value.trim());
  const kinds = new Set<SearchKind>();
  for (const value of asked.filter((item) => item !== '')) {
    if (!(SEARCH_KINDS as readonly string[]).includes(value)) {
      const message = `type must be one of ${SEARCH_KINDS.join(', ')}, got "${value}"`;
      throw new BadRequestError(message, {
        errors: [{ field: 'type', message }],
        extra: { known: [...SEARCH_KINDS] },
      });
    }
    kinds.add(value as SearchKind);
  }
  return kinds.size === 0 ? [...SEARCH_KINDS] : [...kinds];
}

/** Reads `limit`: default 30; a whole number is clamped to 1–100; anything else is a 400. */
export function searchLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return SEARCH_LIMITS.defaultLimit;
  if (!/^-?\d+$/.test(raw)) throw new BadRequestError(`limit must be a whole number 1–100, got "${raw}"`);
  return Math.min(SEARCH_LIMITS.maxLimit, Math.max(1, Number(raw)));
}

function readFlag(raw: string | undefined, name: string): boolean {
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new BadRequestError(`${name} must be true or false, got "${raw}"`);
}

/**
 * `GET /api/v1/search`: software (name, tagline, description), deployments (label, description), artifacts
 * (title, description) and runs (label, identifier) of this registry matching `q` (case and accents ignored),
 * best first. An empty `q` finds nothing; `federated` must be a boolean (true is answered by federated search).
 */
export function search(core: Core, params: SearchParams): SearchResult {
  const kinds = searchKinds(params.type);
  const limit = searchLimit(params.limit);
  readFlag(params.federated, 'federated');
  // Control characters are no text to look for; read as spaces, no NUL ever reaches the index's query syntax.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced here
  const query = (params.q ?? '').replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  if (query.length > SEARCH_LIMITS.maxQuery)
    throw new BadRequestError(`q must be at most ${SEARCH_LIMITS.maxQuery} characters`);
  const q = foldText(query);
  const hits = q === '' ? [] : rank(core, q, kinds, limit);
  return {
    query,
    hits,
    total: hits.length,
    partial: searchBehind(core.db),
    peers: [],
  };
}

/** A candidate that matched, with where it matched. */
interface Ranked {
  readonly row: SearchCandidate;
  readonly band: Band;
}

/**
 * Reads candidates source by source, best kind of match first, and stops once enough hits of the bands a later
 * source cannot beat are in hand; then orders them by band, shorter title, title and IRI.
 */
function rank(core: Core, q: string, kinds: readonly SearchKind[], limit: number): SearchHit[] {
  // Trigrams need three characters; a word search needs a letter or digit.
  const sources: CandidateSource[] = ['prefix'];
  if (q.length >= 2 && WORD_CHAR.test(q)) sources.push('word');
  if (q.length >= 3) sources.push('text');
  const found = new Map<number, Ranked>();
  for (const source of sources) {
    const window = SEARCH_LIMITS.window + found.size;
    let rows = searchCandidates(core.db, source, q, kinds, window);
    // One trigram lookup over every field serves most queries; only when it fills its window are title matches
    // read on their own, so that none is crowded out by matches in other fields.
    if (source === 'text' && rows.length >= window)
      rows = [...searchCandidates(core.db, 'title', q, kinds, window), ...rows];
    for (const row of rows) {
      if (found.has(row.id)) continue;
      const band = bandOf(row.title_key, q, source === 'text');
      if (band !== undefined) found.set(row.id, { row, band });
    }
    const settled = [...found.values()].filter((hit) => BANDS.indexOf(hit.band) <= COVERS[source]).length;
    if (settled >= limit) break;
  }
  const best = [...found.values()]
    .sort(
      (a, b) =>
        BANDS.indexOf(a.band) - BANDS.indexOf(b.band) ||
        a.row.title_key.length - b.row.title_key.length ||
        compare(a.row.title_key, b.row.title_key) ||
        compare(a.row.iri, b.row.iri),
    )
    .slice(0, limit);
  const bodies = searchBodies(
    core.db,
    best.map(({ row }) => row.id),
  );
  return best.map(({ row, band }) => present(row, band, bodies.get(row.id) ?? '', q));
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Where the folded query matched a folded title; a candidate the trigram index found in any field (`anyField`)
 * that does not match the title matched another field. Other candidates that do not match are not hits.
 */
function bandOf(title: string, q: string, anyField: boolean): Band | undefined {
  if (title === q) return 'exact';
  if (title.startsWith(q)) return 'prefix';
  let at = title.indexOf(q);
  if (at >= 0) {
    for (; at >= 0; at = title.indexOf(q, at + 1)) {
      if (!WORD_CHAR.test(title.charAt(at - 1))) return 'word';
    }
    return 'substring';
  }
  return anyField ? 'other' : undefined;
}

function present(row: SearchCandidate, band: Band, body: string, q: string): SearchHit {
  const snippet = snippetOf(body, band === 'other' ? q : undefined);
  return {
    iri: row.iri,
    id: idOf(row.iri),
    entity_type: row.kind as SearchKind,
    title: row.title,
    ...(snippet === undefined ? {} : { snippet }),
    origin: originOf(row.graph),
    score: SCORES[band],
  };
}

/**
 * A short excerpt of the other fields: around the first match of `q` when the title did not match, else the
 * start of the first field. Cuts are marked with an ellipsis.
 */
function snippetOf(body: string, q: string | undefined): string | undefined {
  const lines = body.split('\n').filter((line) => line !== '');
  const size = SEARCH_LIMITS.snippet;
  if (q !== undefined) {
    for (const line of lines) {
      const folded = foldWithPositions(line);
      const at = folded.text.indexOf(q);
      if (at < 0) continue;
      const start = folded.from[at] ?? 0;
      const end = folded.from[at + q.length] ?? line.length;
      const from = Math.max(0, Math.min(start - Math.floor((size - (end - start)) / 3), line.length - size));
      return excerpt(line, from, size);
    }
  }
  const first = lines[0];
  return first === undefined ? undefined : excerpt(first, 0, size);
}

function excerpt(line: string, from: number, size: number): string {
  const text = line
    .slice(from, from + size)
    .replace(/\s+/g, ' ')
    .trim();
  return `${from > 0 ? '…' : ''}${text}${from + size < line.length ? '…' : ''}`;
}
