import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { createApp } from '../../src/http/app.js';
import { openCore } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { runReg, startServe, tempDir, testConfig, testEnv, type ServerProcess } from '../helpers.js';
import { apiOf, artifact, type Json } from '../support/api.js';

/*
 * A backup is the whole registry: records and everything `reg dump` leaves out (tokens, subscriptions with their
 * cursors and queues, audit). It can be taken while the registry serves and writes, and a restore into an empty
 * data directory gives back a registry where every credential, cursor and audit entry is as it was.
 */

const external = process.env.REG_TEST_GRAPH === 'sparql';
const servers: ServerProcess[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

async function serve(env: Record<string, string>) {
  const server = await startServe(env);
  servers.push(server);
  const app = {
    request: (target: string, init?: RequestInit) => fetch(`${server.url}${target}`, init),
  } as unknown as ReturnType<typeof createApp>;
  return { server, api: apiOf(app) };
}

/** A registry with a producer, a reader subscribed by pull with one delivery acknowledged, and audit rows. */
async function populate(api: ReturnType<typeof apiOf>) {
  const producer = await api.deployment(undefined, 'producer');
  const reader = await api.deployment(undefined, 'reader');
  const { subscription } = await api.call(
    'POST',
    `/api/v1/instances/${reader.instance.id}/subscriptions`,
    201,
    { label: 'everything' },
    reader.token,
  );
  for (const n of [1, 2, 3])
    await api.advertise(producer.token, 'produced', `run ${n}`, [artifact(`Report ${n}`)]);
  const deliveries = `/api/v1/subscriptions/${subscription.id}/deliveries`;
  const first = await api.call('GET', `${deliveries}?limit=1`, 200, undefined, reader.token);
  expect(first.items).toHaveLength(1);
  await api.call('POST', `${deliveries}/ack`, 200, { cursor: first.next_cursor }, reader.token);
  return { producer, reader, subscription: subscription as Json, deliveries };
}

/** The settings naming the external graph store of `env`, if it has one. */
const graphSettingsOf = (env: Record<string, string>) =>
  Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('REG_SPARQL_')));

const auditOf = async (api: ReturnType<typeof apiOf>) =>
  ((await api.call('GET', '/api/v1/audit?limit=200', 200)).items as Json[]).map((entry) =>
    JSON.stringify(entry),
  );

