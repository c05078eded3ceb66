/**
 * The test servers keep Virtuoso's stock query limits, and the registry lives with them: an answer the server
 * cuts at its row limit is an error, never a silently shorter list, and a keyset-paged read gets every row.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { selectByKey } from '../../src/core/stored/keyset.js';
import { openTestCore } from '../helpers.js';
import { externalStoreOf } from '../support/external-store.js';
import { isql } from '../support/virtuoso.js';

const GRAPH = 'urn:test:many';
const ROWS = 10_050;
const item = (i: number) => `http://many.test/item/${String(i).padStart(5, '0')}`;

let core: Core;

beforeAll(async () => {
  core = await openTestCore({}, true);
  // More triples than the server answers in one go, bulk-loaded beside the registry's graphs.
  const server = externalStoreOf(core.config.dataDir);
  const file = path.join(server.dir, 'many.nt');
  const lines = Array.from({ length: ROWS }, (_, i) => `<${item(i)}> <http://many.test/p> "v${i}" .\n`);
  fs.writeFileSync(file, lines.join(''));
  isql(server, `DB.DBA.TTLP_MT(file_to_string_output('${file}'), '', '${GRAPH}');`);
});
afterAll(async () => core.close());

describe('a Virtuoso on its stock limits', () => {
  it('refuses to sort more than 10,000 rows (so the suite would notice a query that asks it to)', async () => {
    await expect(
      core.graph.select(`SELECT ?s WHERE { GRAPH <${GRAPH}> { ?s ?p ?o } } ORDER BY STR(?s) LIMIT 10001`),
    ).rejects.toThrow(/SR353/);
  });

  it('cuts a larger answer, which the registry refuses rather than reading it as complete', async () => {
    await expect(core.graph.select(`SELECT ?s WHERE { GRAPH <${GRAPH}> { ?s ?p ?o } }`)).rejects.toThrow(
      /cut an answer at its limit of 10000 rows/,
    );
  });

  it('answers a keyset-paged read in full', async () => {
    const rows = await selectByKey(
      core,
      's',
      ({ after, order }) => `SELECT ?s WHERE { GRAPH <${GRAPH}> { ?s ?p ?o } ${after} } ${order}`,
    );
    expect(rows).toHaveLength(ROWS);
    expect(rows[0]?.s?.value).toBe(item(0));
    expect(rows.at(-1)?.s?.value).toBe(item(ROWS - 1));
  });
});
