import fs from 'node:fs';
import path from 'node:path';
import ox from 'oxigraph';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { MalformedInputError } from '../../src/core/errors.js';
import { GRAPHS } from '../../src/core/ns.js';
import { restoreNQuads } from '../../src/core/ops/restore.js';
import { openTestCore, tempDir } from '../helpers.js';

const line = (subject: string, object = '"v"') =>
  `<${subject}> <http://a.test/p> ${object} <${GRAPHS.local}> .\n`;

function fileOf(...parts: (string | Buffer)[]): string {
  const file = path.join(tempDir(), 'input.nq');
  fs.writeFileSync(
    file,
    Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part))),
  );
  return file;
}

async function refusal(core: Core, file: string): Promise<MalformedInputError> {
  const error = await restoreNQuads(core, file).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(MalformedInputError);
  return error as MalformedInputError;
}

/** Whether the index's own parser refuses one line. */
function indexRefuses(text: string): boolean {
  try {
    ox.parse(text, { format: 'application/n-quads' });
    return false;
  } catch {
    return true;
  }
}

let core: Core;
beforeEach(async () => {
  core = await openTestCore();
});
afterEach(async () => core.close());

describe('restore of lines a strict parser refuses', () => {
  it('names every such line with its number and reason, and restores nothing', async () => {
    const bad = [
      line('http://a.test/%zz'),
      line('http://a.test/x', '<http://a.test/\u007f>'),
      line('http://a.test/y', '"v"^^<http://a.test/\u0085>'),
      line('http://a.test/\ufffd'),
      '<http://a.test/z> <http://a.test/p> "unterminated <urn:reg:local> .\n',
    ];
    // Each of them the query index would refuse too, which is why none may be stored.
    for (const text of bad) expect(indexRefuses(text), text).toBe(true);
    const file = fileOf(
      line('http://a.test/fine'),
      '# a comment\n',
      bad[0]!,
      bad[1]!,
      Buffer.from([0x3c, 0xff, 0xfe, 0x3e, 0x0a]),
      bad[2]!,
      line('http://a.test/also-fine'),
      bad[3]!,
      bad[4]!,
    );
    const error = await refusal(core, file);
    expect(error.code).toBe('malformed-input');
    expect(error.extra.bad_lines).toBe(6);
    expect(error.errors.map((problem) => problem.field)).toEqual([
      'line 3',
      'line 4',
      'line 5',
      'line 6',
      'line 8',
      'line 9',
    ]);
    const reasons = error.errors.map((problem) => problem.message);
    expect(reasons[0]).toMatch(
      /input\.nq:3: the subject "http:\/\/a\.test\/%zz" holds a % .* two hex digits/,
    );
    expect(reasons[1]).toMatch(/:4: the object .* holds U\+007F/);
    expect(reasons[2]).toMatch(/:5: is not valid UTF-8/);
    expect(reasons[3]).toMatch(/:6: the object has the datatype .* U\+0085/);
    expect(reasons[4]).toMatch(/:8: the subject .* U\+FFFD/);
    expect(error.detail).toMatch(/^6 lines of .* cannot be restored: .*; nothing was restored$/);
    expect((await core.graph.countByKind(GRAPHS.local)).size).toBe(0);
    expect(await core.graph.readRecord(GRAPHS.local, 'http://a.test/fine')).toBeUndefined();
    expect(core.db.prepare("SELECT count(*) AS n FROM audit WHERE action = 'restore'").get()).toEqual({
      n: 0,
    });
  });

  it('lists the first 20 bad lines and counts the rest', async () => {
    const lines = Array.from({ length: 25 }, (_, at) => line(`http://a.test/${at}%`));
    const error = await refusal(core, fileOf(...lines));
    expect(error.errors).toHaveLength(20);
    expect(error.extra.bad_lines).toBe(25);
    expect(error.detail).toContain('; and 5 more; nothing was restored');
  });

  it('restores a file whose every line the index reads, characters beyond ASCII included', async () => {
    const file = fileOf(
      line('https://dé.example/r', '"smile \ud83d\ude00 ünïcode"'),
      line('urn:uuid:1', '<mailto:a@b.test>'),
    );
    const result = await restoreNQuads(core, file);
    expect(result.read).toBe(2);
    expect(await core.graph.readRecord(GRAPHS.local, 'https://dé.example/r')).toContain('smile \ud83d\ude00');
  });

  it('refuses a file large enough to be checked alongside the read as strictly, and restores it when good', async () => {
    // Over 8 MiB: the embedded store's load then takes the batches a worker thread found canonical as they are.
    const records = 7_000;
    const good: string[] = [];
    for (let at = 0; at < records; at++) {
      const subject = `http://a.test/large/${at}`;
      good.push(`# reg:record <${subject}> <${GRAPHS.local}>\n`);
      for (let k = 0; k < 8; k++) good.push(line(subject, `"${'value '.repeat(20)}${k}"`));
    }
    const bad = line('http://a.test/large/late%zz');
    const refused = await refusal(core, fileOf(...good, bad));
    expect(refused.errors).toEqual([
      { field: `line ${good.length + 1}`, message: expect.stringContaining('late%zz') },
    ]);
    expect(await core.graph.readRecord(GRAPHS.local, 'http://a.test/large/0')).toBeUndefined();
    const file = fileOf(...good);
    expect(fs.statSync(file).size).toBeGreaterThan(8 << 20);
    const result = await restoreNQuads(core, file);
    expect(result.read).toBe(records * 8);
    expect(result.records).toBe(records);
    expect(await core.graph.readRecord(GRAPHS.local, `http://a.test/large/${records - 1}`)).toContain(
      `"${'value '.repeat(20)}7"`,
    );
  });
});
