import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  ROOT_TOKEN,
  runReg,
  startServe,
  tempDir,
  testEnv,
  type ServerProcess,
} from '../helpers.js';
import type { AddressInfo } from 'node:net';

/*
 * Advertising through an outage: calls the registry cannot take are spooled durably and the command succeeds;
 * once the registry is back, reg advertise flush records each exactly once, however often it is run.
 */

type Json = Record<string, any>;

const dataDir = tempDir('reg-spool-data-');
let port: number;
let url: string;
let server: ServerProcess | undefined;
let token: string;
let spoolType: string;

async function start(): Promise<void> {
  server = await startServe(testEnv({ REG_DATA_DIR: dataDir, REG_LISTEN: `127.0.0.1:${port}` }));
  url = server.url;
}

async function stop(): Promise<void> {
  await server?.stop();
  server = undefined;
}

async function api(method: string, route: string, body?: unknown): Promise<Json> {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as Json;
  expect(response.status, JSON.stringify(answer)).toBeLessThan(300);
  return answer;
}

const total = async (collection: string, query = ''): Promise<number> =>
  (await api('GET', `/api/v1/${collection}?limit=1${query}`)).total as number;

/** The client's environment: the registry's URL (up or not), the deployment's token, no config file. */
const clientEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  REG_URL: `http://127.0.0.1:${port}`,
  REG_TOKEN: token,
  XDG_CONFIG_HOME: tempDir('reg-xdg-'),
  HOME: tempDir('reg-home-'),
  ...extra,
});

