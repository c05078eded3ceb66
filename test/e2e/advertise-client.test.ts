import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';

let server: ServerProcess;
let token: string;
/** The client's environment: the registry, the deployment's token, no CI variables, no developer config. */
let env: Record<string, string>;
let rdfGraphType: string;

async function api(method: string, route: string, body?: unknown, bearer = ROOT_TOKEN) {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const idOf = (iri: string): string => iri.slice(iri.lastIndexOf('/') + 1);

beforeAll(async () => {
  server = await startServe(testEnv());
  const type = await api('POST', '/api/v1/types', { slug: 'rdf-graph', label: 'RDF graph' });
  rdfGraphType = type.body.iri;
  const software = await api('POST', '/api/v1/software', { name: 'ci-producer' });
  const instance = await api('POST', '/api/v1/instances', { software: software.body.id, label: 'ci-runner' });
  const minted = await api('POST', `/api/v1/instances/${instance.body.id}/tokens`, {});
  expect(minted.status).toBe(201);
  token = minted.body.token;
  env = { REG_URL: server.url, REG_TOKEN: token, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
});
afterAll(async () => {
  await server.stop();
});

/** A proxy in front of the registry that records request bodies and can answer 503 a number of times first. */
async function recordingProxy(failFirst = 0) {
  const bodies: string[] = [];
  let failures = failFirst;
  const proxy = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      if (failures > 0) {
        failures--;
        response.writeHead(503, { 'content-type': 'application/problem+json' });
        response.end(JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503 }));
        return;
      }
      void fetch(`${server.url}${request.url}`, {
        method: request.method ?? 'GET',
        headers: request.headers as Record<string, string>,
        ...(body === '' ? {} : { body }),
      }).then(async (answer) => {
        response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' });
        response.end(await answer.text());
      });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () => new Promise((resolve) => proxy.close(resolve)),
  };
}

