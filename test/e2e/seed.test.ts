import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalLines, ROOT_TOKEN, runReg, startServe, tempDir, testEnv } from '../helpers.js';

const EXPECTED = `{
  "artifacts": 19,
  "instances": 5,
  "runs": 12,
  "software": 4,
  "types": 16
}
`;

/** A data directory seeded once for the tests that only read it. */
let seeded: Record<string, string>;
let seedMs: number;

beforeAll(async () => {
  seeded = testEnv();
  const started = Date.now();
  const result = await runReg(['seed'], seeded);
  seedMs = Date.now() - started;
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toBe(EXPECTED);
});

describe('reg seed', () => {
  it('loads the worked example in seconds and refuses to load it twice', async () => {
    expect(seedMs).toBeLessThan(20_000);
    const again = await runReg(['seed', '--json'], seeded);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).error).toMatchObject({ code: 'conflict' });
    expect(JSON.parse(again.stdout).error.message).toMatch(/already holds the ids-examples example/);
  });

  it('loads records without runs with --with-runs=false, and knows only ids-examples', async () => {
    const env = testEnv();
    const result = await runReg(['seed', '--from', 'ids-examples', '--with-runs=false', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      artifacts: 0,
      instances: 5,
      runs: 0,
      software: 4,
      types: 16,
    });
    const other = await runReg(['seed', '--from', 'other-examples'], testEnv());
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('ids-examples');
    const bad = await runReg(['seed', '--with-runs=maybe'], testEnv());
    expect(bad.code).toBe(2);
  });

  it('is answered by reg serve: counts, a failed run, metadata-only batch 3, the foreign input; exit 4 while served', async () => {
    const env = { ...seeded };
    const server = await startServe(env);
    try {
      const get = async (route: string) =>
        (await (await fetch(`${server.url}${route}`)).json()) as Record<string, any>;
      expect((await get('/api/v1/software')).total).toBe(4);
      expect((await get('/api/v1/instances')).total).toBe(5);
      expect((await get('/api/v1/types')).total).toBe(16);
      expect((await get('/api/v1/runs')).total).toBe(12);
      expect((await get('/api/v1/artifacts')).total).toBe(19);
      const failed = await get('/api/v1/runs?status=failed');
      expect(failed.items.map((run: Record<string, any>) => [run.instance_label, run.label])).toEqual([
        ['sulo.ids.unimaas.nl', 'validate-batch-2'],
      ]);
      const metadataOnly = await get('/api/v1/artifacts?availability=metadata-only');
      expect(metadataOnly.total).toBe(4);
      expect(metadataOnly.items.every((item: { title: string }) => item.title.includes('batch 3'))).toBe(
        true,
      );

      const shacl = (await get('/api/v1/software?q=shacl-manager')).items.find(
        (item: { name: string }) => item.name === 'shacl-manager',
      );
      expect(shacl).toMatchObject({
        license: 'https://spdx.org/licenses/Apache-2.0',
        kinds: ['service'],
        maturity: 'active',
        publisher: {
          name: 'Maastricht University — Institute of Data Science',
          identifier: 'https://ror.org/02jz4aj89',
        },
        latest_release: { version: '2.1.0' },
        instance_count: 2,
      });
      expect(shacl.topics.map((topic: { label: string }) => topic.label)).toContain(
        'computer and information sciences',
      );
      const published = Date.parse(shacl.latest_release.date_published);
      expect(Math.round((Date.now() - published) / 86_400_000)).toBeGreaterThanOrEqual(60);
      expect(Math.round((Date.now() - published) / 86_400_000)).toBeLessThanOrEqual(61);
      const firstRuns = await get('/api/v1/runs?q=validate-batch-1&limit=50');
      const foreign = 'https://reg.mumc.nl/artifact/01J7ZQK8W0RXAB3M2C7YQ1V4TD';
      const withForeign = firstRuns.items.filter(
        (run: Record<string, any>) => run.label === 'validate-batch-1',
      );
      expect(withForeign).toHaveLength(4);
      for (const run of withForeign) {
        const full = await get(`/api/v1/runs/${run.id}`);
        expect(full.used.map((ref: { iri: string }) => ref.iri)).toEqual([foreign]);
      }

      const locked = await runReg(['seed'], env);
      expect(locked.code).toBe(4);
    } finally {
      await server.stop();
    }
  });

  it('prints the lineage of a seeded report as a tree', async () => {
    const server = await startServe(seeded);
    try {
      const page = (await (await fetch(`${server.url}/api/v1/artifacts?limit=50`)).json()) as {
        items: { id: string; title: string }[];
      };
      const report = page.items.find((item) => item.title === 'Validation report — batch 2 at deployment 1');
      expect(report).toBeDefined();
      const client = { REG_URL: server.url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
      const tree = await runReg(['lineage', report!.id, '--depth', '2'], client);
      expect(tree.code, tree.stderr).toBe(0);
      const lines = tree.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe(
        `artifact "Validation report — batch 2 at deployment 1" <http://registry.test/artifact/${report!.id}>`,
      );
      expect(tree.stdout).toMatch(
        /^(\|--|`--) generated by: run "validate-batch-2" <http:\/\/registry\.test\/run\//m,
      );
      expect(tree.stdout).toMatch(/^(\|--|`--) derived from: artifact "input graph 1-2" </m);
      const json = await runReg(['lineage', report!.id, '--direction', 'up', '--json'], client);
      expect(JSON.parse(json.stdout)).toMatchObject({
        root: `http://registry.test/artifact/${report!.id}`,
        truncated: expect.any(Boolean),
      });
      // In pages smaller than the whole: the command names the next page; --all gives the same lineage as one.
      const whole = JSON.parse(
        (await runReg(['lineage', report!.id, '--depth', '3', '--json'], client)).stdout,
      ) as { nodes: { iri: string }[] };
      expect(whole.nodes.length).toBeGreaterThan(2);
      const room = String(whole.nodes.length - 1);
      const partial = await runReg(['lineage', report!.id, '--depth', '3', '--max-nodes', room], client);
      expect(partial.code, partial.stderr).toBe(0);
      expect(partial.stderr, partial.stdout).toMatch(/^partial: .* --cursor [0-9a-f-]{36} /m);
      const paged = await runReg(
        ['lineage', report!.id, '--depth', '3', '--max-nodes', '2', '--all', '--json'],
        client,
      );
      expect(paged.code, paged.stderr).toBe(0);
      const merged = JSON.parse(paged.stdout) as { nodes: { iri: string }[]; partial: boolean };
      expect(merged.partial).toBe(false);
      expect(merged.nodes.map((node) => node.iri).sort()).toEqual(whole.nodes.map((node) => node.iri).sort());
    } finally {
      await server.stop();
    }
  });

  it('round-trips: dump, restore into a fresh directory, dump again gives the same canonical N-Quads', async () => {
    const first = await runReg(['dump'], seeded);
    expect(first.code, first.stderr).toBe(0);
    const file = path.join(tempDir(), 'seeded.nq');
    fs.writeFileSync(file, first.stdout);
    const target = testEnv();
    const restored = await runReg(['restore', '--nquads', file], target);
    expect(restored.code, restored.stderr).toBe(0);
    const second = await runReg(['dump'], target);
    expect(second.code).toBe(0);
    const lines = canonicalLines(first.stdout);
    expect(lines.some((line) => line.includes('Validation report — batch 3 at deployment 4'))).toBe(true);
    expect(canonicalLines(second.stdout)).toEqual(lines);
  });
});
