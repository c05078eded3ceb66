/**
 * Keyset paging of the registry's own SPARQL reads. A read that may grow with the data asks for one page at a
 * time: ordered by a key, filtered to keys past the last one seen, limited to `PAGE_ROWS`. Never an OFFSET and
 * never an "all rows" LIMIT, because a stock Virtuoso refuses to sort more than 10,000 rows (SR353,
 * `MaxSortedTopRows`) and silently returns no more than 10,000 (`ResultSetMaxRows`); pages this size keep far
 * from both on any store, so nobody has to retune a server for the registry.
 */
import type { Binding } from '../store/graph/types.js';
import type { Core } from '../core.js';
import { sparqlString } from '../discovery/sparql-text.js';

/** Solutions one query of the registry asks for at most. */
export const PAGE_ROWS = 1000;

/** The parts of one page's query that the pager writes. */
export interface KeysetPage {
  /** A FILTER keeping keys past the previous page's last key (empty on the first page); put it where the key is bound. */
  readonly after: string;
  /** `ORDER BY … LIMIT …` on the key, for the end of the (sub)query whose solutions are keyed. */
  readonly order: string;
}

/** How a keyed read is paged. */
export interface KeysetOptions {
  /** Newest (largest) key first. */
  readonly descending?: boolean;
  /** Keys per page; at most `PAGE_ROWS`. */
  readonly rows?: number;
  /** Stop once this many keys were read (the last page may pass it; callers cut). */
  readonly max?: number;
}

/**
 * Reads every solution of a keyed query, a page at a time. `build` makes the query of one page from its
 * `after` filter and `order` clause; `key` names the variable (an IRI or a string) the pages follow. A flat query
 * must give one solution per key (DISTINCT or GROUP BY on it), or a page could end inside a key's solutions; for
 * several per key, order and limit the keys in a subquery and join the rest to it, so that every key it selects
 * gives at least one solution. The read ends at a page holding fewer keys than were asked for.
 */
export async function selectByKey(
  core: Pick<Core, 'graph'>,
  key: string,
  build: (page: KeysetPage) => string,
  options: KeysetOptions = {},
): Promise<Binding[]> {
  const rows = Math.min(options.rows ?? PAGE_ROWS, PAGE_ROWS);
  const direction = options.descending === true ? 'DESC' : 'ASC';
  const out: Binding[] = [];
  let last: string | undefined;
  let keys = 0;
  for (;;) {
    const after =
      last === undefined
        ? ''
        : `FILTER(STR(?${key}) ${options.descending === true ? '<' : '>'} ${sparqlString(last)})`;
    const page = await core.graph.select(
      build({ after, order: `ORDER BY ${direction}(STR(?${key})) LIMIT ${rows}` }),
    );
    const seen = new Set<string>();
    for (const row of page) {
      const value = row[key]?.value;
      if (value !== undefined) seen.add(value);
      out.push(row);
    }
    keys += seen.size;
    if (seen.size < rows || (options.max !== undefined && keys >= options.max)) return out;
    last = extreme([...seen], options.descending === true);
  }
}

/** The key a page ended on: its largest (or, read newest first, its smallest) in code point order. */
function extreme(keys: readonly string[], descending: boolean): string {
  let found = keys[0] ?? '';
  for (const key of keys) {
    const past = compareCodePoints(key, found);
    if (descending ? past < 0 : past > 0) found = key;
  }
  return found;
}

/** Compares two strings by code point, as SPARQL orders and compares plain strings. */
function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const diff = left[i]!.codePointAt(0)! - right[i]!.codePointAt(0)!;
    if (diff !== 0) return diff;
  }
  return left.length - right.length;
}
