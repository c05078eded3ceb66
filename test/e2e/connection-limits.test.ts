import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, startServe, testEnv, waitFor, type ServerProcess } from '../helpers.js';

/** What became of a connection: the bytes the server sent, and whether it closed within the wait. */
interface Outcome {
  readonly text: string;
  readonly closed: boolean;
}

/** Opens a loopback connection; resolves once it is established. */
function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Collects what the server sends on `socket` until it closes the connection or `waitMs` passes. */
function outcome(socket: net.Socket, waitMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.on('error', () => undefined);
    const timer = setTimeout(() => resolve({ text, closed: false }), waitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
  });
}

/** The status and the problem body of a raw HTTP/1.1 answer. */
function answer(text: string): { status: number; type: string; problem: Record<string, unknown> } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const type = /^content-type: (.+)$/im.exec(head)?.[1] ?? '';
  return { status, type, problem: body === '' ? {} : (JSON.parse(body) as Record<string, unknown>) };
}

/** A readiness poll on a connection of its own that is closed after the answer, so it holds no slot. */
async function readyOnce(port: number): Promise<boolean> {
  const socket = await connect(port);
  socket.write('GET /readyz HTTP/1.1\r\nHost: registry.test\r\nConnection: close\r\n\r\n');
  return answer((await outcome(socket, 5000)).text).status === 200;
}

async function start(env: Record<string, string>): Promise<{ server: ServerProcess; port: number }> {
  const server = await startServe(testEnv(env), false);
  const port = Number(new URL(server.url).port);
  await waitFor(() => readyOnce(port));
  return { server, port };
}

const IDLE_MS = 2000;
const DOCUMENT = JSON.stringify({ openapi: '3.1.0', info: { title: 'slow', version: '1' }, paths: {} });

/** A loopback host that answers every request with an API description, once the idle limit has passed. */
function startSlowHost(): Promise<http.Server> {
  const host = http.createServer((_request, response) => {
    setTimeout(
      () => response.writeHead(200, { 'content-type': 'application/json' }).end(DOCUMENT),
      IDLE_MS + 1500,
    );
  });
  return new Promise((resolve) => host.listen(0, '127.0.0.1', () => resolve(host)));
}

