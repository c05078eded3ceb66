/**
 * Reader for the tab-separated vocabulary files in `vocab/`. The format has no quoting (values may contain
 * `"`), so a CSV library would mangle it; this reader splits on tabs only.
 */

/** One parsed TSV file: `# key: value` metadata, the column header and the data rows. */
export interface TsvTable {
  /** Metadata from leading `# key: value` lines, by key (keys are the word before the first colon). */
  readonly meta: ReadonlyMap<string, string>;
  /** Every leading `#` line without the `#` and surrounding blanks, in file order, including non key-value ones. */
  readonly comments: readonly string[];
  /** Column names from the header line. */
  readonly header: readonly string[];
  /** Data rows keyed by column name; an empty string means "none". */
  readonly rows: readonly Readonly<Record<string, string>>[];
}

const META_LINE = /^([A-Za-z0-9][A-Za-z0-9_-]*)\s*:\s*(.*)$/;

/** Parses TSV text in the shared vocabulary format; throws on a row whose column count differs from the header. */
export function readTsv(text: string, sourceName = 'TSV'): TsvTable {
  const lines = text.split('\n');
  const meta = new Map<string, string>();
  const comments: string[] = [];
  let index = 0;
  // Metadata comes first by contract; the first non-# line is the header.
  for (; index < lines.length; index++) {
    const line = stripCr(lines[index] ?? '');
    if (!line.startsWith('#')) break;
    const body = line.slice(1).trim();
    comments.push(body);
    const match = META_LINE.exec(body);
    if (match?.[1] !== undefined && !meta.has(match[1])) meta.set(match[1], match[2] ?? '');
  }
  const headerLine = index < lines.length ? stripCr(lines[index] ?? '') : '';
  if (headerLine === '') throw new Error(`${sourceName}: no header line after the metadata`);
  const header = headerLine.split('\t');
  const rows: Record<string, string>[] = [];
  for (index += 1; index < lines.length; index++) {
    const line = stripCr(lines[index] ?? '');
    if (line === '') continue;
    const cells = line.split('\t');
    if (cells.length !== header.length) {
      throw new Error(`${sourceName}: line ${index + 1} has ${cells.length} columns, the header has ${header.length}`);
    }
    const row: Record<string, string> = {};
    header.forEach((name, column) => {
      row[name] = cells[column] ?? '';
    });
    rows.push(row);
  }
  return { meta, comments, header, rows };
}

/** Splits a `|`-joined multi-value cell into its values; `\|` stands for a literal bar, and blanks are dropped. */
export function splitMulti(cell: string | undefined): string[] {
  if (cell === undefined || cell === '') return [];
  if (!cell.includes('\\|')) return cell.split('|').filter((value) => value !== '');
  // Rare path: only taken if a value ever contains an escaped bar.
  const values: string[] = [];
  let current = '';
  for (let i = 0; i < cell.length; i++) {
    const char = cell[i];
    if (char === '\\' && cell[i + 1] === '|') {
      current += '|';
      i++;
    } else if (char === '|') {
      values.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  values.push(current);
  return values.filter((value) => value !== '');
}

/** Reads a `true`/`false` cell; anything else is an error, so a malformed file cannot silently flip a flag. */
export function readBoolean(cell: string | undefined, where: string): boolean {
  if (cell === 'true') return true;
  if (cell === 'false' || cell === '' || cell === undefined) return false;
  throw new Error(`${where}: expected true or false, found ${JSON.stringify(cell)}`);
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