const spooledFiles = (dir: string): string[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.json')) : [];

const artifactFlag = (title: string, type = 'http://edamontology.org/data_0006'): string =>
  `title=${title},type=${type},url=https://data.example.org/${title}.ttl`;

beforeAll(async () => {
  port = await freePort();
  await start();
  spoolType = (await api('POST', '/api/v1/types', { slug: 'spool-graph', label: 'Spool graph' }))
    .iri as string;
  const software = await api('POST', '/api/v1/software', { name: 'spooling producer' });
  const instance = await api('POST', '/api/v1/instances', { software: software.iri, label: 'spooler' });
  token = (await api('POST', `/api/v1/instances/${instance.id}/tokens`, {})).token as string;
});

afterAll(async () => {
  await stop();
});

describe('reg advertise --spool and reg advertise flush', () => {
  it('spools three calls while the registry is down, then records each exactly once', async () => {
    const spool = tempDir('reg-spool-');
    const runsBefore = await total('runs');
    const artifactsBefore = await total('artifacts');
    await stop();

    const calls = [
      ['produced', '--run-key', 'outage/1', '--artifact', artifactFlag('outage-one')],
      // A type given by slug cannot be looked up now: it is looked up when the call is flushed.
      ['produced', '--run-key', 'outage/2', '--artifact', artifactFlag('outage-two', 'spool-graph')],
      ['consumed', '--run-key', 'outage/1', '--artifact', artifactFlag('outage-input')],
    ];
    for (const [at, call] of calls.entries()) {
      const json = at === 0 ? ['--json'] : [];
      const result = await runReg(
        ['advertise', ...call, '--retries', '0', ...json],
        clientEnv({ REG_SPOOL_DIR: spool }),
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(
        /^reg: warning: .*the call was spooled to .*: send it with reg advertise flush$/m,
      );
      if (at === 0) {
        const answer = JSON.parse(result.stdout) as Json;
        expect(answer.spooled).toBe(true);
        expect(fs.existsSync(answer.file as string)).toBe(true);
      } else {
        expect(result.stdout).toMatch(/^spooled: .*\.json$/m);
      }
    }
    const files = spooledFiles(spool);
    expect(files).toHaveLength(3);
    // Nothing half-written is left, and a spooled call holds what is needed to send it again, not the token.
    expect(fs.readdirSync(spool).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const first = JSON.parse(fs.readFileSync(path.join(spool, files[0] ?? ''), 'utf8')) as Json;
    expect(first).toMatchObject({
      role: 'produced',
      endpoint: '/api/v1/advertise/produced',
      run_key: 'outage/1',
    });
    expect(first.body.run.external_key).toBe('outage/1');
    expect(JSON.stringify(first)).not.toContain(token);
    const second = JSON.parse(fs.readFileSync(path.join(spool, files[1] ?? ''), 'utf8')) as Json;
    expect(second.type_slugs).toEqual(['spool-graph']);

    // Keep a copy of the first call, as if the registry recorded it but its answer was lost.
    const lost = fs.readFileSync(path.join(spool, files[0] ?? ''));

    await start();
    const flushed = await runReg(['advertise', 'flush', '--json'], clientEnv({ REG_SPOOL_DIR: spool }));
    expect(flushed.code, flushed.stderr).toBe(0);
    const summary = JSON.parse(flushed.stdout) as Json;
    expect(summary).toMatchObject({
      found: 3,
      sent: 3,
      already_recorded: 0,
      refused: 0,
      kept: 0,
      exit_code: 0,
    });
    expect(spooledFiles(spool)).toEqual([]);
    expect(await total('runs')).toBe(runsBefore + 2);
    expect(await total('artifacts')).toBe(artifactsBefore + 3);
    const runOne = summary.calls[0].run as string;
    expect(summary.calls[2].run).toBe(runOne);
    const run = await api('GET', `/api/v1/runs/${runOne.slice(runOne.lastIndexOf('/') + 1)}`);
    expect(run.external_key).toBe('outage/1');
    expect(run.used).toHaveLength(1);
    const typedIri = summary.calls[1].artifacts[0] as string;
    const typed = await api('GET', `/api/v1/artifacts/${typedIri.slice(typedIri.lastIndexOf('/') + 1)}`);
    // Read back, the type is shown with its label; the IRI is the one the slug names.
    expect(JSON.stringify(typed.conforms_to)).toContain(JSON.stringify(spoolType));

    // A second flush has nothing to do.
    const again = await runReg(['advertise', 'flush', '--spool', spool, '--json'], clientEnv());
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ found: 0, sent: 0 });

    // The call whose answer was lost, replayed: the registry finds the run and artifact again.
    fs.writeFileSync(path.join(spool, files[0] ?? ''), lost);
    const replay = await runReg(['advertise', 'flush', '--spool', spool], clientEnv());
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toMatch(/^sent .*: already recorded: run /m);
    expect(replay.stderr).toContain('1 spooled call: 1 sent (1 already recorded), 0 refused, 0 kept');
    expect(await total('runs')).toBe(runsBefore + 2);
    expect(await total('artifacts')).toBe(artifactsBefore + 3);
  });

  it('a flush while the registry is still down keeps every call and exits 10', async () => {
    const spool = tempDir('reg-spool-');
    await stop();
    try {
      for (const key of ['down/1', 'down/2']) {
        const result = await runReg(
          [
            'advertise',
            'produced',
            '--run-key',
            key,
            '--artifact',
            artifactFlag(key.replace('/', '-')),
            '--retries',
            '0',
          ],
          clientEnv({ REG_SPOOL_DIR: spool }),
        );
        expect(result.code, result.stderr).toBe(0);
      }
      const flushed = await runReg(
        ['advertise', 'flush', '--retries', '0', '--json'],
        clientEnv({ REG_SPOOL_DIR: spool }),
      );
      expect(flushed.code).toBe(10);
      expect(JSON.parse(flushed.stdout)).toMatchObject({ found: 2, sent: 0, kept: 2, exit_code: 10 });
      expect(spooledFiles(spool)).toHaveLength(2);
    } finally {
      await start();
    }
    const flushed = await runReg(['advertise', 'flush', '--spool', spool, '--json'], clientEnv());
    expect(flushed.code, flushed.stderr).toBe(0);
    expect(JSON.parse(flushed.stdout)).toMatchObject({ sent: 2, kept: 0 });
  });

  it('a refusal is never spooled; a call refused at flush is set aside and the others are sent', async () => {
    const spool = tempDir('reg-spool-');
    const missing = 'http://registry.test/artifact/01JAAAAAAAAAAAAAAAAAAAAAAA';
    const refused = await runReg(
      ['advertise', 'consumed', '--run-key', 'refused/1', '--artifact-iri', missing, '--spool', spool],
      clientEnv(),
    );
    expect(refused.code).toBe(8);
    expect(spooledFiles(spool)).toEqual([]);

    await stop();
    try {
      for (const args of [
        ['consumed', '--run-key', 'refused/2', '--artifact-iri', missing],
        ['produced', '--run-key', 'refused/3', '--artifact', artifactFlag('after-refusal')],
      ]) {
        const result = await runReg(['advertise', ...args, '--retries', '0', '--spool', spool], clientEnv());
        expect(result.code, result.stderr).toBe(0);
      }
    } finally {
      await start();
    }
    const flushed = await runReg(['advertise', 'flush', '--spool', spool, '--json'], clientEnv());
    expect(flushed.code).toBe(8);
    const summary = JSON.parse(flushed.stdout) as Json;
    expect(summary).toMatchObject({ found: 2, sent: 1, refused: 1, kept: 0 });
    expect(summary.calls[0]).toMatchObject({ outcome: 'refused' });
    expect(spooledFiles(spool)).toEqual([]);
    const aside = spooledFiles(path.join(spool, 'refused'));
    expect(aside).toHaveLength(1);
    expect(fs.readFileSync(path.join(spool, 'refused', `${aside[0] ?? ''}.reason.txt`), 'utf8')).toContain(
      '422',
    );
  });

  it('a file that is not a spooled call is set aside; a write in progress is left alone', async () => {
    const spool = tempDir('reg-spool-');
    fs.writeFileSync(path.join(spool, '20260101T000000000Z-1-garbage.json'), '{"not": "a call"');
    fs.writeFileSync(path.join(spool, '.20260101T000000000Z-2-partial.json.tmp'), '{"format"');
    const flushed = await runReg(['advertise', 'flush', '--spool', spool, '--json'], clientEnv());
    expect(flushed.code).toBe(8);
    expect(JSON.parse(flushed.stdout)).toMatchObject({ found: 1, sent: 0, refused: 1, kept: 0 });
    expect(spooledFiles(path.join(spool, 'refused'))).toEqual(['20260101T000000000Z-1-garbage.json']);
    expect(fs.existsSync(path.join(spool, '.20260101T000000000Z-2-partial.json.tmp'))).toBe(true);
  });

  it('a registry answering 503 gets the call spooled', async () => {
    const spool = tempDir('reg-spool-');
    const failing = http.createServer((_request, response) => {
      response.writeHead(503, { 'content-type': 'application/problem+json' });
      response.end(JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503 }));
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    try {
      const { port: failingPort } = failing.address() as AddressInfo;
      const result = await runReg(
        [
          'advertise',
          'produced',
          '--run-key',
          'failing/1',
          '--artifact',
          artifactFlag('failing'),
          '--retries',
          '0',
          '--spool',
          spool,
          '--json',
        ],
        clientEnv({ REG_URL: `http://127.0.0.1:${failingPort}` }),
      );
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        spooled: true,
        reason: expect.stringContaining('503'),
      });
      expect(spooledFiles(spool)).toHaveLength(1);
    } finally {
      await new Promise((resolve) => failing.close(resolve));
    }
  });

  it('flush without a spool directory is a usage error', async () => {
    const result = await runReg(['advertise', 'flush'], clientEnv());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^reg: name the spool directory with --spool or REG_SPOOL_DIR\n$/);
  });
});
