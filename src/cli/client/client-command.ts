import { Flags } from '@oclif/core';
import { Problem } from '../../core/errors.js';
import { RegCommand } from '../base-command.js';
import { exitCodeFor } from '../exit-codes.js';
import { ApiError } from './errors.js';
import { HttpClient, type Query } from './http.js';
import { withCiToken } from './ci-token.js';
import { resolveProfile, type ProfileFlags } from './profile.js';
import type { ListPage, RecordIdentity } from '../../api/index.js';
import { RegistryClient, type Collection } from './registry.js';
import { checkColumnKeys, displayOptions, tableFlags, toCsv, toYaml, type DisplayOptions } from './output.js';
import {
  baseOfRows,
  cellsOf,
  chooseColumns,
  columnKey,
  outputWidth,
  renderFields,
  renderTable,
  type Column,
} from './table.js';

export { tableFlags } from './output.js';

const CONNECTION = 'CONNECTION';

/** Paging flags of every list command. */
export const listFlags = {
  limit: Flags.integer({
    description: 'records per page (1–200; the registry defaults to 25)',
    min: 1,
    max: 200,
  }),
  cursor: Flags.string({ description: 'start after this record (the next_cursor of the previous page)' }),
  all: Flags.boolean({ description: 'follow next_cursor and print every page', exclusive: ['cursor'] }),
  ...tableFlags,
};

/** The parsed paging flags. */
export interface ListFlags {
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
  readonly all?: boolean | undefined;
}

/**
 * The base of commands that talk to a running registry over HTTP: connection flags, the profile they resolve
 * to, and output as tables (or the API's JSON under `--json`). API problems print as one line, plus one
 * indented line per field error, with an exit code per HTTP status.
 */
export abstract class ClientCommand extends RegCommand {
  static override baseFlags = {
    url: Flags.string({
      description: 'base URL of the registry; env REG_URL (else the config file, else http://localhost:8080)',
      helpGroup: CONNECTION,
    }),
    token: Flags.string({
      description:
        "bearer token; env REG_TOKEN (visible in the process list: prefer --token-file or REG_TOKEN); with none, a GitHub Actions or GitLab CI job's OIDC token is used",
      exclusive: ['token-file'],
      helpGroup: CONNECTION,
    }),
    'token-file': Flags.string({
      description: 'read the bearer token from this file; env REG_TOKEN_FILE',
      helpGroup: CONNECTION,
    }),
    profile: Flags.string({
      description: 'named profile of the reg config file; env REG_PROFILE',
      helpGroup: CONNECTION,
    }),
    timeout: Flags.integer({
      description: 'seconds to wait for each answer (default 30)',
      min: 1,
      max: 3600,
      helpGroup: CONNECTION,
    }),
  };

  /** The URL of the registry last connected to: IRIs under it are shown relative to it. */
  private registryUrl: string | undefined;

  /** A client for the registry the flags, environment and config file name. */
  protected async registry(flags: ProfileFlags): Promise<RegistryClient> {
    const profile = await withCiToken(await resolveProfile(flags, process.env), process.env);
    this.registryUrl = profile.url;
    return new RegistryClient(new HttpClient(profile));
  }

  /** How tables are printed: the form, the columns, cutting and colour, from the command line. */
  protected display(): DisplayOptions {
    return displayOptions(this.hasTableFlags() ? this.argv : [], process.env, process.stdout);
  }

  /** Whether the command takes the table flags (--output, --columns, --no-truncate). */
  private hasTableFlags(): boolean {
    const flags = (this.constructor as { flags?: Record<string, unknown> }).flags;
    return flags?.output === tableFlags.output;
  }

  /** `--output json` and `--output yaml` print the command's result as `--json` does. */
  override jsonEnabled(): boolean {
    if (super.jsonEnabled()) return true;
    if (!this.hasTableFlags()) return false;
    const { format } = displayOptions(this.argv);
    return format === 'json' || format === 'yaml';
  }

