import { describe, expect, it } from 'vitest';
import { colourWanted, displayOptions, toCsv } from '../../src/cli/client/output.js';
import { baseOfRows, renderTable, shortIdLength, shortIri, type Column } from '../../src/cli/client/table.js';

interface Row {
  id: string;
  iri: string;
  name: string;
  state: string;
  note: string;
}

const BASE = 'http://registry.test';
const row = (id: string, name: string, state: string, note: string): Row => ({
  id,
  iri: `${BASE}/software/${id}`,
  name,
  state,
  note,
});
const rows: Row[] = [
  row(
    '01a21a1e-b688-70c8-b25f-814a4e5ca393',
    'Alpha aligner',
    'unknown',
    'aligns reads against a reference genome',
  ),
  row('01a21a1e-b9d6-7014-b893-e0fefa8bafdd', 'Beta browser', 'up', 'browses genomes in a web page'),
];
const columns: Column<Row>[] = [
  { header: 'NAME', value: (r) => r.name, priority: 0 },
  { header: 'STATE', value: (r) => r.state, kind: 'status', priority: 1 },
  { header: 'NOTE', value: (r) => r.note, min: 10, priority: 4 },
  { header: 'IRI', value: (r) => r.iri, kind: 'iri', priority: 3 },
  { header: 'ID', value: (r) => r.id, kind: 'id', priority: 1 },
];

describe('table layout', () => {
  it('prints every column whole when the width allows, IRIs under the base relative to it', () => {
    const text = renderTable(rows, columns, Number.POSITIVE_INFINITY, { base: BASE });
    expect(text.split('\n')).toEqual([
      'NAME           STATE    NOTE                                     IRI                                             ID',
      'Alpha aligner  unknown  aligns reads against a reference genome  /software/01a21a1e-b688-70c8-b25f-814a4e5ca393  01a21a1e-b688-70c8-b25f-814a4e5ca393',
      'Beta browser   up       browses genomes in a web page            /software/01a21a1e-b9d6-7014-b893-e0fefa8bafdd  01a21a1e-b9d6-7014-b893-e0fefa8bafdd',
    ]);
  });

  it('drops the least important columns, shortens ids and never cuts titles or status words', () => {
    const lines = renderTable(rows, columns, 50, { base: BASE }).split('\n');
    // The note goes first (priority 4), then the IRI (3) is cut; the ids become their unique prefix.
    expect(lines).toEqual([
      'NAME           STATE    IRI            ID',
      'Alpha aligner  unknown  /software/01…  01a21a1e-b6',
      'Beta browser   up       /software/01…  01a21a1e-b9',
    ]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(50);
    const narrow = renderTable(rows, columns, 36, { base: BASE }).split('\n');
    expect(narrow).toEqual([
      'NAME           STATE    ID',
      'Alpha aligner  unknown  01a21a1e-b6',
      'Beta browser   up       01a21a1e-b9',
    ]);
  });

  it('keeps every column and whole values with truncate off, and the columns asked for in their order', () => {
    const whole = renderTable(rows, columns, 40, { truncate: false, base: BASE });
    expect(whole).toContain('01a21a1e-b688-70c8-b25f-814a4e5ca393');
    expect(whole).toContain('aligns reads against a reference genome');
    expect(renderTable(rows, columns, 80, { columns: ['id', 'name'] }).split('\n')[0]).toMatch(/^ID +NAME$/);
  });

  it('brings back a column that tells rows apart when they would print alike', () => {
    const twins = [
      row(
        '01a21a1e-b688-70c8-b25f-814a4e5ca393',
        'Validation report',
        'up',
        'of the graph submitted by lab A',
      ),
      row(
        '01a21a1e-b9d6-7014-b893-e0fefa8bafdd',
        'Validation report',
        'up',
        'of the graph submitted by lab B',
      ),
    ];
    const lines = renderTable(twins, columns, 60, { base: BASE }).split('\n');
    expect(lines).toEqual([
      'NAME               STATE  NOTE',
      'Validation report  up     of the graph submitted by lab A',
      'Validation report  up     of the graph submitted by lab B',
    ]);
    // Without the note's whole text they would print alike.
    expect(renderTable(twins, columns.slice(0, 2), 60).split('\n')).toHaveLength(3);
  });

  it('colours the header and status words only when asked', () => {
    const plain = renderTable(rows, columns, 200, { base: BASE });
    expect(plain).not.toContain('\u001b[');
    const coloured = renderTable(rows, columns, 200, { base: BASE, colour: true });
    expect(coloured).toContain('\u001b[1mNAME\u001b[0m');
    expect(coloured).toContain('\u001b[32mup\u001b[0m');
    expect(coloured).toContain('\u001b[33munknown\u001b[0m');
  });
});

describe('identifiers and IRIs', () => {
  it('shortens ids to the shortest unique prefix of at least 8 characters', () => {
    expect(shortIdLength(['01a21a1e-b688-70c8-b25f-814a4e5ca393'])).toBe(8);
    expect(shortIdLength(rows.map((r) => r.id))).toBe(11);
    expect(shortIdLength(['not-a-uuid'])).toBe(8);
  });

  it('shows IRIs relative to the base, or by a known prefix', () => {
    expect(shortIri(`${BASE}/type/report`, BASE)).toBe('/type/report');
    expect(shortIri('http://edamontology.org/data_0006', BASE)).toBe('edam:data_0006');
    expect(shortIri('https://other.example.org/x', BASE)).toBe('https://other.example.org/x');
    expect(baseOfRows(rows)).toBe(BASE);
    expect(baseOfRows([{ id: 'x', iri: 'http://edamontology.org/x' }])).toBeUndefined();
    expect(baseOfRows([{ id: 'x' }])).toBeUndefined();
  });
});

describe('output options', () => {
  it('reads --output, --columns and --no-truncate, the last one winning', () => {
    expect(displayOptions(['--output', 'csv', '--columns', 'Name, id', '--no-truncate'], {}, {})).toEqual({
      format: 'csv',
      columns: ['name', 'id'],
      truncate: false,
      colour: false,
    });
    expect(displayOptions(['--output=yaml', '--json'], {}, {}).format).toBe('json');
    expect(displayOptions(['--', '--output', 'csv'], {}, {}).format).toBe('table');
  });

  it('colours a terminal unless NO_COLOR is set or TERM is dumb', () => {
    expect(colourWanted({}, { isTTY: true })).toBe(true);
    expect(colourWanted({}, { isTTY: false })).toBe(false);
    expect(colourWanted({ NO_COLOR: '1' }, { isTTY: true })).toBe(false);
    expect(colourWanted({ NO_COLOR: '' }, { isTTY: true })).toBe(true);
    expect(colourWanted({ TERM: 'dumb' }, { isTTY: true })).toBe(false);
  });

  it('quotes CSV fields as RFC 4180 does', () => {
    expect(
      toCsv(
        ['name', 'note'],
        [
          ['a, b', 'say "hi"'],
          ['line\nbreak', 'plain'],
        ],
      ),
    ).toBe('name,note\r\n"a, b","say ""hi"""\r\n"line\nbreak",plain');
  });
});
