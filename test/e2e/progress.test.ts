import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, runReg, tempDir, testEnv } from '../helpers.js';

/** Quads in the generated file: enough for a restore to run several seconds, so that progress is seen. */
const QUADS = 500_000;
const QUADS_PER_SUBJECT = 5;

/** Writes an N-Quads file of `QUADS` quads about peer stubs (a graph the restore does not check against shapes). */
function writeNQuads(file: string): void {
  const out = fs.openSync(file, 'w');
  let lines: string[] = [];
  for (let i = 0; i < QUADS; i++) {
    const subject = `http://peer.test/thing/${Math.floor(i / QUADS_PER_SUBJECT)}`;
    lines.push(
      `<${subject}> <http://peer.test/p${i % QUADS_PER_SUBJECT}> "value ${i}" <urn:reg:peer:http://peer.test/> .`,
    );
    if (lines.length === 10_000) {
      fs.writeSync(out, `${lines.join('\n')}\n`);
      lines = [];
    }
  }
  if (lines.length > 0) fs.writeSync(out, `${lines.join('\n')}\n`);
  fs.closeSync(out);
}

/** Quotes a word for the shell that `script` starts. */
function quoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs `reg <args>` on a pseudo-terminal (util-linux `script`) of 120 columns, so that stderr is a terminal; a
 * `> file` redirection sends standard output to that file instead. Returns what the terminal showed.
 */
function runOnTerminal(
  args: string[],
  env: Record<string, string>,
  stdoutFile?: string,
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, BIN, ...args].map(quoted).join(' ');
  const redirect = stdoutFile === undefined ? '' : ` > ${quoted(stdoutFile)}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', `stty cols 120 rows 40; ${command}${redirect}`, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', ...env },
    });
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, screen }));
    child.stdin.end();
  });
}

/** Terminal output as plain text: escape sequences removed, every redraw on a line of its own. */
function plainText(screen: string): string[] {
  return (
    screen
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
      .split(/[\r\n]+/)
      .map((line) => line.trim())
      .filter((line) => line !== '')
  );
}

const RATE = /\d[\d,]*\/s/;

/**
 * The progress display is the client's own, whatever the store: restoring the half-million quads these tests need
 * to outlast the 5 s line into the external store takes minutes, so those two run on the embedded store only.
 */
const external = process.env.REG_TEST_GRAPH === 'sparql';

describe('progress of long work', () => {
  let file = '';
  beforeAll(() => {
    file = path.join(tempDir(), 'big.nq');
    writeNQuads(file);
  });

  it.skipIf(external)(
    'draws a bar with percentage and rate on a terminal, then a summary of what was done and how long it took',
    async () => {
      const env = testEnv();
      const { code, screen } = await runOnTerminal(['restore', '--nquads', file], env);
      expect(code, screen).toBe(0);
      const lines = plainText(screen);
      const bars = lines.filter((line) => /^restore ━+ [\d,]+ of 500,000 quads read \(\d+%\)/.test(line));
      expect(bars.length, screen).toBeGreaterThan(1);
      expect(
        bars.some((line) => RATE.test(line) && / left$/.test(line)),
        lines.join('\n'),
      ).toBe(true);
      expect(lines).toContain(`${QUADS} new quads (read ${QUADS}; 0 reference quads skipped)`);
      expect(lines.some((line) => /^restore: 500,000 quads read in [\d.]+ (s|min)/.test(line))).toBe(true);
      expect(lines.some((line) => /^restore: written to the store in [\d.]+ (s|min)/.test(line))).toBe(true);
    },
    180_000,
  );

  it.skipIf(external)(
    'prints plain lines without a terminal (no escapes, no redraws) and the summaries',
    async () => {
      const env = testEnv();
      const result = await runReg(['restore', '--nquads', file], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${QUADS} new quads (read ${QUADS}; 0 reference quads skipped)\n`);
      const lines = result.stderr.trim().split('\n');
      // No escape sequences, no redraws: lines for a log.
      expect(result.stderr).not.toContain('\u001b');
      expect(result.stderr).not.toContain('\r');
      // Lines come every five seconds (test/unit/progress-plain.test.ts checks the cadence on a mocked clock):
      // whatever the read took, each line is one of them or a summary.
      const periodic = /^restore: [\d,]+ of 500,000 quads read \(\d+%\), [\d,]+\/s, about .+ left$/;
      const summary = /^restore: (500,000 quads read in|written to the store in) [\d.]+ (s|min)/;
      for (const line of lines) expect(periodic.test(line) || summary.test(line), line).toBe(true);
      expect(lines).toContainEqual(
        expect.stringMatching(/^restore: 500,000 quads read in [\d.]+ (s|min).* \([\d,]+\/s\)$/),
      );
      expect(lines.at(-1)).toMatch(/^restore: written to the store in [\d.]+ (s|min)/);
    },
    180_000,
  );

  it('shows nothing under --json, on a terminal or not: stderr stays empty and stdout is the JSON result', async () => {
    const small = path.join(tempDir(), 'small.nq');
    fs.writeFileSync(small, fs.readFileSync(file, 'utf8').split('\n').slice(0, 20_000).join('\n'));
    const piped = await runReg(['restore', '--nquads', small, '--json'], testEnv());
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toBe('');
    expect(JSON.parse(piped.stdout)).toMatchObject({ read: 20_000, new: 20_000 });

    const out = path.join(tempDir(), 'result.json');
    const onTerminal = await runOnTerminal(['restore', '--nquads', small, '--json'], testEnv(), out);
    expect(onTerminal.code, onTerminal.screen).toBe(0);
    // Standard output went to the file: the terminal showed stderr alone, and that was empty.
    expect(plainText(onTerminal.screen)).toEqual([]);
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toMatchObject({ read: 20_000, new: 20_000 });
  }, 180_000);

  it('keeps progress off standard output: a dump to stdout is byte for byte the N-Quads, with progress on the terminal', async () => {
    const env = testEnv();
    const small = path.join(tempDir(), 'small.nq');
    fs.writeFileSync(small, fs.readFileSync(file, 'utf8').split('\n').slice(0, 50_000).join('\n'));
    expect((await runReg(['restore', '--nquads', small], env)).code).toBe(0);

    const reference = path.join(tempDir(), 'reference.nq');
    const written = await runReg(['dump', '--output', reference, '--json'], env);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stderr).toBe('');
    const expected = fs.readFileSync(reference);
    expect(expected.toString('utf8')).toContain('<http://peer.test/thing/0> <http://peer.test/p0> "value 0"');

    const piped = await runReg(['dump'], env);
    expect(piped.code, piped.stderr).toBe(0);
    expect(Buffer.from(piped.stdout, 'utf8').equals(expected)).toBe(true);
    expect(piped.stderr).toMatch(/^dump: [\d,]+ quads \([\d.]+ [kMG]?B\) to standard output in [\d.]+ s/m);

    const out = path.join(tempDir(), 'out.nq');
    const onTerminal = await runOnTerminal(['dump'], env, out);
    expect(onTerminal.code, onTerminal.screen).toBe(0);
    expect(fs.readFileSync(out).equals(expected)).toBe(true);
    const lines = plainText(onTerminal.screen);
    // The dump knows its quad count: a bar, then the summary.
    expect(lines.some((line) => /^dump ━+ [\d,]+ of [\d,]+ quads \(\d+%\)/.test(line))).toBe(true);
    expect(lines.some((line) => /^dump: [\d,]+ quads \(.+\) to standard output in /.test(line))).toBe(true);
    expect(onTerminal.screen).not.toContain('peer.test');
  }, 180_000);
});