  protected override logJson(json: unknown): void {
    if (
      this.hasTableFlags() &&
      !this.argv.includes('--json') &&
      displayOptions(this.argv).format === 'yaml'
    ) {
      process.stdout.write(`${toYaml(json)}\n`);
      return;
    }
    super.logJson(json);
  }

  /**
   * Lists a collection (one page, or every page with --all), prints it as a table and returns the envelope.
   * The filters may ask the registry first (to turn a software id into its IRI, for example).
   */
  protected async listRecords<T extends RecordIdentity>(
    flags: ProfileFlags & ListFlags,
    collection: Collection,
    filters: (client: RegistryClient) => Query | Promise<Query>,
    columns: readonly Column<T>[],
  ): Promise<ListPage<T>> {
    const client = await this.registry(flags);
    const query = { ...(await filters(client)), limit: flags.limit, cursor: flags.cursor };
    const page =
      flags.all === true
        ? await client.listAll<T>(collection, query)
        : await client.list<T>(collection, query);
    this.printTable(page.items, columns, page);
    return page;
  }

  /**
   * Prints rows as a table fitted to the terminal (or as CSV with --output csv), and the paging state on
   * stderr.
   */
  protected printTable<T>(rows: readonly T[], columns: readonly Column<T>[], page?: ListPage<unknown>): void {
    const display = this.display();
    if (display.columns !== undefined) checkColumnKeys(display.columns, columns.map(columnKey));
    if (display.format === 'csv') {
      const chosen = chooseColumns(columns, display.columns);
      this.log(toCsv(chosen.map(columnKey), cellsOf(rows, chosen)));
    } else if (rows.length > 0) {
      this.log(
        renderTable(rows, columns, outputWidth(), {
          truncate: display.truncate,
          colour: display.colour,
          ...(display.columns === undefined ? {} : { columns: display.columns }),
          ...this.baseOption(rows),
        }),
      );
    }
    if (page === undefined) return;
    const shown = `${rows.length} of ${page.total}`;
    if (page.next_cursor !== undefined) {
      this.logToStderr(`${shown}; next page: --cursor ${page.next_cursor} (or --all)`);
    } else {
      this.logToStderr(rows.length < page.total ? `${shown} (raise --limit for more)` : shown);
    }
  }

  /** Prints one record as `field  value` lines. */
  protected printRecord(record: Readonly<Record<string, unknown>>): void {
    const display = this.display();
    this.log(renderFields(record, display.truncate ? outputWidth() : Number.POSITIVE_INFINITY));
  }

  /** The base IRI the rows were minted under, else the registry's URL. */
  private baseOption(rows: readonly unknown[]): { base?: string } {
    const base = baseOfRows(rows) ?? this.registryUrl;
    return base === undefined ? {} : { base };
  }

  protected override catch(error: Error & { exitCode?: number; oclif?: unknown }): Promise<unknown> {
    if (!(error instanceof Problem) || (!(error instanceof ApiError) && error.errors.length === 0)) {
      return super.catch(error);
    }
    const code = exitCodeFor(error);
    process.exitCode = code;
    if (this.jsonEnabled()) {
      this.logJson({
        error: {
          code: error.code,
          message: error.message,
          ...(error instanceof ApiError ? { status: error.status, title: error.title } : {}),
          ...(error.errors.length > 0 ? { errors: error.errors } : {}),
          ...(error.hints.length > 0 ? { hints: error.hints } : {}),
          exit_code: code,
          ...(error instanceof ApiError && error.problem !== undefined ? { problem: error.problem } : {}),
        },
      });
    } else {
      const fields = error.errors.map(({ field, message }) => `\n  ${fieldLine(field, message)}`).join('');
      const hints = error.hints.map((hint) => `\n  hint: ${hint}`).join('');
      process.stderr.write(`reg: ${error.message}${fields}${hints}\n`);
    }
    return Promise.resolve();
  }
}

/** `field: message`, without repeating the field when the message already starts with it. */
function fieldLine(field: string, message: string): string {
  if (field === '' || message.startsWith(`${field}:`) || message.startsWith(`${field} `)) return message;
  return `${field}: ${message}`;
}
