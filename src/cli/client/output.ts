import { Flags } from '@oclif/core';
import { stringify } from 'yaml';
import { UsageError } from './errors.js';

/** The forms a table command prints its answer in. */
export const OUTPUT_FORMATS = ['table', 'json', 'yaml', 'csv'] as const;

/** One of the output forms. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The flags of every command that prints a table: which columns, whether to cut cells, and the form. */
export const tableFlags = {
  columns: Flags.string({
    description:
      'print these columns, in this order (comma-separated keys such as name,id; an unknown key lists the known ones)',
    helpGroup: 'OUTPUT',
  }),
  truncate: Flags.boolean({
    description: 'fit the table to the terminal (--no-truncate: print every column and whole values)',
    default: true,
    allowNo: true,
    helpGroup: 'OUTPUT',
  }),
  output: Flags.string({
    description:
      'table (the default), json (the same as --json), yaml (the same data as YAML), or csv (RFC 4180, with a header row)',
    options: [...OUTPUT_FORMATS],
    helpGroup: 'OUTPUT',
  }),
};

/** How a command's tables are printed, read from its command line. */
export interface DisplayOptions {
  readonly format: OutputFormat;
  /** The column keys asked for, in order; undefined for the default choice. */
  readonly columns: readonly string[] | undefined;
  readonly truncate: boolean;
  readonly colour: boolean;
}

/**
 * The display options a command line asks for. The flags were already checked by the parser, so this reads the
 * values only: `--output x` or `--output=x`, `--columns a,b`, `--no-truncate`; the last one given wins.
 */
export function displayOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  stream: { readonly isTTY?: boolean } = process.stdout,
): DisplayOptions {
  let format: OutputFormat = 'table';
  let columns: string[] | undefined;
  let truncate = true;
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = splitFlag(args[i] ?? '');
    const value = (): string => inline ?? args[++i] ?? '';
    if (name === '--output') {
      const wanted = value();
      if ((OUTPUT_FORMATS as readonly string[]).includes(wanted)) format = wanted as OutputFormat;
    } else if (name === '--columns') {
      columns = value()
        .split(',')
        .map((key) => key.trim().toLowerCase())
        .filter((key) => key !== '');
    } else if (name === '--no-truncate') truncate = false;
    else if (name === '--truncate') truncate = true;
    else if (name === '--json') format = 'json';
  }
  return { format, columns, truncate, colour: colourWanted(env, stream) };
}

function splitFlag(arg: string): [string, string | undefined] {
  const at = arg.indexOf('=');
  return arg.startsWith('--') && at > 0 ? [arg.slice(0, at), arg.slice(at + 1)] : [arg, undefined];
}

/** Colour only on a terminal, and never when NO_COLOR is set to anything (https://no-color.org) or TERM=dumb. */
export function colourWanted(
  env: Readonly<Record<string, string | undefined>>,
  stream: { readonly isTTY?: boolean },
): boolean {
  if (stream.isTTY !== true) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return env.TERM !== 'dumb';
}

/** A JSON value as a YAML document. */
export function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0 }).replace(/\n$/, '');
}

/** One CSV field quoted as RFC 4180 asks: in double quotes when it holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Rows as CSV: a header row, then one record per row, lines ended by CRLF as RFC 4180 writes them. */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n');
}

/** The column keys asked for that a table does not have, refused with the keys it has. */
export function checkColumnKeys(wanted: readonly string[], known: readonly string[]): void {
  const unknown = wanted.filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    throw new UsageError(
      `--columns: no column ${unknown.map((key) => `"${key}"`).join(', ')} (this table has ${known.join(', ')})`,
    );
  }
}
