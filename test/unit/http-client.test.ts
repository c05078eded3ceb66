import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  describeRequestError,
  httpRequest,
  HttpNetworkError,
  HttpRedirectError,
  HttpRefusedError,
  HttpTimeoutError,
  HttpTooLargeError,
  type HttpRequest,
} from '../../src/core/net/http-client.js';
import type { Resolver } from '../../src/core/net/outbound-target.js';
import type * as PublicAddress from '../../src/core/net/public-address.js';

// 127.0.0.2 stands in for a public host: the checks are real for every other address, so that a public-only
// request can reach a local server and be redirected from there to the addresses it must refuse.
vi.mock('../../src/core/net/public-address.js', async (original) => {
  const actual = await original<typeof PublicAddress>();
  return {
    ...actual,
    classifyAddress: (address: string) =>
      address === '127.0.0.2' ? { public: true, kind: 'public' } : actual.classifyAddress(address),
  };
});

/** A local server recording the requests and connections it gets. */
interface Local {
  readonly port: number;
  readonly url: string;
  readonly requests: { method: string; path: string; headers: IncomingHttpHeaders; body: string }[];
  readonly connections: Socket[];
}

const servers: Server[] = [];

async function serve(handler: RequestListener, host = '127.0.0.1'): Promise<Local> {
  const requests: Local['requests'] = [];
  const connections: Socket[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      requests.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body,
      });
      handler(request, response);
    });
  });
  server.on('connection', (socket) => connections.push(socket));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { port, url: `http://${host}:${port}`, requests, connections };
}

afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

const ANY: HttpRequest = { addresses: 'any', timeoutMs: 5000, maxBytes: 1024 };

describe('the outgoing HTTP client', () => {
  it('sends the method, headers and body, and returns status, headers and body', async () => {
    const local = await serve((_request, response) =>
      response.writeHead(201, { 'content-type': 'text/plain', 'x-one': 'a' }).end('\ufeffcreated'),
    );
    const answer = await httpRequest(`${local.url}/things?x=1`, {
      ...ANY,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', accept: 'text/plain' },
      body: '{"name":"é"}',
    });
    expect(answer).toMatchObject({ status: 201, complete: true });
    expect(answer.url.href).toBe(`${local.url}/things?x=1`);
    expect(answer.headers.get('x-one')).toBe('a');
    expect(answer.text()).toBe('created');
    expect(answer.body.toString('utf8')).toBe('\ufeffcreated');
    expect(local.requests[0]).toMatchObject({ method: 'POST', path: '/things?x=1', body: '{"name":"é"}' });
    expect(local.requests[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': '13',
      'user-agent': 'reg',
    });
  });

  it('tells the caller once the whole body has left, before the answer comes', async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const local = await serve((_request, response) => {
      void answered.then(() => response.writeHead(204).end());
    });
    const body = 'x'.repeat(8 << 20);
    const events: string[] = [];
    const request = httpRequest(local.url, {
      ...ANY,
      method: 'POST',
      body,
      onSent: () => {
        events.push('sent');
        answer();
      },
    }).then(() => events.push('answered'));
    await request;
    // The server answers only once told the body has left: without the call, the request would time out.
    expect(events).toEqual(['sent', 'answered']);
    expect(local.requests[0]?.body.length).toBe(body.length);
  });

  it('fails with the system error code when nothing listens', async () => {
    const closed = await serve(() => undefined);
    servers.pop()!.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const failure = await httpRequest(closed.url, ANY).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpNetworkError);
    expect(failure).toMatchObject({ code: 'ECONNREFUSED', url: `${closed.url}/` });
    expect(describeRequestError(failure)).toMatch(/^connect ECONNREFUSED|^ECONNREFUSED/);
  });

  it('reuses connections to any server, never pinned ones', async () => {
    const local = await serve((_request, response) => response.end('ok'));
    await httpRequest(local.url, ANY);
    await httpRequest(local.url, ANY);
    expect(local.connections).toHaveLength(1);
    const pinned = { ...ANY, addresses: { allowHttp: true, allowPrivate: true } };
    await httpRequest(local.url, pinned);
    await httpRequest(local.url, pinned);
    expect(local.connections).toHaveLength(3);
  });

  it('stops when the caller’s signal does, with its reason', async () => {
    const local = await serve(() => undefined);
    const controller = new AbortController();
    const pending = httpRequest(local.url, { ...ANY, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('shutting down')), 50);
    await expect(pending).rejects.toThrow('shutting down');
  });
});

