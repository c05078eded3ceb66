import { spawn } from 'node:child_process';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { BIN, runReg, startServe, testEnv } from '../helpers.js';

describe('reg serve', () => {
  it('serves probes, holds the data directory against dump and a second serve, and stops cleanly on SIGTERM', async () => {
    const env = testEnv();
    const server = await startServe(env);
    try {
      expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });

      const healthy = await runReg(['healthcheck', '--url', server.url, '--json'], env);
      expect(healthy.code, healthy.stderr).toBe(0);
      expect(JSON.parse(healthy.stdout)).toMatchObject({ ready: true, status: 200 });

      const dump = await runReg(['dump'], env);
      expect(dump.code).toBe(4);
      expect(dump.stderr).toMatch(
        new RegExp(`^reg: data directory ${env.REG_DATA_DIR} is in use by process ${server.child.pid}`),
      );
      expect(dump.stdout).toBe('');

      const restore = await runReg(['restore', '--nquads', '/dev/null'], env);
      expect(restore.code).toBe(4);

      const second = await runReg(['serve'], env);
      expect(second.code).toBe(4);
      expect(second.stderr).toMatch(/is in use by process/);
    } finally {
      const code = await server.stop('SIGTERM');
      expect(code).toBe(0);
    }
    expect(server.logs()).toMatch(/"msg":"stopped"/);
    // The lock is released: the directory can be dumped now.
    expect((await runReg(['dump', '--graph', 'urn:reg:shapes'], env)).code).toBe(0);
  });

  it('fails fast on a busy port: one line naming the cause and the fix, exit 3, no lock left behind', async () => {
    const busy = http.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const env = testEnv({ REG_LISTEN: `127.0.0.1:${port}` });
      // It exits by itself (runReg waits for the process), instead of staying up without listening.
      const result = await runReg(['serve'], env);
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(
        new RegExp(
          `^reg: cannot listen on 127\\.0\\.0\\.1:${port}: the address is already in use .*set REG_LISTEN`,
          'm',
        ),
      );
      // The data directory's lock was released with the process.
      expect((await runReg(['dump', '--graph', 'urn:reg:shapes'], env)).code).toBe(0);
    } finally {
      busy.close();
    }
  });

  it('honours a SIGTERM that arrives while it is still opening: it comes up, then stops with exit 0', async () => {
    const env = testEnv({ REG_LISTEN: '127.0.0.1:0', REG_LOG_LEVEL: 'info' });
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let logs = '';
    let sent = false;
    child.stderr.on('data', (chunk: Buffer) => {
      logs += chunk.toString();
      // The first log entry is written while the data directory opens, before the port is bound.
      if (!sent && /^\{.*\n/m.test(logs)) {
        sent = true;
        child.kill('SIGTERM');
      }
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    clearTimeout(guard);
    expect(sent).toBe(true);
    expect(signal, logs).toBeNull();
    expect(code, logs).toBe(0);
    expect(logs.split('\n').find((line) => line.startsWith('{'))).not.toMatch(/"msg":"listening"/);
    expect(logs).toMatch(/"msg":"listening"/);
    expect(logs).toMatch(/"msg":"shutting down","signal":"SIGTERM"/);
    expect(logs).toMatch(/"msg":"stopped"/);
  });

  it('stops on SIGINT too', async () => {
    const server = await startServe(testEnv());
    expect(await server.stop('SIGINT')).toBe(0);
  });

  it('healthcheck exits 6 when nothing answers', async () => {
    const result = await runReg(['healthcheck', '--url', 'http://127.0.0.1:9', '--timeout', '2'], testEnv());
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^reg: http:\/\/127\.0\.0\.1:9\/readyz did not answer/);
  });

  it('healthcheck finds the server from REG_LISTEN', async () => {
    const env = testEnv();
    const server = await startServe(env);
    try {
      const port = new URL(server.url).port;
      const result = await runReg(['healthcheck'], { REG_LISTEN: `0.0.0.0:${port}` });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^ready/);
    } finally {
      await server.stop();
    }
  });

  it('refuses bodies over REG_MAX_PAYLOAD_BYTES whether their length is declared or chunked, and reads the rest', async () => {
    const env = testEnv({ REG_MAX_PAYLOAD_BYTES: '2048' });
    const server = await startServe(env);
    const post = (body: string, chunked: boolean) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(`${server.url}/api/v1/software`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${env.REG_ROOT_TOKEN}`,
            'content-type': 'application/json',
            ...(chunked ? {} : { 'content-length': Buffer.byteLength(body) }),
          },
        });
        request.on('error', reject);
        request.on('response', (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        });
        // Written in two pieces so that, without a declared length, the body goes out chunked.
        request.write(body.slice(0, 10));
        request.end(body.slice(10));
      });
    try {
      const large = JSON.stringify({ name: 'big', description: 'x'.repeat(3000) });
      for (const chunked of [false, true]) {
        const refused = await post(large, chunked);
        expect(refused.status, refused.body).toBe(413);
        expect(JSON.parse(refused.body)).toMatchObject({
          status: 413,
          detail: expect.stringMatching(/2048 bytes/),
        });
        const accepted = await post(JSON.stringify({ name: `small-${String(chunked)}` }), chunked);
        expect(accepted.status, accepted.body).toBe(201);
      }
    } finally {
      await server.stop();
    }
  });
});
