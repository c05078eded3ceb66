import type { AuditPage } from '../../core/ops/audit.js';
import { everyPage } from './registry.js';
import type { HttpClient } from './http.js';
import type { Column } from './table.js';

/** The API's page of the audit log, newest first. */
export type AuditPageJson = AuditPage;

/** One entry of the audit log as the API answers it. */
export type AuditEntryJson = AuditPage['items'][number];

/** The filters `GET /api/v1/audit` offers. */
export interface AuditFilters {
  readonly action?: string | undefined;
  readonly limit?: number | undefined;
}

/** Columns of `reg audit`. */
export const AUDIT_COLUMNS: readonly Column<AuditEntryJson>[] = [
  { header: 'AT', value: (row) => row.at, min: 24 },
  { header: 'ACTION', value: (row) => row.action, min: 12 },
  { header: 'ACTOR', value: (row) => row.actor ?? undefined, min: 12 },
  { header: 'KIND', value: (row) => row.actor_kind },
  { header: 'TARGET', value: (row) => row.target ?? undefined, min: 16 },
  { header: 'DETAIL', value: (row) => row.detail ?? undefined, min: 10 },
];

/** Most pages one look for new entries reads before it counts everything it read as new. */
const MAX_CATCH_UP_PAGES = 10;

/** The audit log of one registry, over HTTP (administrators only). */
export class AuditClient {
  constructor(readonly http: HttpClient) {}

  /** One page, newest first; `cursor` is the `next_cursor` of the page before. */
  page(filters: AuditFilters, cursor?: number): Promise<AuditPageJson> {
    return this.http.request<AuditPageJson>('GET', '/api/v1/audit', {
      query: { action: filters.action, limit: filters.limit, cursor },
    });
  }

  /** Every page, newest first, as one page without a cursor. */
  async all(filters: AuditFilters): Promise<AuditPageJson> {
    const { items } = await everyPage<AuditEntryJson, AuditPageJson, number>(
      await this.page(filters),
      (cursor) => this.page(filters, cursor),
    );
    return { items };
  }

  /**
   * The entries written since `seen` (the newest entries read before, newest first), newest first. Entries carry
   * no id, so the new ones are those above the place where the entries read before begin again: the log only
   * grows at its newest end, and each entry's time to the millisecond makes two entries rarely look alike.
   */
  async since(filters: AuditFilters, seen: readonly AuditEntryJson[]): Promise<AuditEntryJson[]> {
    const read: AuditEntryJson[] = [];
    let cursor: number | undefined;
    for (let pages = 0; pages < MAX_CATCH_UP_PAGES; pages++) {
      const page = await this.page(filters, cursor);
      read.push(...page.items);
      const at = overlapAt(read, seen);
      if (at !== undefined) return read.slice(0, at);
      if (page.next_cursor === undefined) break;
      cursor = page.next_cursor;
    }
    return read;
  }
}

/** Where `seen` begins again within `read` (both newest first), or undefined when it does not. */
export function overlapAt(
  read: readonly AuditEntryJson[],
  seen: readonly AuditEntryJson[],
): number | undefined {
  if (seen.length === 0) return read.length;
  for (let at = 0; at < read.length; at++) {
    const length = Math.min(seen.length, read.length - at);
    let same = true;
    for (let i = 0; i < length && same; i++) same = sameEntry(read[at + i], seen[i]);
    if (same) return at;
  }
  return undefined;
}

function sameEntry(a: AuditEntryJson | undefined, b: AuditEntryJson | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  return (
    a.at === b.at &&
    a.action === b.action &&
    a.actor === b.actor &&
    a.actor_kind === b.actor_kind &&
    a.target === b.target &&
    a.detail === b.detail
  );
}
