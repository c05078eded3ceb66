import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCore } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { GRAPHS } from '../../src/core/ns.js';
import { appendAudit } from '../../src/core/store/audit.js';
import { factory } from '../../src/core/store/nquads.js';
import { canonicalLines, runReg, tempDir, testConfig, testEnv } from '../helpers.js';

/** Writes a few records through the core write path into a fresh data directory. */
async function populated(): Promise<Record<string, string>> {
  const env = testEnv();
  const core = await openCore(testConfig(env), silentLogger);
  const { namedNode, literal, quad } = factory;
  const local = namedNode(GRAPHS.local);
  const writes = Array.from({ length: 30 }, (_, i) => {
    const subject = `http://registry.test/software/${i}`;
    return {
      graph: GRAPHS.local,
      subject,
      kind: 'software',
      quads: [
        quad(
          namedNode(subject),
          namedNode('https://schema.org/name'),
          literal(`Tool "${i}"\nline two`),
          local,
        ),
        quad(
          namedNode(subject),
          namedNode('http://purl.org/dc/terms/description'),
          literal(`beschreibung ${i}`, 'de'),
          local,
        ),
        quad(
          namedNode(`${subject}#capability`),
          namedNode('https://w3id.org/reg/ns#produces'),
          namedNode('http://edamontology.org/data_0006'),
          local,
        ),
      ],
    };
  });
  await core.graph.commit(writes, () =>
    appendAudit(core.db, { actor: null, actorKind: 'system', action: 'test.seed', target: null }),
  );
  await core.close();
  return env;
}

describe('dump and restore', () => {
  it('round-trips: dump, restore into a fresh directory, dump again gives the same canonical N-Quads', async () => {
    const env = await populated();
    const first = await runReg(['dump'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(
      '<http://registry.test/software/7> <https://schema.org/name> "Tool \\"7\\"\\nline two" <urn:reg:local> .',
    );
    const file = path.join(tempDir(), 'backup.nq');
    fs.writeFileSync(file, first.stdout);

    const target = testEnv();
    // The catalogue the target holds before the restore (an external store may have had its bundles already).
    const held = new Set(
      canonicalLines((await runReg(['dump', '--graph', GRAPHS.catalogue], target)).stdout),
    );
    const restored = await runReg(['restore', '--nquads', file, '--json'], target);
    expect(restored.code, restored.stderr).toBe(0);
    const summary = JSON.parse(restored.stdout) as { new: number; read: number; reference: number };
    // 30 records of 3 quads, plus the load time of each bundle, taken over from the dump's catalogue.
    const loadTimes = canonicalLines(first.stdout).filter(
      (line) =>
        line.includes('<http://purl.org/dc/terms/modified>') && line.endsWith(`<${GRAPHS.catalogue}> .`),
    );
    expect(loadTimes.length).toBeGreaterThanOrEqual(6);
    const freshLoadTimes = loadTimes.filter(
      (line) => !held.has(line.replace(` <${GRAPHS.catalogue}> .`, ' .')),
    );
    expect(summary.new).toBe(90 + freshLoadTimes.length);
    expect(summary.reference).toBeGreaterThan(10_000);
    expect(summary.read).toBe(canonicalLines(first.stdout).length);

    const second = await runReg(['dump'], target);
    expect(second.code).toBe(0);
    expect(canonicalLines(second.stdout)).toEqual(canonicalLines(first.stdout));

    const again = await runReg(['restore', '--nquads', file], target);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^0 new quads/);
  });

  it('dumps one graph as N-Triples', async () => {
    const env = await populated();
    const result = await runReg(['dump', '--graph', GRAPHS.local], env);
    expect(result.code).toBe(0);
    const lines = canonicalLines(result.stdout);
    expect(lines).toHaveLength(90);
    expect(
      lines.every((line) => line.endsWith('> .') || line.endsWith('" .') || line.endsWith('@de .')),
    ).toBe(true);
    expect(result.stdout).not.toContain('<urn:reg:local> .');
    const missing = await runReg(['dump', '--graph', 'urn:nothing'], env);
    expect(missing.code).toBe(7);
    expect(missing.stderr).toMatch(/^reg: graph urn:nothing holds no data/);
  });

  it('refuses malformed input with the line number and writes nothing', async () => {
    const env = testEnv();
    const file = path.join(tempDir(), 'bad.nq');
    fs.writeFileSync(
      file,
      '<http://a.test/x> <http://a.test/p> "ok" <urn:reg:local> .\n<http://a.test/y> <http://a.test/p> "unterminated <urn:reg:local> .\n',
    );
    const result = await runReg(['restore', '--nquads', file], env);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/bad\.nq:2: .*nothing was restored/);
    const dump = await runReg(['dump', '--graph', GRAPHS.local], env);
    expect(dump.code).toBe(7); // the local graph is still empty
    expect(dump.stderr).toMatch(/holds no data/);
  });

  it('gives blank nodes IRIs under the record that refers to them', async () => {
    const env = testEnv();
    const file = path.join(tempDir(), 'blank.nq');
    fs.writeFileSync(
      file,
      '<http://a.test/r> <http://a.test/has> _:b1 <urn:reg:local> .\n_:b1 <http://a.test/v> "1" <urn:reg:local> .\n',
    );
    expect((await runReg(['restore', '--nquads', file], env)).stdout).toMatch(/^2 new quads/);
    const dump = await runReg(['dump', '--graph', GRAPHS.local], env);
    expect(dump.stdout).toMatch(/^<http:\/\/a\.test\/r#genid-[0-9a-f]{16}> <http:\/\/a\.test\/v> "1" \.$/m);
    expect((await runReg(['restore', '--nquads', file], env)).stdout).toMatch(/^0 new quads/);
  });

  it('refuses a missing file', async () => {
    const result = await runReg(['restore', '--nquads', '/nonexistent/file.nq'], testEnv());
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/no such file/);
  });
});