describe('time limits', () => {
  it('gives up on a server that does not answer', async () => {
    const local = await serve(() => undefined);
    const started = Date.now();
    const failure = await httpRequest(local.url, { ...ANY, timeoutMs: 200 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpTimeoutError);
    expect((failure as Error).message).toBe('no answer within 0.2 s');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('counts the body in the time limit, and keeps a truncated body as far as it came', async () => {
    const local = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('the start');
    });
    await expect(httpRequest(local.url, { ...ANY, timeoutMs: 200 })).rejects.toBeInstanceOf(HttpTimeoutError);
    const partial = await httpRequest(local.url, { ...ANY, timeoutMs: 200, overflow: 'truncate' });
    expect(partial).toMatchObject({ status: 200, complete: false });
    expect(partial.text()).toBe('the start');
  });

  it('gives up on a connection that does not open within the connect limit', async () => {
    // A TCP server that accepts and never answers the TLS handshake.
    const silent = createTcpServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const started = Date.now();
      const failure = await httpRequest(`https://127.0.0.1:${port}/`, {
        ...ANY,
        connectTimeoutMs: 200,
      }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(HttpNetworkError);
      expect(failure).toMatchObject({ code: 'ETIMEDOUT' });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      silent.close();
    }
  });
});

describe('the size cap', () => {
  const big = 'x'.repeat(4096);
  const hosts = serve((request, response) => {
    if (request.url === '/declared') response.writeHead(200, { 'content-length': big.length }).end(big);
    else if (request.url === '/streamed') {
      response.writeHead(200, { 'transfer-encoding': 'chunked' });
      for (let i = 0; i < 4; i++) response.write(big.slice(0, 1024));
      response.end();
    } else if (request.url === '/exact') response.end(big.slice(0, 1024));
    else if (request.url === '/gzip')
      response.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(big.slice(0, 2048)));
    else response.writeHead(404).end(big);
  });

  it('refuses a body larger than the cap, declared or streamed', async () => {
    const local = await hosts;
    for (const path of ['/declared', '/streamed']) {
      const failure = await httpRequest(`${local.url}${path}`, ANY).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(HttpTooLargeError);
      expect((failure as Error).message).toBe('answered more than 1024 bytes');
    }
  });

  it('passes a body of exactly the cap', async () => {
    const local = await hosts;
    expect((await httpRequest(`${local.url}/exact`, ANY)).body).toHaveLength(1024);
  });

  it('keeps the start of a larger body when truncating', async () => {
    const local = await hosts;
    const answer = await httpRequest(`${local.url}/declared`, { ...ANY, overflow: 'truncate' });
    expect(answer).toMatchObject({ status: 200, complete: false });
    expect(answer.body).toHaveLength(1024);
  });

  it('reads only the bodies asked for', async () => {
    const local = await hosts;
    const answer = await httpRequest(`${local.url}/missing`, { ...ANY, read: (status) => status < 300 });
    expect(answer).toMatchObject({ status: 404, complete: false });
    expect(answer.body).toHaveLength(0);
  });

  it('decompresses when asked, and applies the cap to the decompressed body', async () => {
    const local = await hosts;
    const answer = await httpRequest(`${local.url}/gzip`, { ...ANY, maxBytes: 4096, decompress: true });
    expect(answer.text()).toBe(big.slice(0, 2048));
    expect(local.requests.at(-1)!.headers['accept-encoding']).toBe('gzip, deflate');
    await expect(
      httpRequest(`${local.url}/gzip`, { ...ANY, maxBytes: 2047, decompress: true }),
    ).rejects.toBeInstanceOf(HttpTooLargeError);
  });
});

describe('redirects', () => {
  const everywhere = { max: 3, allow: () => true };
  const hosts = (async () => {
    const other = await serve((_request, response) => response.end('elsewhere'));
    const local = await serve((request, response) => {
      const url = request.url ?? '/';
      const redirect = (status: number, location: string) => response.writeHead(status, { location }).end();
      if (url.startsWith('/hop/')) {
        const left = Number(url.slice('/hop/'.length));
        redirect(302, left === 0 ? '/done' : `/hop/${left - 1}`);
      } else if (url === '/see-other') redirect(303, '/done');
      else if (url === '/away') redirect(307, `${other.url}/landed`);
      else if (url === '/nowhere') response.writeHead(302).end();
      else response.end(`${request.method} ${url}`);
    });
    return { local, other };
  })();

  it('are answers when the request has no redirect policy', async () => {
    const { local } = await hosts;
    const answer = await httpRequest(`${local.url}/hop/0`, ANY);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/done');
  });

  it('are followed up to the limit, and one more is refused', async () => {
    const { local } = await hosts;
    const answer = await httpRequest(`${local.url}/hop/2`, { ...ANY, redirects: everywhere });
    expect(answer.text()).toBe('GET /done');
    expect(answer.url.href).toBe(`${local.url}/done`);
    const failure = await httpRequest(`${local.url}/hop/3`, { ...ANY, redirects: everywhere }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(HttpRedirectError);
    expect(failure).toMatchObject({ reason: 'too-many', location: '/done' });
  });

  it('are not followed where the policy refuses, and the target is never asked', async () => {
    const { local, other } = await hosts;
    const sameOrigin = { max: 3, allow: (next: URL, from: URL) => next.origin === from.origin };
    const failure = await httpRequest(`${local.url}/away`, { ...ANY, redirects: sameOrigin }).catch(
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ reason: 'refused', next: new URL(`${other.url}/landed`) });
    expect(other.requests).toHaveLength(0);
  });

  it('turn a POST into a GET after a 303, and keep credentials to the same origin', async () => {
    const { local, other } = await hosts;
    const answer = await httpRequest(`${local.url}/see-other`, {
      ...ANY,
      method: 'POST',
      headers: { 'content-type': 'text/plain', authorization: 'Bearer secret' },
      body: 'payload',
      redirects: everywhere,
    });
    expect(answer.text()).toBe('GET /done');
    expect(local.requests.at(-1)!.headers).not.toHaveProperty('content-type');
    expect(local.requests.at(-1)!.headers.authorization).toBe('Bearer secret');
    await httpRequest(`${local.url}/away`, {
      ...ANY,
      headers: { authorization: 'Bearer secret' },
      redirects: everywhere,
    });
    expect(other.requests.at(-1)!.headers).not.toHaveProperty('authorization');
  });

  it('without a Location are answers', async () => {
    const { local } = await hosts;
    expect((await httpRequest(`${local.url}/nowhere`, { ...ANY, redirects: everywhere })).status).toBe(302);
  });
});

