import { describe, expect, it } from 'vitest';
import { runReg, startServe, testEnv } from '../helpers.js';

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
});
