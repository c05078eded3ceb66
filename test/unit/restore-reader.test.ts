/**
 * The restore's scan and read: a batch of lines the scan finds plain (canonical, in a named graph, without blank
 * nodes) is taken as it is and gives exactly what parsing it gives; any other batch is parsed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRAPHS } from '../../src/core/ns.js';
import {
  readNQuadsFile,
  scanNQuadsFile,
  type LineProblem,
  type Parsed,
} from '../../src/core/ops/restore-reader.js';
import { quadToLine } from '../../src/core/store/nquads.js';
import { tempDir } from '../helpers.js';

const BATCH = 2000;
const g = `<${GRAPHS.local}>`;
const canonical = (n: number) => [
  `<http://a.test/r/${n}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/reg/ns#Software> ${g} .`,
  `<http://a.test/r/${n}#part> <https://schema.org/name> "récord \\"${n}\\"\\n > <x> ."@fr ${g} .`,
  `<http://a.test/r/${n}> <https://schema.org/version> "1"^^<http://www.w3.org/2001/XMLSchema#integer> ${g} .`,
  `# reg:record <http://a.test/r/${n}> ${g}`,
];

/** Each statement as the restore merges it: graph, subject, and the line the store keeps. */
function statementsOf(items: readonly Parsed[]): string[] {
  return items.flatMap((item) => {
    if ('marker' in item) return [`marker ${item.marker.subject} ${item.marker.graph}`];
    if ('quad' in item)
      return [`${item.quad.graph.value} ${item.quad.subject.value} ${quadToLine(item.quad)}`];
    return [`${item.statement.graph} ${item.statement.subject} ${item.statement.line}`];
  });
}

async function readAll(file: string, plain?: (batch: number) => Promise<boolean>): Promise<Parsed[]> {
  const items: Parsed[] = [];
  for await (const item of readNQuadsFile(file, [], plain)) items.push(item);
  return items;
}

