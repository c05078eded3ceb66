/**
 * A restore into a nearly empty lineage index sets the index's lookups aside and builds them once it ends; opening
 * the database builds any a stopped load left missing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRAPHS } from '../../src/core/ns.js';
import { restoreNQuads } from '../../src/core/ops/restore.js';
import { setLineageLookupsAside } from '../../src/core/store/lineage/lineage-index.js';
import { buildLineageLookups, LINEAGE_LOOKUPS } from '../../src/core/store/migrations.js';
import type { Database } from '../../src/core/store/database.js';
import { openTestCore, tempDir } from '../helpers.js';

const NAMES = Object.keys(LINEAGE_LOOKUPS);

function lookups(db: Database): string[] {
  return (
    db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'lineage_%' ORDER BY name`)
      .all() as { name: string }[]
  )
    .map((row) => row.name)
    .filter((name) => NAMES.includes(name));
}

/** A dump of `runs` runs, each generating an artifact used by the next. */
function lineageDump(runs: number): string {
  const lines: string[] = [];
  const g = `<${GRAPHS.local}>`;
  for (let n = 0; n < runs; n++) {
    const run = `<http://registry.test/runs/${n}>`;
    const artifact = `<http://registry.test/artifacts/${n}>`;
    lines.push(
      `${run} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/reg/ns#Run> ${g} .`,
    );
    if (n > 0)
      lines.push(`${run} <http://www.w3.org/ns/prov#used> <http://registry.test/artifacts/${n - 1}> ${g} .`);
    lines.push(
      `${artifact} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/reg/ns#Artifact> ${g} .`,
    );
    lines.push(`${artifact} <http://www.w3.org/ns/prov#wasGeneratedBy> ${run} ${g} .`);
  }
  const file = path.join(tempDir(), 'lineage.nq');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('the lineage index’s lookups around a restore', () => {
  it('are set aside only while the index is nearly empty, and built again', async () => {
    const core = await openTestCore();
    try {
      expect(lookups(core.db)).toEqual([...NAMES].sort());
      expect(setLineageLookupsAside(core.db)).toBe(true);
      expect(lookups(core.db)).toEqual([]);
      buildLineageLookups(core.db);
      expect(lookups(core.db)).toEqual([...NAMES].sort());
      core.db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
        INSERT INTO lineage_node (graph, record, iri, p, value) SELECT 'g', 'r' || i, 'r' || i, 1, 'v' FROM n`);
      expect(setLineageLookupsAside(core.db)).toBe(false);
      expect(lookups(core.db)).toEqual([...NAMES].sort());
    } finally {
      await core.close();
    }
  });

  it('are there after a restore into a new registry, which wrote its links', async () => {
    const core = await openTestCore();
    try {
      await restoreNQuads(core, lineageDump(30));
      expect(lookups(core.db)).toEqual([...NAMES].sort());
      const plan = core.db
        .prepare(`EXPLAIN QUERY PLAN SELECT o FROM lineage_link WHERE s = ? AND p = ?`)
        .all('x', 1) as { detail: string }[];
      expect(plan.map((row) => row.detail).join(' ')).toContain('lineage_link_from');
      const links = core.db
        .prepare(`SELECT count(*) AS n FROM lineage_link WHERE s = ?`)
        .get('http://registry.test/artifacts/29') as { n: number };
      expect(links.n).toBeGreaterThan(0);
    } finally {
      await core.close();
    }
  });

  it('hold a record restored in two runs (its quads apart in the file) once, as when restored whole', async () => {
    const g = `<${GRAPHS.local}>`;
    const software = (n: number) => [
      `<http://registry.test/software/${n}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/reg/ns#Software> ${g} .`,
      `<http://registry.test/software/${n}> <https://schema.org/name> "Software ${n}" ${g} .`,
      `<http://registry.test/software/${n}> <http://www.w3.org/ns/prov#wasDerivedFrom> <http://registry.test/upstream> ${g} .`,
    ];
    const rows = async (lines: string[]): Promise<string[]> => {
      const file = path.join(tempDir(), 'runs.nq');
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
      const core = await openTestCore();
      try {
        await restoreNQuads(core, file);
        return (
          core.db
            .prepare(
              `SELECT s || ' ' || p || ' ' || o AS row FROM lineage_link WHERE record = ?
               UNION ALL SELECT iri || ' ' || p || ' ' || value FROM lineage_node WHERE record = ? ORDER BY 1`,
            )
            .all('http://registry.test/software/1', 'http://registry.test/software/1') as { row: string }[]
        ).map(({ row }) => row);
      } finally {
        await core.close();
      }
    };
    const [first = [], second = []] = [software(1), software(2)];
    const whole = await rows([...first, ...second]);
    // Software 1's last line after software 2: it is merged twice, the second time over the rows of the first.
    const apart = await rows([...first.slice(0, 2), ...second, ...first.slice(2)]);
    expect(whole.some((row) => row.includes('Software 1'))).toBe(true);
    expect(whole.some((row) => row.includes('upstream'))).toBe(true);
    expect(apart).toEqual(whole);
  });

  it('missing when the database opens (a load stopped before building them) are built then', async () => {
    const dataDir = tempDir();
    const first = await openTestCore({ REG_DATA_DIR: dataDir });
    setLineageLookupsAside(first.db);
    expect(lookups(first.db)).toEqual([]);
    await first.close();
    const again = await openTestCore({ REG_DATA_DIR: dataDir });
    try {
      expect(lookups(again.db)).toEqual([...NAMES].sort());
    } finally {
      await again.close();
    }
  });
});
