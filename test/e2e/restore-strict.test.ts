import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRAPHS } from '../../src/core/ns.js';
import { runReg, tempDir, testEnv } from '../helpers.js';

describe('reg restore of a file a strict parser refuses in places', () => {
  it('exits 5 naming each bad line with its number and reason, and restores nothing', async () => {
    const env = testEnv();
    const file = path.join(tempDir(), 'strict.nq');
    const ok = `<http://a.test/x> <http://a.test/p> "ok" <${GRAPHS.local}> .\n`;
    fs.writeFileSync(
      file,
      `${ok}<http://a.test/%zz> <http://a.test/p> "x" <${GRAPHS.local}> .\n${ok}` +
        `<http://a.test/y> <http://a.test/p> <http://a.test/\u0085> <${GRAPHS.local}> .\n`,
    );
    const result = await runReg(['restore', '--nquads', file, '--json'], env);
    expect(result.code).toBe(5);
    const { error } = JSON.parse(result.stdout) as {
      error: { code: string; message: string; bad_lines: number; errors: { field: string }[] };
    };
    expect(error.code).toBe('malformed-input');
    expect(error.bad_lines).toBe(2);
    expect(error.errors).toHaveLength(2);
    expect(error.message).toMatch(
      /^2 lines of .*strict\.nq cannot be restored: .*strict\.nq:2: .*strict\.nq:4: /,
    );
    const plain = await runReg(['restore', '--nquads', file], env);
    expect(plain.stderr).toMatch(
      /strict\.nq:2: the subject .*%.*; .*strict\.nq:4: the object .*U\+0085.*nothing was restored/,
    );
    const dump = await runReg(['dump', '--graph', GRAPHS.local], env);
    expect(dump.stderr).toMatch(/holds no data/);
  });
});
