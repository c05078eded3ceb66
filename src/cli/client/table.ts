/** One column of a table: a header and how to read the cell of a row. */
export interface Column<T> {
  readonly header: string;
  readonly value: (row: T) => string | undefined;
  /** Narrowest width the column is shrunk to when the table is wider than the terminal. */
  readonly min?: number;
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

/**
 * Renders rows as an aligned table no wider than `width`: the widest columns give up space first, down to
 * their minimum, and cut cells end in an ellipsis.
 */
export function renderTable<T>(rows: readonly T[], columns: readonly Column<T>[], width: number): string {
  const gap = 2;
  const cells = rows.map((row) => columns.map((column) => oneLine(column.value(row))));
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...cells.map((row) => row[i]?.length ?? 0)),
  );
  const floors = columns.map((column, i) =>
    Math.min(widths[i] ?? 0, column.min ?? Math.max(column.header.length, 6)),
  );
  let excess = widths.reduce((sum, w) => sum + w, 0) + gap * (columns.length - 1) - width;
  while (excess > 0) {
    let widest = -1;
    widths.forEach((w, i) => {
      if (w > (floors[i] ?? 0) && (widest < 0 || w > (widths[widest] ?? 0))) widest = i;
    });
    if (widest < 0) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
    excess--;
  }
  const line = (values: readonly string[]): string =>
    values
      .map((value, i) => truncate(value, widths[i] ?? 0).padEnd(widths[i] ?? 0))
      .join(' '.repeat(gap))
      .trimEnd();
  return [line(columns.map((column) => column.header)), ...cells.map(line)].join('\n');
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
