/**
 * The search index's rows written a batch at a time: new, changed, removed and twice-written records in one
 * batch leave the full-text tables matching their content (FTS5's own integrity check) and answering as if
 * each record had been written alone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/core/store/database.js';
import { GRAPHS } from '../../src/core/ns.js';
import { canonicalTextOf, linesOf, parseNQuads } from '../../src/core/store/nquads.js';
import { SearchReader } from '../../src/core/store/search-entry.js';
import {
  indexRecordsForSearch,
  searchCandidates,
  type SearchWrite,
} from '../../src/core/store/search-index.js';
import { tempDir } from '../helpers.js';

const NAME = 'https://schema.org/name';
const DESCRIPTION = 'http://purl.org/dc/terms/description';
const reader = new SearchReader(new Map([['software', { title: [NAME], body: [DESCRIPTION] }]]));

const iri = (name: string) => `http://registry.test/software/${name}`;

function write(name: string, title: string, body = `about ${title}`): SearchWrite {
  const s = iri(name);
  return {
    graph: GRAPHS.local,
    subject: s,
    kind: 'software',
    quads: parseNQuads(
      `<${s}> <${NAME}> ${JSON.stringify(title)} <${GRAPHS.local}> .\n<${s}> <${DESCRIPTION}> ${JSON.stringify(body)} <${GRAPHS.local}> .\n`,
    ),
  };
}

const removal = (name: string): SearchWrite => ({
  graph: GRAPHS.local,
  subject: iri(name),
  kind: 'software',
  quads: null,
});

/** FTS5's check that each external-content table's index holds exactly what its content table holds. */
function integrityCheck(db: Database): void {
  db.prepare(`INSERT INTO search_text (search_text, rank) VALUES ('integrity-check', 1)`).run();
  db.prepare(`INSERT INTO search_word (search_word, rank) VALUES ('integrity-check', 1)`).run();
}

/** What each way of finding candidates finds for `q`, as IRIs in order. */
function found(db: Database, q: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const source of ['prefix', 'word', 'title', 'text'] as const) {
    out[source] = searchCandidates(db, source, q, ['software'], 50)
      .map((hit) => hit.iri)
      .sort();
  }
  return out;
}

describe('search rows written a batch at a time', () => {
  let batched: Database;
  let alone: Database;
  beforeEach(() => {
    batched = openDatabase(tempDir());
    alone = openDatabase(tempDir());
  });
  afterEach(() => {
    batched.close();
    alone.close();
  });

  it('match writing each record alone, and keep the full-text tables consistent', () => {
    const first = [write('kept', 'Kept parser'), write('changed', 'Old title'), write('gone', 'Gone tool')];
    const second = [
      write('changed', 'Fresh converter', 'converts tables'),
      removal('gone'),
      write('new', 'New publisher'),
      write('twice', 'First draft'),
      write('twice', 'Second draft', 'written twice in one batch'),
      removal('never-indexed'),
      write('kept', 'Kept parser'),
    ];
    batched.transaction(() => indexRecordsForSearch(batched, reader, first));
    batched.transaction(() => indexRecordsForSearch(batched, reader, second));
    for (const one of [...first, ...second])
      alone.transaction(() => indexRecordsForSearch(alone, reader, [one]));

    integrityCheck(batched);
    for (const q of ['old', 'fresh', 'conver', 'gone', 'draft', 'first', 'second', 'twice', 'kept', 'new']) {
      expect(found(batched, q), q).toEqual(found(alone, q));
    }
    expect(found(batched, 'fresh').word).toEqual([iri('changed')]);
    expect(found(batched, 'old').word).toEqual([]);
    expect(found(batched, 'gone').text).toEqual([]);
    expect(found(batched, 'draft').word).toEqual([iri('twice')]);
    expect(found(batched, 'first').word).toEqual([]);
    expect(found(batched, 'twice').text).toEqual([iri('twice')]);
    const rows = batched.prepare('SELECT iri, title FROM search_entry ORDER BY iri').all();
    expect(rows).toEqual(alone.prepare('SELECT iri, title FROM search_entry ORDER BY iri').all());
    expect(rows).toHaveLength(4);
  });

  it('take a record out when its last write in the batch withdraws it', () => {
    batched.transaction(() => indexRecordsForSearch(batched, reader, [write('w', 'Withdrawn soon')]));
    batched.transaction(() =>
      indexRecordsForSearch(batched, reader, [
        write('w', 'Renamed first'),
        { ...write('w', 'Withdrawn now'), kind: 'software:withdrawn' },
      ]),
    );
    integrityCheck(batched);
    expect(found(batched, 'withdrawn')).toEqual({ prefix: [], word: [], title: [], text: [] });
    expect(found(batched, 'renamed').word).toEqual([]);
  });

  it("read the same entry from a record's canonical lines as from its quads", () => {
    const writes = [
      write('a', 'Alpha tool', 'reads "quoted" text'),
      write('b', 'Beta', 'línea con acentos'),
      { ...write('c', 'Not searched'), kind: 'run' },
    ];
    const asLines = writes.map((one): SearchWrite => {
      const quads = 'quads' in one ? one.quads : null;
      return {
        graph: one.graph,
        subject: one.subject,
        kind: one.kind,
        lines: quads === null ? null : linesOf(canonicalTextOf(quads)),
      };
    });
    for (const [at, one] of writes.entries()) {
      const quads = 'quads' in one ? (one.quads ?? []) : [];
      expect(reader.entryOfLines(one.graph, one.subject, one.kind, linesOf(canonicalTextOf(quads)))).toEqual(
        reader.entryOf(one.graph, one.subject, one.kind, quads),
      );
      expect(asLines[at]).toHaveProperty('lines');
    }
    batched.transaction(() => indexRecordsForSearch(batched, reader, asLines));
    alone.transaction(() => indexRecordsForSearch(alone, reader, writes));
    const rows = (db: Database) =>
      db.prepare('SELECT iri, kind, title, body FROM search_entry ORDER BY iri').all();
    expect(rows(batched)).toEqual(rows(alone));
    expect(rows(batched)).toHaveLength(2);
    integrityCheck(batched);
  });
});
