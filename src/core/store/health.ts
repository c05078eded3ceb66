import type { Database } from './database.js';

/**
 * The version of a stored record (it grows by one with every write that changes it), or undefined when there is
 * none; the health prober compares it before and after its write so that it never overwrites an edit.
 */
export function recordVersion(db: Database, graph: string, subject: string): number | undefined {
  const row = db.prepare('SELECT version FROM record WHERE graph = ? AND subject = ?').get(graph, subject) as
    { version: number } | undefined;
  return row?.version;
}
