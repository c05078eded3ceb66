/**
 * The subscriptions that were notified about the artifacts an impact answer holds, read from the delivery queue:
 * all of them for curators and administrators, a deployment's own for its credential, none for anyone else.
 */
import { isCurator } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Core } from '../core.js';

/** Which subscriptions the caller was shown. */
export type NotifiedScope = 'all' | 'own' | 'none';

/** One subscription notified about some of the artifacts, with how its deliveries stand. */
export interface NotifiedSubscription {
  readonly id: string;
  readonly instance: string;
  readonly label?: string;
  /** The affected artifacts it was told about (at most `NOTIFIED_ARTIFACTS_SHOWN`), and how many there were. */
  readonly artifacts: string[];
  readonly artifact_count: number;
  readonly deliveries: number;
  /** Deliveries by state: pending, failed, dead, delivered. */
  readonly statuses: Record<string, number>;
  readonly first_matched_at: string;
  readonly last_matched_at: string;
}

/** Artifacts listed per subscription. */
export const NOTIFIED_ARTIFACTS_SHOWN = 20;

/** Artifacts looked up per statement (SQLite allows a few thousand parameters). */
const BATCH = 500;

interface Row {
  readonly subscription_id: string;
  readonly instance_iri: string;
  readonly label: string | null;
  readonly artifact_iri: string;
  readonly status: string;
  readonly matched_at: string;
}

/** The caller's view of the subscriptions notified about `artifacts`. */
export function notifiedSubscriptions(
  core: Core,
  principal: Principal,
  artifacts: readonly string[],
): { scope: NotifiedScope; subscriptions: NotifiedSubscription[] } {
  const scope: NotifiedScope = isCurator(principal) ? 'all' : principal.instance !== null ? 'own' : 'none';
  if (scope === 'none' || artifacts.length === 0) return { scope, subscriptions: [] };
  const rows: Row[] = [];
  const unique = [...new Set(artifacts)];
  for (let from = 0; from < unique.length; from += BATCH) {
    const batch = unique.slice(from, from + BATCH);
    const own = scope === 'own' ? 'AND s.instance_iri = ?' : '';
    const statement = core.db.prepare(
      `SELECT d.subscription_id, s.instance_iri, s.label, d.artifact_iri, d.status, d.matched_at
         FROM delivery d JOIN subscription s ON s.id = d.subscription_id
        WHERE d.artifact_iri IN (${batch.map(() => '?').join(', ')}) ${own}`,
    );
    rows.push(...(statement.all(...batch, ...(scope === 'own' ? [principal.instance] : [])) as Row[]));
  }
  return { scope, subscriptions: summarise(rows) };
}

function summarise(rows: readonly Row[]): NotifiedSubscription[] {
  const grouped = new Map<string, Row[]>();
  for (const row of rows)
    grouped.set(row.subscription_id, [...(grouped.get(row.subscription_id) ?? []), row]);
  return [...grouped.values()]
    .map((group) => {
      const first = group[0]!;
      const artifacts = [...new Set(group.map((row) => row.artifact_iri))].sort();
      const statuses: Record<string, number> = {};
      for (const row of group) statuses[row.status] = (statuses[row.status] ?? 0) + 1;
      const times = group.map((row) => row.matched_at).sort();
      return {
        id: first.subscription_id,
        instance: first.instance_iri,
        ...(first.label === null ? {} : { label: first.label }),
        artifacts: artifacts.slice(0, NOTIFIED_ARTIFACTS_SHOWN),
        artifact_count: artifacts.length,
        deliveries: group.length,
        statuses,
        first_matched_at: times[0]!,
        last_matched_at: times[times.length - 1]!,
      };
    })
    .sort((a, b) => a.first_matched_at.localeCompare(b.first_matched_at) || a.id.localeCompare(b.id));
}
