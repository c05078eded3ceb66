/** How a cell is shown: identifiers and IRIs are shortened, status words are never cut and may be coloured. */
export type ColumnKind = 'text' | 'id' | 'iri' | 'status';

/** One column of a table: a header and how to read the cell of a row. */
export interface Column<T> {
  readonly header: string;
  readonly value: (row: T) => string | undefined;
  /** Narrowest width the column is shrunk to when the table is wider than the terminal. */
  readonly min?: number;
  /**
   * How much the column matters: 0 is never dropped; when the table is too wide the columns with the highest
   * number are dropped first, before any column that matters more is cut. 2 when not given.
   */
  readonly priority?: number;
  /** What the cells hold; plain text when not given. */
  readonly kind?: ColumnKind;
  /** The name `--columns` knows the column by: the header in lower case, spaces as dashes, when not given. */
  readonly key?: string;
  /** Shown only when `--columns` names it, or when the rows would otherwise print alike. */
  readonly hidden?: boolean;
}

/** How a table is laid out beyond its width. */
export interface TableOptions {
  /** Fit the table to the width (the default); false prints every column and whole values. */
  readonly truncate?: boolean;
  /** The column keys to print, in order, instead of the default choice. */
  readonly columns?: readonly string[];
  /** Colour the header and status words (only for a terminal that wants colour). */
  readonly colour?: boolean;
  /** The registry's base IRI: IRIs under it are shown relative to it. */
  readonly base?: string;
}

