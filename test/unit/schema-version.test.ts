import BetterSqlite3 from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { DATABASE_FILE, openDatabase } from '../../src/core/store/database.js';
import { SCHEMA_VERSION } from '../../src/core/store/migrations.js';
import { tempDir } from '../helpers.js';

describe('schema version', () => {
  it('refuses a data directory written by a newer reg, naming both versions, and leaves it unchanged', () => {
    const dir = tempDir();
    openDatabase(dir).close();
    const file = path.join(dir, DATABASE_FILE);
    const raw = new BetterSqlite3(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openDatabase(dir)).toThrow(ConfigError);
    expect(() => openDatabase(dir)).toThrow(
      `written by a newer reg (schema ${SCHEMA_VERSION + 1}; this reg knows up to ${SCHEMA_VERSION})`,
    );
    const after = new BetterSqlite3(file, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    after.close();
    // The lock was released: the directory opens again once the version is one this reg knows.
    const fixed = new BetterSqlite3(file);
    fixed.pragma(`user_version = ${SCHEMA_VERSION}`);
    fixed.close();
    openDatabase(dir).close();
  });
});