describe('address checks and pinning', () => {
  const names: Record<string, string[]> = {
    'public.test': ['127.0.0.2'],
    'loop.test': ['127.0.0.1'],
    'mixed.test': ['127.0.0.2', '10.0.0.7'],
  };
  const resolve: Resolver = (hostname) =>
    Promise.resolve((names[hostname] ?? []).map((address) => ({ address, family: 4 as const })));
  const publicOnly = { allowHttp: true, allowPrivate: false, resolve };

  it('connects to the address that was checked, with the name kept for the Host header', async () => {
    const local = await serve((request, response) => response.end(request.headers.host));
    let asked = 0;
    const answer = await httpRequest(`http://pinned.test:${local.port}/`, {
      ...ANY,
      addresses: {
        allowHttp: true,
        allowPrivate: true,
        resolve: () => {
          asked++;
          return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
        },
      },
    });
    expect(answer.text()).toBe(`pinned.test:${local.port}`);
    expect(asked).toBe(1);
  });

  it('refuses non-public targets before connecting, in every spelling', async () => {
    const loopback = await serve((_request, response) => response.end('reached'));
    const p = loopback.port;
    for (const target of [
      `http://127.0.0.1:${p}/`,
      `http://2130706433:${p}/`,
      `http://0x7f.0.0.1:${p}/`,
      `http://[::ffff:127.0.0.1]:${p}/`,
      `http://[::1]:${p}/`,
      `http://loop.test:${p}/`,
      `http://mixed.test:${p}/`,
      'http://169.254.169.254/latest',
    ]) {
      const failure = await httpRequest(target, { ...ANY, addresses: publicOnly }).catch(
        (error: unknown) => error,
      );
      expect(failure, target).toBeInstanceOf(HttpRefusedError);
      expect(failure, target).toMatchObject({ code: 'non-public' });
    }
    expect(loopback.requests).toHaveLength(0);
    await expect(
      httpRequest(`https://user:pw@public.test:${p}/`, { ...ANY, addresses: publicOnly }),
    ).rejects.toMatchObject({ code: 'credentials' });
  });

  it('checks every redirect again, and refuses one to a non-public address', async () => {
    const loopback = await serve((_request, response) => response.end('reached'));
    const p = loopback.port;
    const targets = [
      `http://127.0.0.1:${p}/`,
      `http://2130706433:${p}/`,
      `http://[::ffff:7f00:1]:${p}/`,
      `http://loop.test:${p}/`,
      'http://10.0.0.7/',
    ];
    const front = await serve((request, response) => {
      const target = targets[Number((request.url ?? '/').slice(1))];
      if (target === undefined) response.end('public');
      else response.writeHead(302, { location: target }).end();
    }, '127.0.0.2');
    const request = { ...ANY, addresses: publicOnly, redirects: { max: 3, allow: () => true } };
    expect((await httpRequest(`http://public.test:${front.port}/public`, request)).text()).toBe('public');
    for (const [n, target] of targets.entries()) {
      const failure = await httpRequest(`http://public.test:${front.port}/${n}`, request).catch(
        (error: unknown) => error,
      );
      expect(failure, target).toBeInstanceOf(HttpRefusedError);
      expect(failure, target).toMatchObject({ code: 'non-public', url: new URL(target).href });
    }
    expect(loopback.requests).toHaveLength(0);
  });
});
