import { describe, expect, it } from 'vitest';
import { renderFields, renderTable, truncate, type Column } from '../../src/cli/client/table.js';

interface Row {
  id: string;
  name: string;
  note?: string;
}

const columns: Column<Row>[] = [
  { header: 'ID', value: (row) => row.id, min: 4 },
  { header: 'NAME', value: (row) => row.name },
  { header: 'NOTE', value: (row) => row.note },
];
const rows: Row[] = [
  { id: 'a1', name: 'short', note: 'a rather long note that will not fit into a narrow terminal' },
  { id: 'b2', name: 'a much longer name\nwith a line break' },
];

describe('tables', () => {
  it('aligns columns and keeps whole values when they fit', () => {
    const text = renderTable(rows, columns, Number.POSITIVE_INFINITY);
    const lines = text.split('\n');
    const name = 'a much longer name with a line break';
    expect(lines[0]).toBe(`ID  ${'NAME'.padEnd(name.length)}  NOTE`);
    expect(lines[1]).toBe(`a1  ${'short'.padEnd(name.length)}  ${rows[0]!.note}`);
    expect(lines[2]).toBe('b2  a much longer name with a line break');
  });

  it('shrinks the widest columns to fit the width, cutting cells with an ellipsis', () => {
    const lines = renderTable(rows, columns, 40).split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(lines[1]).toMatch(/^a1 {2}short +a rather long .*…$/);
    expect(lines[2]).toMatch(/^b2 {2}a much longer.*…$/);
  });

  it('drops the columns to the right before shrinking the first below the width', () => {
    const lines = renderTable([{ id: 'abcdef', name: 'n' }], columns, 5).split('\n');
    expect(lines).toEqual(['ID', 'abcd…']);
  });

  it('truncates with an ellipsis', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 4)).toBe('abc');
  });
});

describe('record fields', () => {
  it('shows terms by label, lists joined, unlabelled objects as field.sub lines and skips empties', () => {
    const text = renderFields(
      {
        iri: 'http://r.test/software/1',
        name: 'demo',
        kinds: ['library', 'cli'],
        screenshots: [],
        tagline: undefined,
        topics: [{ iri: 'http://t.test/1', label: 'Chemistry' }],
        publisher: { iri: 'https://ror.org/x', name: 'Lab' },
        origin: { kind: 'local' },
        capability: { produces: [{ iri: 'http://t.test/d', label: 'Data' }], consumes: [] },
        deployable: true,
      },
      Number.POSITIVE_INFINITY,
    );
    expect(text.split('\n')).toEqual([
      'iri                  http://r.test/software/1',
      'name                 demo',
      'kinds                library, cli',
      'topics               Chemistry <http://t.test/1>',
      'publisher            Lab <https://ror.org/x>',
      'origin.kind          local',
      'capability.produces  Data <http://t.test/d>',
      'deployable           true',
    ]);
  });
});