describe('the scan of a restore file', () => {
  it('finds canonical batches plain, and the read takes them as they are with the same result as parsing', async () => {
    const lines: string[] = [];
    for (let n = 0; lines.length < BATCH; n++) lines.push(...canonical(n));
    lines.length = BATCH;
    // The second batch: one line written with extra white space; the third: a blank node; the fourth: a line in
    // the default graph; the fifth: canonical again, ending without a newline.
    const second = lines.slice(0, BATCH).map((line) => line.replace('r/', 'second/'));
    second[5] = `  ${second[5]?.replace('> <', '>   <')}\t`;
    const third = lines.slice(0, BATCH).map((line) => line.replace('r/', 'third/'));
    third[5] = `_:b1 <https://schema.org/name> "blank" ${g} .`;
    const fourth = lines.slice(0, BATCH).map((line) => line.replace('r/', 'fourth/'));
    fourth[9] = `<http://a.test/fourth/x> <https://schema.org/name> "no graph" .`;
    const fifth = lines.slice(0, 10).map((line) => line.replace('r/', 'fifth/'));
    const file = path.join(tempDir(), 'mixed.nq');
    fs.writeFileSync(file, [...lines, ...second, ...third, ...fourth, ...fifth].join('\n'));

    const reports: boolean[] = [];
    const problems: LineProblem[] = [];
    const found = await scanNQuadsFile(file, problems, (batch, plain) => (reports[batch] = plain), true);
    expect(problems).toEqual([]);
    expect(reports).toEqual([true, false, false, false, true]);
    expect(found.quads).toBe(lines.filter((line) => !line.startsWith('#')).length * 4 + 8);

    const read = await readAll(file, (batch) => Promise.resolve(reports[batch] ?? false));
    const parsed = await readAll(file);
    // The statements of the first and last batches are taken as they are; the others are parsed.
    const statements = lines.filter((line) => !line.startsWith('#')).length;
    expect(read.filter((item) => 'statement' in item).length).toBe(statements + 8);
    expect(statementsOf(read)).toEqual(statementsOf(parsed));

    // Scanned in two parts, each checks every other batch and between them they find what the whole scan found.
    const parts = [0, 1].map(() => ({ reports: [] as boolean[], problems: [] as LineProblem[] }));
    for (const [index, part] of parts.entries())
      await scanNQuadsFile(file, part.problems, (batch, plain) => (part.reports[batch] = plain), true, {
        index,
        of: 2,
      });
    expect(Object.keys(parts[0]?.reports ?? {})).toEqual(['0', '2', '4']);
    expect(Object.keys(parts[1]?.reports ?? {})).toEqual(['1', '3']);
    expect(Object.assign([], parts[0]?.reports, parts[1]?.reports)).toEqual(reports);
  });

  it('stops at the first quad in the default graph when the store keeps none, naming its line', async () => {
    const file = path.join(tempDir(), 'default.nq');
    fs.writeFileSync(
      file,
      [...canonical(1), `<http://a.test/x> <https://schema.org/name> "x" .`, ...canonical(2)].join('\n'),
    );
    const found = await scanNQuadsFile(file, [], () => undefined, false);
    expect(found).toEqual({ quads: 4, inDefaultGraph: 5 });
  });

  it('finds a batch holding a bad line not plain, and names the line', async () => {
    const file = path.join(tempDir(), 'bad.nq');
    fs.writeFileSync(
      file,
      [...canonical(1), `<http://a.test/%zz> <https://schema.org/name> "x" ${g} .`].join('\n'),
    );
    const reports: boolean[] = [];
    const problems: LineProblem[] = [];
    await scanNQuadsFile(file, problems, (batch, plain) => (reports[batch] = plain), true);
    expect(reports).toEqual([false]);
    expect(problems).toEqual([{ line: 5, reason: expect.stringContaining('http://a.test/%zz') }]);
  });

  it('reads lines longer than a chunk of the file, and names a bad byte in one by its line', async () => {
    const file = path.join(tempDir(), 'long.nq');
    const long = (n: number) =>
      `<http://a.test/r/long${n}> <https://schema.org/description> "${'x'.repeat(150_000 + n)}" ${g} .`;
    const lines = [...canonical(1), long(1), ...canonical(2), long(2), long(3), ...canonical(3)];
    const bytes = Buffer.from(`${lines.join('\n')}\n`);
    // A byte that is not UTF-8 in the middle of the second long line (line 10), far from any chunk's start.
    const second = bytes.indexOf(Buffer.from('long2'));
    bytes[second + 100_000] = 0xff;
    fs.writeFileSync(file, bytes);
    const problems: LineProblem[] = [];
    const items: Parsed[] = [];
    for await (const item of readNQuadsFile(file, problems)) items.push(item);
    expect(problems).toEqual([{ line: 10, reason: 'is not valid UTF-8' }]);
    const quads = items.filter((item) => 'quad' in item);
    expect(quads.map((item) => item.line)).toEqual([1, 2, 3, 5, 6, 7, 8, 11, 12, 13, 14]);
    expect(quads.map((item) => item.quad.object.value.length)).toContain(150_001);
    expect(quads.map((item) => item.quad.object.value.length)).toContain(150_003);
  });

  it('names each bad line once when scanned in parts: a line that is not UTF-8 by part 0, others by their part', async () => {
    const file = path.join(tempDir(), 'bad-parts.nq');
    const lines: string[] = [];
    for (let n = 0; lines.length < BATCH + 8; n++) lines.push(...canonical(n));
    // Line 3 is not UTF-8 (part 0 names it); line BATCH + 6, in the second batch, holds a bad IRI (part 1's).
    const bad = `<http://a.test/%zz> <https://schema.org/name> "x" ${g} .`;
    const text = [...lines.slice(0, BATCH + 5), bad, ...lines.slice(BATCH + 6)].join('\n');
    const bytes = Buffer.from(text);
    const third = bytes.indexOf('\n', bytes.indexOf('\n') + 1) + 2;
    bytes[third] = 0xff;
    fs.writeFileSync(file, bytes);
    const found = await Promise.all(
      [0, 1].map(async (index) => {
        const problems: LineProblem[] = [];
        await scanNQuadsFile(file, problems, () => undefined, true, { index, of: 2 });
        return problems.map((problem) => problem.line);
      }),
    );
    expect(found).toEqual([[3], [BATCH + 6]]);
  });
});
