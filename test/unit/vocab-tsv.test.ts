import { describe, expect, it } from 'vitest';
import { readBoolean, readTsv, splitMulti } from '../../src/core/vocab/tsv.js';

const SAMPLE = [
  '# Example vocabulary: generated',
  '# version: 1.2',
  '# licence: CC0 (https://example.org/cc0)',
  'iri\tlabel\talt\tflag',
  'https://x/1\tOne "quoted"\ta|b\ttrue',
  'https://x/2\tTwo\t\tfalse',
  '',
].join('\n');

describe('readTsv', () => {
  it('reads metadata, header and rows without treating quotes specially', () => {
    const table = readTsv(SAMPLE);
    expect(table.meta.get('version')).toBe('1.2');
    expect(table.meta.get('licence')).toBe('CC0 (https://example.org/cc0)');
    expect(table.comments[0]).toBe('Example vocabulary: generated');
    expect(table.header).toEqual(['iri', 'label', 'alt', 'flag']);
    expect(table.rows).toEqual([
      { iri: 'https://x/1', label: 'One "quoted"', alt: 'a|b', flag: 'true' },
      { iri: 'https://x/2', label: 'Two', alt: '', flag: 'false' },
    ]);
  });

  it('accepts CRLF line endings', () => {
    expect(readTsv(SAMPLE.replace(/\n/g, '\r\n')).rows[1]?.flag).toBe('false');
  });

  it('refuses a row with the wrong number of columns, naming the line', () => {
    expect(() => readTsv('a\tb\n1\t2\t3\n', 'x.tsv')).toThrow(
      /x\.tsv: line 2 has 3 columns, the header has 2/,
    );
    expect(() => readTsv('# only: metadata\n', 'y.tsv')).toThrow(/y\.tsv: no header/);
  });
});

describe('splitMulti and readBoolean', () => {
  it('splits on bars, honours escaped bars and drops empty values', () => {
    expect(splitMulti('a|b||c')).toEqual(['a', 'b', 'c']);
    expect(splitMulti('a\\|b|c')).toEqual(['a|b', 'c']);
    expect(splitMulti('')).toEqual([]);
    expect(splitMulti(undefined)).toEqual([]);
  });

  it('reads only true and false', () => {
    expect(readBoolean('true', 'w')).toBe(true);
    expect(readBoolean('false', 'w')).toBe(false);
    expect(readBoolean('', 'w')).toBe(false);
    expect(() => readBoolean('yes', 'row 3')).toThrow(/row 3: expected true or false/);
  });
});