describe('backup and restore of a whole registry', () => {
  it('restores tokens, subscription cursors, audit and records exactly; refuses what it cannot restore', async () => {
    const source = testEnv();
    const { server, api } = await serve(source);
    const { producer, reader, subscription, deliveries } = await populate(api);
    const audit = await auditOf(api);
    const pending = await api.call('GET', deliveries, 200, undefined, reader.token);
    expect(pending.items).toHaveLength(2);
    const software = await api.call('GET', `/api/v1/software/${producer.software.id}`, 200);

    // Over HTTP from a running registry: administrators only.
    expect((await api.send('GET', '/admin/backup', undefined, null)).status).toBe(401);
    expect((await api.send('GET', '/admin/backup', undefined, reader.token)).status).toBe(403);

    // The data directory is in use, so `reg backup` asks the running registry (REG_LISTEN names it).
    const file = path.join(tempDir(), 'registry.db.gz');
    const port = new URL(server.url).port;
    const taken = await runReg(['backup', '--output', file, '--json'], {
      ...source,
      REG_LISTEN: `127.0.0.1:${port}`,
    });
    expect(taken.code, taken.stderr).toBe(0);
    // Under --json stderr carries errors only: no progress.
    expect(taken.stderr).toBe('');
    const result = JSON.parse(taken.stdout) as Json;
    expect(result).toMatchObject({ file, from: 'server', bytes: fs.statSync(file).size });
    expect(result.manifest).toMatchObject({
      format: 'reg-backup',
      graph_store: { kind: external ? 'sparql' : 'embedded' },
      counts: { api_tokens: 2, subscriptions: 1 },
    });
    expect(result.manifest.counts.audit_entries).toBeGreaterThanOrEqual(audit.length);
    // No snapshot file is left in the data directory.
    expect(fs.readdirSync(source.REG_DATA_DIR!).filter((name) => name.startsWith('.backup-'))).toEqual([]);
    // Without --json the download says when the snapshot was taken and how much was received, on stderr only.
    const second = path.join(tempDir(), 'second.db.gz');
    const shown = await runReg(['backup', '--output', second], {
      ...source,
      REG_LISTEN: `127.0.0.1:${port}`,
    });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe('');
    expect(shown.stderr).toMatch(/^backup: snapshot taken in [\d.]+ s$/m);
    expect(shown.stderr).toMatch(/^backup: [\d.]+ [kMG]?B received in [\d.]+ s$/m);
    // The summary closes the progress lines (a note about the external store may follow it).
    expect(shown.stderr).toMatch(
      new RegExp(`^backup: ${fs.statSync(second).size} bytes to ${second} \\(`, 'm'),
    );
    expect(shown.stderr.indexOf('received in')).toBeLessThan(shown.stderr.indexOf(' bytes to '));
    await server.stop();

    // Stopped: the backup is taken straight from the data directory, to standard output.
    const offline = await runReg(['backup', '--output', '-'], source);
    expect(offline.code, offline.stderr).toBe(0);
    // The steps' summaries (pages copied, then compressed) come first; the last line says what was written.
    expect(offline.stderr).toMatch(/^backup: [\d,]+ pages copied in [\d.]+ s/m);
    expect(offline.stderr).toMatch(/^backup compress: .+ in [\d.]+ s/m);
    expect(offline.stderr).toMatch(/^backup: \d+ bytes to standard output \(/m);

    // An external store keeps the graph on its own server, which the restored registry goes on using.
    const target = testEnv(external ? { ...graphSettingsOf(source), REG_DATA_DIR: tempDir() } : {});
    const restored = await runReg(['restore', '--backup', file, '--json'], target);
    expect(restored.code, restored.stderr).toBe(0);
    expect((JSON.parse(restored.stdout) as Json).manifest.counts).toEqual(result.manifest.counts);
    // Into a directory that holds a registry: refused, with the directory left as it was.
    const again = await runReg(['restore', '--backup', file], target);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('already holds a registry');

    const copy = await serve(target);
    // Every token works, the cursor is where it was, the audit log is the same.
    expect((await copy.api.call('GET', '/api/v1/whoami', 200, undefined, reader.token)).authenticated).toBe(
      true,
    );
    const after = await copy.api.call('GET', deliveries, 200, undefined, reader.token);
    expect(after.items).toEqual(pending.items);
    expect(
      await copy.api.call('GET', `/api/v1/subscriptions/${subscription.id}`, 200, undefined, reader.token),
    ).toMatchObject({ subscription: { id: subscription.id, label: 'everything' } });
    expect((await auditOf(copy.api)).slice(-audit.length)).toEqual(audit);
    expect(await copy.api.call('GET', `/api/v1/software/${producer.software.id}`, 200)).toEqual(software);
    // The restored credentials write: an advertisement carries on where the source stopped.
    await copy.api.advertise(producer.token, 'produced', 'run 4', [artifact('Report 4')]);
  }, 180_000);

  it('refuses files that are not whole backups, leaving the directory empty', async () => {
    const dir = tempDir();
    const env = testEnv({ REG_DATA_DIR: dir });
    const notGzip = path.join(tempDir(), 'plain.txt');
    fs.writeFileSync(notGzip, 'not a backup\n');
    const refusedText = await runReg(['restore', '--backup', notGzip], env);
    expect(refusedText.code).not.toBe(0);
    expect(refusedText.stderr).toContain(`${notGzip} is not a reg backup`);

    // A SQLite database, compressed, but without a manifest (a copy of registry.db is not a backup).
    const bare = path.join(tempDir(), 'bare.db');
    const db = new BetterSqlite3(bare);
    db.exec('CREATE TABLE t (x)');
    db.close();
    const bareGz = `${bare}.gz`;
    fs.writeFileSync(bareGz, zlib.gzipSync(fs.readFileSync(bare)));
    const refusedBare = await runReg(['restore', '--backup', bareGz], env);
    expect(refusedBare.code).not.toBe(0);
    expect(refusedBare.stderr).toContain('holds no backup manifest');

    // A backup whose graph lives elsewhere than this directory's configuration would look for it.
    const other = testEnv();
    const core = await openCore(testConfig(other), silentLogger);
    await core.close();
    const kindFile = path.join(tempDir(), 'kind.db.gz');
    expect((await runReg(['backup', '--output', kindFile], other)).code).toBe(0);
    const otherKind = external
      ? Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('REG_SPARQL_')))
      : {
          ...env,
          REG_SPARQL_ENDPOINT: 'http://127.0.0.1:9/sparql',
          REG_SPARQL_UPDATE_ENDPOINT: 'http://127.0.0.1:9/sparql',
        };
    const refusedKind = await runReg(['restore', '--backup', kindFile], otherKind);
    expect(refusedKind.code).not.toBe(0);
    expect(refusedKind.stderr).toContain(
      external ? 'external store' : 'holds its graph (the embedded store)',
    );

    const missing = await runReg(['restore', '--backup', path.join(dir, 'nope.gz')], env);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('there is no such file');
    expect(fs.readdirSync(dir)).toEqual([]);
  }, 60_000);

  it('keeps every acknowledged write when taken while twenty clients advertise', async () => {
    const source = testEnv();
    const { server, api } = await serve(source);
    const clients = await Promise.all(
      Array.from({ length: 20 }, (_, n) => api.deployment(undefined, `client ${n}`)),
    );
    const acknowledged: { at: number; client: number; title: string }[] = [];
    let running = true;
    const load = clients.map(async ({ token }, client) => {
      for (let n = 0; running; n++) {
        const title = `client ${client} report ${n}`;
        const response = await api.send(
          'POST',
          '/api/v1/advertise/produced',
          { run: { external_key: `c${client}-r${n}` }, artifacts: [artifact(title)] },
          token,
        );
        if (response.status === 201 || response.status === 200)
          acknowledged.push({ at: Date.now(), client, title });
        else await response.text();
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const file = path.join(tempDir(), 'under-load.db.gz');
    const started = Date.now();
    const before = acknowledged.filter((write) => write.at <= started).length;
    const taken = await runReg(['backup', '--output', file], {
      ...source,
      REG_LISTEN: `127.0.0.1:${new URL(server.url).port}`,
    });
    expect(taken.code, taken.stderr).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    running = false;
    await Promise.all(load);
    await server.stop();
    expect(before).toBeGreaterThan(20);

    const target = testEnv();
    const restored = await runReg(['restore', '--backup', file], target);
    expect(restored.code, restored.stderr).toBe(0);
    // Run keys live in the operational tables, so both stores can tell which advertisements the copy holds.
    const db = new BetterSqlite3(path.join(target.REG_DATA_DIR!, 'registry.db'), { readonly: true });
    const keys = new Set(
      (db.prepare('SELECT external_key FROM run_key').all() as { external_key: string }[]).map(
        (row) => row.external_key,
      ),
    );
    db.close();
    const missing = acknowledged
      .filter((write) => write.at <= started)
      .filter((write) => !keys.has(`c${write.client}-r${write.title.split(' ').pop()}`));
    expect(missing).toEqual([]);
  }, 180_000);
});