describe('reg advertise produced', () => {
  it('creates the run and artifact once; the same call again is "already recorded"', async () => {
    const args = [
      'advertise',
      'produced',
      '--run-key',
      'job-1',
      '--status',
      'success',
      '--artifact',
      `title=Graph one,type=rdf-graph,url=https://data.example.org/one.ttl,media-type=text/turtle`,
    ];
    const first = await runReg(args, env);
    expect(first.code, first.stderr).toBe(0);
    const line = /^created: run (\S+), 1 artifact produced: (\S+)$/m.exec(first.stdout);
    expect(line, first.stdout).not.toBeNull();
    const again = await runReg([...args, '--json'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ run: line![1], artifacts: [line![2]], created: false });
    const human = await runReg(args, env);
    expect(human.stdout).toMatch(/^already recorded: run /);
    const artifact = await api('GET', `/api/v1/artifacts/${idOf(line![2]!)}`);
    expect(artifact.body.conforms_to.iri).toBe(rdfGraphType);
    expect(artifact.body.was_generated_by).toBe(line![1]);
  });

  it('takes the run key and label from GitHub Actions variables', async () => {
    const ci = { ...env, GITHUB_RUN_ID: '777', GITHUB_JOB: 'validate', GITHUB_WORKFLOW: 'Nightly' };
    const result = await runReg(['advertise', 'produced', '--title', 'CI output', '--json'], ci);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'run key gh-actions/777/validate/attempt-1 from the github-actions variables',
    );
    const run = await api('GET', `/api/v1/runs/${idOf(JSON.parse(result.stdout).run)}`);
    expect(run.body).toMatchObject({ external_key: 'gh-actions/777/validate/attempt-1', label: 'Nightly' });
  });

  it('says on stderr that every call without a run key mints a new run', async () => {
    const a = await runReg(['advertise', 'produced', '--json'], env);
    const b = await runReg(['advertise', 'produced', '--json'], env);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toContain('every call mints a new run');
    expect(JSON.parse(a.stdout).run).not.toBe(JSON.parse(b.stdout).run);
  });

  it('exits 8 with the problem detail when the registry refuses the payload, writing nothing', async () => {
    const before = (await api('GET', '/api/v1/runs')).body.total as number;
    const refused = await runReg(
      [
        'advertise',
        'produced',
        '--run-key',
        'refused-1',
        '--title',
        'Bad type',
        '--type',
        'https://example.org/no-such-type',
      ],
      env,
    );
    expect(refused.code).toBe(8);
    expect(refused.stderr).toMatch(/^reg: 422 /);
    expect(refused.stderr).toContain('conforms_to');
    expect(refused.stdout).toBe('');
    expect((await api('GET', '/api/v1/runs')).body.total).toBe(before);
    const json = await runReg(['advertise', 'produced', '--artifact', 'type=nope-not-a-type', '--json'], env);
    expect(json.code).toBe(7);
    // The type is looked up by slug or label before anything is sent: the name is unknown.
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'not-found', exit_code: 7 });
    expect(JSON.parse(json.stdout).error.message).toMatch(/nope-not-a-type/);
  });

  it('sends the SHA-256 and size of a data file, never its bytes', async () => {
    const marker = `secret-bytes-${randomBytes(16).toString('hex')}`;
    const file = path.join(tempDir(), 'result.ttl');
    fs.writeFileSync(file, `${marker}\n`.repeat(1000));
    const bytes = fs.readFileSync(file);
    const digest = createHash('sha256').update(bytes).digest();
    const proxy = await recordingProxy();
    try {
      const result = await runReg(
        [
          'advertise',
          'produced',
          '--run-key',
          'file-1',
          '--type',
          'rdf-graph',
          '--data-file',
          file,
          '--json',
        ],
        { ...env, REG_URL: proxy.url },
      );
      expect(result.code, result.stderr).toBe(0);
      const sent = proxy.bodies.find((body) => body.includes('"artifacts"')) ?? '';
      expect(sent).not.toContain(marker);
      expect(sent.length).toBeLessThan(1000);
      const artifact = await api('GET', `/api/v1/artifacts/${idOf(JSON.parse(result.stdout).artifacts[0])}`);
      expect(artifact.body.title).toBe('result.ttl');
      expect(artifact.body.content_identifiers).toEqual([`ni:///sha-256;${digest.toString('base64url')}`]);
      expect(artifact.body.distributions[0]).toMatchObject({
        byte_size: bytes.length,
        checksum: { value: digest.toString('hex') },
        availability: 'metadata-only',
      });
    } finally {
      await proxy.close();
    }
  });

  it('retries a 503 with backoff and then succeeds', async () => {
    const proxy = await recordingProxy(1);
    const failing = await recordingProxy(1);
    try {
      const result = await runReg(['advertise', 'produced', '--run-key', 'retry-1', '--title', 'Retried'], {
        ...env,
        REG_URL: proxy.url,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/503 Service Unavailable; retry 1 of 4 in 0\.5 s/);
      expect(result.stdout).toMatch(/^created: run /);
      const none = await runReg(['advertise', 'produced', '--retries', '0', '--run-key', 'retry-2'], {
        ...env,
        REG_URL: failing.url,
      });
      expect(none.code).toBe(12);
      expect(none.stderr).toMatch(/^reg: 503 /);
    } finally {
      await proxy.close();
      await failing.close();
    }
  });

  it('reads artifacts from a JSON file: a whole body, or the artifacts list with a "file" member', async () => {
    const dir = tempDir();
    const data = path.join(dir, 'data.json');
    fs.writeFileSync(data, '{"ok":true}');
    const body = path.join(dir, 'body.json');
    fs.writeFileSync(
      body,
      JSON.stringify({
        run: { external_key: 'from-file-1', status: 'running' },
        artifacts: [{ title: 'From the file', conforms_to: rdfGraphType }],
      }),
    );
    const whole = await runReg(
      ['advertise', 'produced', '--file', body, '--status', 'success', '--json'],
      env,
    );
    expect(whole.code, whole.stderr).toBe(0);
    const run = await api('GET', `/api/v1/runs/${idOf(JSON.parse(whole.stdout).run)}`);
    expect(run.body).toMatchObject({ external_key: 'from-file-1', status: 'success' });
    const list = path.join(dir, 'list.json');
    fs.writeFileSync(list, JSON.stringify([{ title: 'Listed', file: data }]));
    const listed = await runReg(
      ['advertise', 'produced', '--run-key', 'from-file-2', '--file', list, '--json'],
      env,
    );
    expect(listed.code, listed.stderr).toBe(0);
    const artifact = await api('GET', `/api/v1/artifacts/${idOf(JSON.parse(listed.stdout).artifacts[0])}`);
    expect(artifact.body.distributions[0].byte_size).toBe(11);
    const bad = await runReg(['advertise', 'produced', '--file', data], env);
    expect(bad.code).toBe(5);
  });
});

describe('reg advertise consumed', () => {
  it('records a foreign input on the same run as the output, queued for resolution', async () => {
    const foreign = 'https://other-registry.example.org/artifact/01J7ZQK8W0RXAB3M2C7YQ1V4TD';
    const consumed = await runReg(
      ['advertise', 'consumed', '--run-key', 'both-1', '--artifact-iri', foreign, '--status', 'running'],
      env,
    );
    expect(consumed.code, consumed.stderr).toBe(0);
    expect(consumed.stdout).toContain(`1 artifact consumed: ${foreign}; queued for resolution: ${foreign}`);
    const produced = await runReg(
      [
        'advertise',
        'produced',
        '--run-key',
        'both-1',
        '--title',
        'Output',
        '--derived-from',
        foreign,
        '--json',
      ],
      env,
    );
    const run = await api('GET', `/api/v1/runs/${idOf(JSON.parse(produced.stdout).run)}`);
    expect(run.body.used.map((ref: { iri: string }) => ref.iri)).toEqual([foreign]);
    expect(run.body.generated).toHaveLength(1);
  });
});
