import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { applyMigrations } from '../../src/core/store/migrations.js';
import { SEARCH_SCHEMA } from '../../src/core/store/search-index.js';
import { ROOT } from '../helpers.js';

/** The schema SQLite stores for every table, index and trigger, by name. */
function schemaOf(db: BetterSqlite3.Database, names?: readonly string[]): Record<string, string> {
  const rows = db
    .prepare('SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name')
    .all() as {
    name: string;
    sql: string;
  }[];
  return Object.fromEntries(
    rows.filter((row) => names === undefined || names.includes(row.name)).map((row) => [row.name, row.sql]),
  );
}

describe('migrations', () => {
  it('are self-contained: a released migration never reads a live schema constant', () => {
    const source = fs.readFileSync(path.join(ROOT, 'src/core/store/migrations.ts'), 'utf8');
    const imports = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((match) => match[1]);
    expect(imports).toEqual(['better-sqlite3']);
  });

  it('leave the search tables exactly as the live search schema creates them', () => {
    const migrated = new BetterSqlite3(':memory:');
    applyMigrations(migrated);
    const live = new BetterSqlite3(':memory:');
    live.exec(SEARCH_SCHEMA);
    const names = Object.keys(schemaOf(live));
    expect(names.length).toBeGreaterThan(3);
    expect(schemaOf(migrated, names)).toEqual(schemaOf(live));
  });
});
