import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/core/config/index.js';
import { openCore } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { GRAPHS } from '../../src/core/ns.js';
import { ROOT_TOKEN, startServe, testEnv } from '../helpers.js';

/*
 * kill -9 while many clients advertise at once: after a restart every acknowledged call's run and artifact are
 * present exactly once, with their keys and claims, and nothing unacknowledged is half-present.
 */

interface Ack {
  readonly key: string;
  readonly run: string;
  readonly artifact: string;
}

const CLIENTS = 10;

describe('crash safety of advertising', () => {
  it('keeps every acknowledged advertisement exactly once after kill -9 under concurrent load', async () => {
    const env = testEnv();
    const server = await startServe(env);
    const root = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
    const post = async (path: string, body: unknown, headers = root) =>
      (await (
        await fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
      ).json()) as Record<string, any>;
    const software = await post('/api/v1/software', { name: 'crash' });
    const instance = await post('/api/v1/instances', { software: software.id, label: 'crash' });
    const token = (await post(`/api/v1/instances/${instance.id}/tokens`, {})).token as string;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const acks: Ack[] = [];
    let stop = false;
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const key = `client-${n}/job-${i}`;
        try {
          const body = await post(
            '/api/v1/advertise/produced',
            {
              run: { external_key: key },
              artifacts: [{ title: `output ${n}.${i}`, conforms_to: 'http://edamontology.org/data_0006' }],
            },
            headers,
          );
          if (typeof body.run === 'string')
            acks.push({ key, run: body.run, artifact: body.artifacts[0] as string });
        } catch {
          return; // the server is gone
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));
    while (acks.length < 150) await new Promise((resolve) => setTimeout(resolve, 20));
    server.child.kill('SIGKILL');
    stop = true;
    await Promise.all(clients);
    expect(await server.exited).toBeNull();

    const core = await openCore(readConfig({ ...env, REG_LISTEN: '127.0.0.1:0' }), silentLogger, {
      index: true,
    });
    try {
      await core.graph.open();
      for (const ack of acks) {
        const runs = await core.graph.select(
          `SELECT ?r WHERE { GRAPH <${GRAPHS.local}> { ?r <http://purl.org/dc/terms/identifier> "${ack.key}" ; a <http://www.w3.org/ns/prov#Activity> } }`,
        );
        expect(
          runs.map((row) => row.r!.value),
          ack.key,
        ).toEqual([ack.run]);
        const produced = await core.graph.select(
          `SELECT ?a WHERE { GRAPH <${GRAPHS.local}> { ?a <http://www.w3.org/ns/prov#wasGeneratedBy> <${ack.run}> } }`,
        );
        expect(
          produced.map((row) => row.a!.value),
          ack.key,
        ).toEqual([ack.artifact]);
        const claims = core.db
          .prepare('SELECT count(*) AS n FROM run_artifact WHERE run = ? AND artifact = ?')
          .get(ack.run, ack.artifact) as { n: number };
        expect(claims.n).toBe(1);
      }
      // Nothing half-written: every stored run has its key row and its claim, and every claim its records.
      const rows = core.db.prepare('SELECT run, artifact FROM run_artifact').all() as {
        run: string;
        artifact: string;
      }[];
      for (const row of rows) {
        expect(await core.graph.readRecord(GRAPHS.local, row.run), row.run).toBeDefined();
        expect(await core.graph.readRecord(GRAPHS.local, row.artifact), row.artifact).toBeDefined();
      }
      const keys = core.db.prepare('SELECT count(*) AS n FROM run_key').get() as { n: number };
      expect(keys.n).toBe(rows.length);
      expect(rows.length).toBeGreaterThanOrEqual(acks.length);
    } finally {
      await core.close();
    }
  });
});