/** The width to fit output to: the terminal's, else $COLUMNS, else unlimited (pipes keep whole values). */
export function outputWidth(stream: NodeJS.WriteStream = process.stdout): number {
  if (stream.isTTY === true && stream.columns > 0) return stream.columns;
  const columns = Number(process.env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : Number.POSITIVE_INFINITY;
}

/** Cuts a value to `width` characters, marking the cut with an ellipsis. */
export function truncate(text: string, width: number): string {
  if (text.length <= width) return text;
  return width <= 1 ? text.slice(0, width) : `${text.slice(0, width - 1)}…`;
}

const oneLine = (text: string | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();

/** The key `--columns` knows a column by. */
export function columnKey<T>(column: Column<T>): string {
  return column.key ?? column.header.toLowerCase().replace(/\s+/g, '-');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The shortest prefix length (at least 8) that tells every one of these UUIDs apart. */
export function shortIdLength(ids: readonly string[]): number {
  const distinct = [...new Set(ids.filter((id) => UUID.test(id)))];
  for (let length = 8; length < 36; length++) {
    if (new Set(distinct.map((id) => id.slice(0, length))).size === distinct.length) return length;
  }
  return 36;
}

/** Namespaces common enough to be shown by a short prefix. */
const PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['http://edamontology.org/', 'edam:'],
  ['https://spdx.org/licenses/', 'spdx:'],
  ['http://purl.obolibrary.org/obo/', 'obo:'],
  ['https://schema.org/', 'schema:'],
  ['http://schema.org/', 'schema:'],
  ['http://www.w3.org/ns/dcat#', 'dcat:'],
];

/** An IRI as a table shows it: a path under the registry's own base, a prefixed name, or whole. */
export function shortIri(iri: string, base: string | undefined): string {
  if (base !== undefined && base !== '' && iri.startsWith(`${base}/`)) return iri.slice(base.length);
  for (const [namespace, prefix] of PREFIXES) {
    if (iri.startsWith(namespace) && iri.length > namespace.length)
      return `${prefix}${iri.slice(namespace.length)}`;
  }
  return iri;
}

/** The base IRI the rows' records were minted under, read from an `iri` that ends in `/<kind>/<id>`. */
export function baseOfRows(rows: readonly unknown[]): string | undefined {
  for (const row of rows) {
    if (typeof row !== 'object' || row === null) continue;
    const { iri, id } = row as { iri?: unknown; id?: unknown };
    if (typeof iri !== 'string' || typeof id !== 'string' || id === '' || !iri.endsWith(`/${id}`)) continue;
    const kindPath = iri.slice(0, iri.length - id.length - 1);
    const cut = kindPath.lastIndexOf('/');
    if (cut > kindPath.indexOf('//') + 1) return kindPath.slice(0, cut);
  }
  return undefined;
}

const GOOD = new Set(['up', 'active', 'ok', 'delivered', 'acked', 'public', 'succeeded', 'completed']);
const BAD = new Set(['down', 'revoked', 'failed', 'dead', 'error', 'suspended', 'dismissed', 'disabled']);

const paint = (code: string, text: string): string => `\u001b[${code}m${text}\u001b[0m`;

/** A status word in the colour of what it says: green when well, red when not, yellow when unsure. */
function paintStatus(word: string): string {
  const key = word.toLowerCase();
  if (GOOD.has(key)) return paint('32', word);
  if (BAD.has(key)) return paint('31', word);
  if (word === '') return word;
  return paint('33', word);
}

/** The columns a table prints before fitting: those `--columns` names, else those not hidden. */
export function chooseColumns<T>(
  columns: readonly Column<T>[],
  keys: readonly string[] | undefined,
): Column<T>[] {
  if (keys === undefined) return columns.filter((column) => column.hidden !== true);
  return keys.flatMap((key) => columns.filter((column) => columnKey(column) === key));
}

/** The cells of the rows in the chosen columns, whole: one line each, IRIs under the base shortened. */
export function cellsOf<T>(rows: readonly T[], columns: readonly Column<T>[], base?: string): string[][] {
  return rows.map((row) =>
    columns.map((column) => {
      const text = oneLine(column.value(row));
      return column.kind === 'iri' ? shortIri(text, base) : text;
    }),
  );
}

const GAP = 2;

/** Widths that fit `width`, shrinking the widest cells above their floors first; undefined when none do. */
function fit(natural: readonly number[], floors: readonly number[], width: number): number[] | undefined {
  const widths = [...natural];
  let excess = widths.reduce((sum, w) => sum + w, 0) + GAP * (widths.length - 1) - width;
  while (excess > 0) {
    let widest = -1;
    widths.forEach((w, i) => {
      if (w > (floors[i] ?? 0) && (widest < 0 || w > (widths[widest] ?? 0))) widest = i;
    });
    if (widest < 0) return undefined;
    widths[widest] = (widths[widest] ?? 0) - 1;
    excess--;
  }
  return widths;
}

/** The floor of a column: ids and status words are never cut, titles only after every droppable column went. */
function floorOf<T>(column: Column<T>, natural: number, lastResort: boolean): number {
  if (column.kind === 'status' || column.kind === 'id') return natural;
  const own = column.min ?? Math.max(column.header.length, 6);
  if ((column.priority ?? 2) === 0 && !lastResort) return Math.min(natural, Math.max(own, 30));
  return Math.min(natural, own);
}

interface Layout {
  readonly indexes: number[];
  readonly widths: number[];
}

/** Chooses which columns to keep and how wide, dropping the least important before cutting the important. */
function layout<T>(
  columns: readonly Column<T>[],
  natural: readonly number[],
  width: number,
  droppable: boolean,
): Layout {
  const indexes = columns.map((_, i) => i);
  for (;;) {
    const naturals = indexes.map((i) => natural[i] ?? 0);
    const floors = indexes.map((i, j) => floorOf(columns[i] as Column<T>, naturals[j] ?? 0, false));
    const widths = fit(naturals, floors, width);
    if (widths !== undefined) return { indexes, widths };
    const candidates = droppable ? indexes.filter((i) => (columns[i]?.priority ?? 2) > 0) : [];
    if (candidates.length === 0) {
      const last = indexes.map((i, j) => floorOf(columns[i] as Column<T>, naturals[j] ?? 0, true));
      return { indexes, widths: fit(naturals, last, width) ?? shrinkAll(naturals, last, width) };
    }
    // The least important goes first; of equals, the one furthest right.
    const drop = candidates.reduce((a, b) =>
      (columns[b]?.priority ?? 2) >= (columns[a]?.priority ?? 2) ? b : a,
    );
    indexes.splice(indexes.indexOf(drop), 1);
  }
}

/** Widths at their floors, text columns cut further (down to 3) when even the floors do not fit. */
function shrinkAll(natural: readonly number[], floors: readonly number[], width: number): number[] {
  return (
    fit(
      natural,
      floors.map((floor) => Math.min(floor, 3)),
      width,
    ) ?? [...floors]
  );
}

/** Whether two rows would print alike once their identifier columns are set aside. */
function lookalikes<T>(cells: readonly string[][], columns: readonly Column<T>[], plan: Layout): boolean {
  const keep = plan.indexes.flatMap((i, j) => (columns[i]?.kind === 'id' ? [] : [[i, plan.widths[j] ?? 0]]));
  const seen = new Set<string>();
  for (const row of cells) {
    const line = keep.map(([i, w]) => truncate(row[i ?? 0] ?? '', w ?? 0)).join('\u0000');
    if (seen.has(line)) return true;
    seen.add(line);
  }
  return false;
}

/**
 * The columns again, with the first left-out column (hidden or dropped, most important first) whose whole
 * values tell the rows apart made undroppable, and the kept titles given room.
 */
function distinguishing<T>(
  rows: readonly T[],
  columns: readonly Column<T>[],
  kept: ReadonlySet<Column<T> | undefined>,
  base: string | undefined,
): Column<T>[] {
  const cells = cellsOf(rows, columns, base);
  const shown = columns.flatMap((column, i) => (kept.has(column) && column.kind !== 'id' ? [i] : []));
  const apart = (extra: number): boolean =>
    new Set(cells.map((row) => [...shown, extra].map((i) => row[i] ?? '').join('\u0000'))).size ===
    rows.length;
  const already =
    new Set(cells.map((row) => shown.map((i) => row[i] ?? '').join('\u0000'))).size === rows.length;
  const extra = already
    ? undefined
    : columns
        .map((_, i) => i)
        .filter((i) => !kept.has(columns[i]) && columns[i]?.kind !== 'id')
        .sort((a, b) => (columns[a]?.priority ?? 2) - (columns[b]?.priority ?? 2))
        .find(apart);
  // Else the kept column with the most different values is the one that tells them apart once it is whole.
  const distinct = (i: number): number => new Set(cells.map((row) => row[i] ?? '')).size;
  const telling =
    extra ??
    shown.reduce<number | undefined>(
      (a, b) => (a === undefined || distinct(b) > distinct(a) ? b : a),
      undefined,
    );
  // The narrowest width at which the telling column's cells, cut, still differ.
  const enough = (i: number): number => {
    const values = cells.map((row) => row[i] ?? '');
    const longest = Math.max(...values.map((value) => value.length));
    for (let w = 8; w < longest; w++) {
      if (new Set(values.map((value) => truncate(value, w))).size === new Set(values).size) return w;
    }
    return longest;
  };
  return columns.flatMap((column, i) => {
    if (i === telling) return [{ ...column, hidden: false, priority: 0, min: enough(i) }];
    if (column.hidden === true && !kept.has(column)) return [];
    if (kept.has(column) && (column.priority ?? 2) === 0)
      return [{ ...column, min: Math.max(column.min ?? 0, 40) }];
    return [column];
  });
}

/**
 * Renders rows as an aligned table no wider than `width`: the least important columns are dropped first, then
 * the widest give up space down to their minimum, and cut cells end in an ellipsis. Identifiers become their
 * shortest unique prefix (at least 8 characters) when whole ones do not fit, IRIs under the registry's base are
 * shown relative to it, and status words are never cut. Hidden columns come back when rows would print alike.
 */
export function renderTable<T>(
  rows: readonly T[],
  columns: readonly Column<T>[],
  width: number,
  options: TableOptions = {},
): string {
  const fitted = options.truncate !== false && Number.isFinite(width);
  let chosen = chooseColumns(columns, options.columns);
  const whole = cellsOf(rows, chosen, options.base);
  const natural = (cells: readonly string[][], cols: readonly Column<T>[]): number[] =>
    cols.map((column, i) => Math.max(column.header.length, ...cells.map((row) => row[i]?.length ?? 0)));
  if (!fitted) return draw(chosen, whole, natural(whole, chosen), options.colour === true);
  let cells = whole;
  const total = (widths: readonly number[]) =>
    widths.reduce((sum, w) => sum + w, 0) + GAP * (widths.length - 1);
  if (total(natural(whole, chosen)) > width) cells = shortenIds(whole, chosen);
  let plan = layout(chosen, natural(cells, chosen), width, options.columns === undefined);
  if (options.columns === undefined && lookalikes(cells, chosen, plan)) {
    // Rows that would print alike: keep a column that tells them apart, and the titles whole enough.
    chosen = distinguishing(rows, columns, new Set(plan.indexes.map((i) => chosen[i])), options.base);
    cells = shortenIds(cellsOf(rows, chosen, options.base), chosen);
    plan = layout(chosen, natural(cells, chosen), width, true);
  }
  const kept = plan.indexes.map((i) => chosen[i] as Column<T>);
  return draw(
    kept,
    cells.map((row) => plan.indexes.map((i) => row[i] ?? '')),
    plan.widths,
    options.colour === true,
  );
}

/** Identifier cells cut to the shortest prefix that still tells the rows apart. */
function shortenIds<T>(cells: readonly string[][], columns: readonly Column<T>[]): string[][] {
  const lengths = columns.map((column, i) =>
    column.kind === 'id' ? shortIdLength(cells.map((row) => row[i] ?? '')) : undefined,
  );
  return cells.map((row) =>
    row.map((cell, i) => {
      const length = lengths[i];
      return length !== undefined && UUID.test(cell) ? cell.slice(0, length) : cell;
    }),
  );
}

function draw<T>(
  columns: readonly Column<T>[],
  cells: readonly string[][],
  widths: readonly number[],
  colour: boolean,
): string {
  const line = (values: readonly string[], header: boolean): string =>
    values
      .map((value, i) => {
        const w = widths[i] ?? 0;
        const text = truncate(value, w);
        const pad = ' '.repeat(Math.max(0, w - text.length));
        if (!colour) return text + pad;
        if (header) return paint('1', text) + pad;
        return (columns[i]?.kind === 'status' ? paintStatus(text) : text) + pad;
      })
      .join(' '.repeat(GAP))
      .trimEnd();
  return [
    line(
      columns.map((column) => column.header),
      true,
    ),
    ...cells.map((row) => line(row, false)),
  ].join('\n');
}

/** A value as one readable line: terms by label, lists comma-separated, nested objects left to the caller. */
function describeValue(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return oneLine(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const parts = value.map(describeValue).filter((part): part is string => part !== undefined);
    return parts.length === 0 ? undefined : parts.join(', ');
  }
  if (typeof value === 'object') {
    const { label, name, version, iri, url } = value as Record<string, unknown>;
    const title = [label, name, version].find((part) => typeof part === 'string');
    const link = typeof iri === 'string' ? iri : typeof url === 'string' ? url : undefined;
    if (typeof title === 'string') return link === undefined ? title : `${title} <${link}>`;
    return link;
  }
  return undefined;
}

/** An object with no label, name or version of its own, so its fields are shown one by one. */
function isUnlabelledObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const object = value as Record<string, unknown>;
  return !['label', 'name', 'version'].some((key) => typeof object[key] === 'string');
}

/** A record as `field  value` lines; nested objects without a label are spread as `field.sub` lines. */
export function renderFields(record: Readonly<Record<string, unknown>>, width: number): string {
  const rows: [string, string][] = [];
  const walk = (prefix: string, object: Readonly<Record<string, unknown>>): void => {
    for (const [key, value] of Object.entries(object)) {
      const name = prefix === '' ? key : `${prefix}.${key}`;
      if (isUnlabelledObject(value)) {
        walk(name, value);
        continue;
      }
      const described = describeValue(value);
      if (described !== undefined) rows.push([name, described]);
    }
  };
  walk('', record);
  const keyWidth = Math.max(0, ...rows.map(([key]) => key.length));
  const valueWidth = Math.max(10, width - keyWidth - 2);
  return rows.map(([key, value]) => `${key.padEnd(keyWidth)}  ${truncate(value, valueWidth)}`).join('\n');
}