describe('connection time limits of reg serve (limits of 1–2 s)', () => {
  let server: ServerProcess;
  let port: number;
  let host: http.Server;
  let slowHost: string;
  beforeAll(async () => {
    host = await startSlowHost();
    slowHost = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    ({ server, port } = await start({
      REG_HTTP_HEADERS_TIMEOUT: '1s',
      REG_HTTP_REQUEST_TIMEOUT: '2s',
      REG_HTTP_KEEP_ALIVE_TIMEOUT: '1s',
      REG_HTTP_IDLE_TIMEOUT: `${IDLE_MS}ms`,
      REG_API_DOC_ALLOW_PRIVATE_TARGETS: 'true',
    }));
  });
  afterAll(async () => {
    await server.stop();
    host.closeAllConnections();
    await new Promise((resolve) => host.close(resolve));
  });

  it('closes a connection that never sends a byte, without an answer', async () => {
    const result = await outcome(await connect(port), 10_000);
    expect(result).toEqual({ text: '', closed: true });
  });

  it('answers 408 to a request head that stops halfway, and closes', async () => {
    const socket = await connect(port);
    socket.write('GET /healthz HTTP/1.1\r\nHost: registry.test\r\n');
    const result = await outcome(socket, 10_000);
    expect(result.closed).toBe(true);
    const { status, type, problem } = answer(result.text);
    expect(status).toBe(408);
    expect(type).toBe('application/problem+json');
    expect(problem).toMatchObject({ code: 'request-timeout', status: 408 });
    expect(problem.detail).toContain('REG_HTTP_HEADERS_TIMEOUT');
  });

  it('answers 408 to a body that trickles in a byte at a time, and closes', async () => {
    const socket = await connect(port);
    socket.write(
      'POST /api/v1/peers/announce HTTP/1.1\r\nHost: registry.test\r\n' +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
    );
    const drip = setInterval(() => socket.writable && socket.write(' '), 300);
    const result = await outcome(socket, 15_000).finally(() => clearInterval(drip));
    expect(result.closed).toBe(true);
    const { status, type, problem } = answer(result.text);
    expect(status).toBe(408);
    expect(type).toBe('application/problem+json');
    expect(problem).toMatchObject({ code: 'request-timeout' });
    expect(problem.detail).toContain('REG_HTTP_REQUEST_TIMEOUT');
  });

  it('closes a kept-alive connection that asks nothing more after its answer', async () => {
    const socket = await connect(port);
    socket.write('GET /healthz HTTP/1.1\r\nHost: registry.test\r\n\r\n');
    // Node keeps a connection a second past the limit (1 s here), so that a request racing it is not lost.
    const result = await outcome(socket, 4500);
    expect(answer(result.text).status).toBe(200);
    expect(result.closed).toBe(true);
  });

  it('answers 431 with a problem to a request head larger than the server reads', async () => {
    const socket = await connect(port);
    socket.write(`GET /healthz HTTP/1.1\r\nHost: registry.test\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    const result = await outcome(socket, 10_000);
    const { status, type, problem } = answer(result.text);
    expect(status).toBe(431);
    expect(type).toBe('application/problem+json');
    expect(problem).toMatchObject({ code: 'headers-too-large', status: 431 });
    expect(result.closed).toBe(true);
  });

  it('does not cut a request that the registry takes longer than the idle limit to answer', async () => {
    // The API description proxy waits on a loopback host that answers after the idle limit has passed.
    const software = await fetch(`${server.url}/api/v1/software`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'slowly documented',
        api_docs: [{ url: `${slowHost}/openapi.json`, format: 'openapi' }],
      }),
    });
    expect(software.status).toBe(201);
    const { id } = (await software.json()) as { id: string };
    const socket = await connect(port);
    socket.write(
      `GET /api/v1/software/${id}/api-doc HTTP/1.1\r\nHost: registry.test\r\nConnection: close\r\n\r\n`,
    );
    const result = await outcome(socket, 15_000);
    expect(answer(result.text).status).toBe(200);
    expect(result.text.endsWith(DOCUMENT)).toBe(true);
  });

  it('logs none of these clients as a failure of the registry', () => {
    const errors = server
      .logs()
      .split('\n')
      .filter((line) => line.includes('"level":"error"'));
    expect(errors).toEqual([]);
  });
});

describe('connection cap of reg serve', () => {
  let server: ServerProcess;
  let port: number;
  beforeAll(async () => {
    ({ server, port } = await start({ REG_HTTP_MAX_CONNECTIONS: '3' }));
  });
  afterAll(async () => {
    await server.stop();
  });

  it('closes a connection past the cap at once, and takes one again when a slot frees', async () => {
    const held = await Promise.all([connect(port), connect(port), connect(port)]);
    // Each held connection is served, so the server has accepted all three.
    for (const socket of held) {
      const first = new Promise<string>((resolve) => socket.once('data', (chunk) => resolve(String(chunk))));
      socket.write('GET /healthz HTTP/1.1\r\nHost: registry.test\r\n\r\n');
      expect(await first).toMatch(/^HTTP\/1\.1 200/);
    }
    const extra = await connect(port);
    extra.write('GET /healthz HTTP/1.1\r\nHost: registry.test\r\n\r\n');
    expect(await outcome(extra, 5000)).toEqual({ text: '', closed: true });

    const freed = held.pop() as net.Socket;
    await new Promise<void>((resolve) => freed.end(resolve).once('close', () => resolve()));
    await waitFor(async () => {
      const next = await connect(port);
      next.write('GET /healthz HTTP/1.1\r\nHost: registry.test\r\nConnection: close\r\n\r\n');
      return answer((await outcome(next, 2000)).text).status === 200;
    }, 10_000);
    for (const socket of held) socket.destroy();
  });
});
