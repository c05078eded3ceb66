/**
 * What a record contributes to free-text search: its kind, a title, and the other text a query may match, read
 * from the record's own quads. The same reading serves the write path (quads in hand) and a rebuild from stored
 * rows (canonical N-Quads text), so the two never disagree.
 */
import { GRAPHS, REG } from '../ns.js';
import { parseNQuads, type Quad } from './nquads.js';

/** Where one kind keeps its title and its other searchable text: predicates in order, legacy ones after. */
export interface SearchFieldsOfKind {
  readonly title: readonly string[];
  readonly body: readonly string[];
}

/** The searchable text of one record. */
export interface SearchEntry {
  readonly graph: string;
  readonly iri: string;
  readonly kind: string;
  readonly title: string;
  /** The title folded for comparison (see `foldText`). */
  readonly titleKey: string;
  /** The other fields a query may match, one per line, in a fixed order. */
  readonly body: string;
}

const TOMBSTONED = REG('tombstoned');

/** A stored record row as the search reads it. */
export interface SearchRow {
  readonly graph: string;
  readonly subject: string;
  readonly kind: string | null;
  readonly nquads: string;
}

/**
 * Reads what records contribute to search, from the fields each searchable kind declares (the record-kind
 * registry builds one; the store receives it, so the kinds and their fields are declared in one place).
 */
export class SearchReader {
  /** The kinds search finds, in their declared order. */
  readonly kinds: readonly string[];
  /** Every predicate an entry is read from, for picking the lines worth parsing out of stored text. */
  private readonly predicates: ReadonlySet<string>;

  constructor(private readonly fields: ReadonlyMap<string, SearchFieldsOfKind>) {
    this.kinds = [...fields.keys()];
    this.predicates = new Set([
      TOMBSTONED,
      ...[...fields.values()].flatMap((kind) => [...kind.title, ...kind.body]),
    ]);
  }

  /** Whether records of `kind` in `graph` are searchable: the registry's own live records of a searchable kind. */
  isSearchable(graph: string, kind: string | null | undefined): kind is string {
    return graph === GRAPHS.local && this.fields.has(kind ?? '');
  }

  /**
   * The search entry of a record from its quads, or undefined when the record is not searchable (another graph,
   * another kind, or withdrawn). A record without a title is titled by the first of its other fields, else its
   * id.
   */
  entryOf(
    graph: string,
    iri: string,
    kind: string | null | undefined,
    quads: readonly Quad[],
  ): SearchEntry | undefined {
    if (!this.isSearchable(graph, kind)) return undefined;
    const values = new Map<string, string[]>();
    for (const quad of quads) {
      if (quad.subject.value !== iri || !this.predicates.has(quad.predicate.value)) continue;
      if (quad.predicate.value === TOMBSTONED) {
        if (quad.object.value === 'true') return undefined;
        continue;
      }
      if (quad.object.termType !== 'Literal') continue;
      const text = quad.object.value.trim();
      if (text !== '') values.set(quad.predicate.value, [...(values.get(quad.predicate.value) ?? []), text]);
    }
    const read = (predicates: readonly string[]): string[] => [
      ...new Set(predicates.flatMap((predicate) => (values.get(predicate) ?? []).sort())),
    ];
    const fields = this.fields.get(kind);
    if (fields === undefined) return undefined;
    const body = read(fields.body);
    const title = read(fields.title)[0] ?? body[0] ?? iri.slice(iri.lastIndexOf('/') + 1);
    return { graph, iri, kind, title, titleKey: foldText(title), body: body.join('\n') };
  }

  /**
   * Reads the search entries of stored records: only the lines of the predicates search reads are parsed, in
   * one batch. Records that are not searchable are left out.
   */
  entriesOfRows(rows: readonly SearchRow[]): SearchEntry[] {
    const wanted = rows.filter((row) => this.isSearchable(row.graph, row.kind));
    const lines: string[] = [];
    for (const row of wanted) this.pickLines(row.nquads.split('\n'), lines);
    const bySubject = new Map<string, Quad[]>();
    for (const quad of lines.length === 0 ? [] : parseNQuads(`${lines.join('\n')}\n`)) {
      const key = `${quad.graph.value}\n${quad.subject.value}`;
      bySubject.set(key, [...(bySubject.get(key) ?? []), quad]);
    }
    const entries: SearchEntry[] = [];
    for (const row of wanted) {
      const quads = bySubject.get(`${row.graph}\n${row.subject}`) ?? [];
      const entry = this.entryOf(row.graph, row.subject, row.kind, quads);
      if (entry !== undefined) entries.push(entry);
    }
    return entries;
  }

  /** `entryOf` from a record's canonical N-Quads lines: only the lines of the predicates search reads are parsed. */
  entryOfLines(
    graph: string,
    iri: string,
    kind: string | null | undefined,
    lines: readonly string[],
  ): SearchEntry | undefined {
    if (!this.isSearchable(graph, kind)) return undefined;
    const picked = this.pickLines(lines, []);
    return this.entryOf(graph, iri, kind, picked.length === 0 ? [] : parseNQuads(`${picked.join('\n')}\n`));
  }

  /** Adds to `into` the lines of `lines` whose predicate search reads. */
  private pickLines(lines: readonly string[], into: string[]): string[] {
    for (const line of lines) {
      const at = line.indexOf('> <', 1);
      if (at > 0 && this.predicates.has(line.slice(at + 3, line.indexOf('>', at + 3)))) into.push(line);
    }
    return into;
  }
}

/** Text folded as search compares it, with the position in the original of each folded character. */
export interface FoldedText {
  readonly text: string;
  readonly from: readonly number[];
}

const MARKS = /\p{M}/gu;

/**
 * Folds text for comparison one character at a time: compatibility decomposition, accents dropped, lower case,
 * runs of white space as one space, no leading or trailing space. Folding each character alone (rather than the
 * whole string) keeps a map back to the original, which snippets need.
 */
export function foldWithPositions(text: string): FoldedText {
  let out = '';
  const from: number[] = [];
  let index = 0;
  for (const char of text) {
    if (/\s/u.test(char)) {
      if (out.length > 0 && !out.endsWith(' ')) {
        out += ' ';
        from.push(index);
      }
    } else {
      for (const folded of char.normalize('NFKD').replace(MARKS, '').toLowerCase()) {
        out += folded;
        for (let unit = 0; unit < folded.length; unit++) from.push(index);
      }
    }
    index += char.length;
  }
  if (out.endsWith(' ')) {
    out = out.slice(0, -1);
    from.pop();
  }
  return { text: out, from };
}

/** Text folded for comparison (see `foldWithPositions`); ASCII text, the common case, takes a shortcut. */
export function foldText(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return text.replace(/\s+/g, ' ').trim().toLowerCase();
  return foldWithPositions(text).text;
}
