/**
 * Which deployments ran a release, as their dated history records it (deployment events and announcements): when
 * each last moved onto one of the releases and, if it moved off since, when.
 */
import type { Core } from '../core.js';

/** A deployment's time on the releases asked about. */
export interface ReleaseStay {
  /** When it last moved onto one of them. */
  readonly since?: string;
  /** When it last moved off them (absent while it still runs one). */
  readonly left_at?: string;
}

/** Entries read at most: the history holds one row per change of a deployment, so this is far beyond need. */
const MOST = 5000;

interface Row {
  readonly instance: string;
  readonly at: string;
  readonly previous_release: string | null;
  readonly release: string | null;
}

/** The deployments whose applied history names one of `releases`, with their stays on them. */
export function releaseStays(core: Core, releases: readonly string[]): Map<string, ReleaseStay> {
  const stays = new Map<string, ReleaseStay>();
  if (releases.length === 0) return stays;
  const marks = releases.map(() => '?').join(', ');
  const rows = core.db
    .prepare(
      `SELECT instance, at, previous_release, release FROM deployment_history
        WHERE applied = 1 AND (release IN (${marks}) OR previous_release IN (${marks}))
        ORDER BY instance, at, id LIMIT ${MOST}`,
    )
    .all(...releases, ...releases) as Row[];
  const asked = new Set(releases);
  for (const row of rows) {
    const on = row.release !== null && asked.has(row.release);
    const was = row.previous_release !== null && asked.has(row.previous_release);
    const stay = stays.get(row.instance) ?? {};
    if (on && !was) stays.set(row.instance, { since: row.at });
    else if (was && !on) stays.set(row.instance, { ...stay, left_at: row.at });
    else stays.set(row.instance, stay);
  }
  return stays;
}
