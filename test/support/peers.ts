import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { openCore, type Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { readConfig } from '../../src/core/config/index.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { freePort, ROOT_TOKEN, testEnv } from '../helpers.js';

/** A registry served in this process on loopback, its base IRI the URL it listens on. */
export interface LoopbackRegistry {
  readonly core: Core;
  readonly url: string;
  /** Calls its HTTP API with the root token (or none with `token: null`). */
  call(method: string, path: string, body?: unknown, token?: string | null): Promise<Response>;
  close(): Promise<void>;
}

/** Opens a registry on a fresh data directory and serves it on a free loopback port. */
export async function startLoopbackRegistry(env: Record<string, string> = {}): Promise<LoopbackRegistry> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const core = await openCore(
    readConfig(testEnv({ REG_BASE_IRI: url, REG_LISTEN: `127.0.0.1:${port}`, ...env })),
    silentLogger,
  );
  let server: RunningServer;
  try {
    server = await startServer(core);
    await server.indexed;
  } catch (error) {
    await core.close();
    throw error;
  }
  return {
    core,
    url,
    call: (method, path, body, token = ROOT_TOKEN) =>
      fetch(`${url}${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    close: () => server.close(500),
  };
}

/** A loopback HTTP server answering with `handle`; `sockets` lets a hanging server be shut down. */
export interface FakeServer {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}

/** Starts a loopback server; requests it never answers are cut when it closes. */
export async function startFakeServer(
  handle: (request: IncomingMessage, response: ServerResponse, url: string) => void,
): Promise<FakeServer> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let url = '';
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '/');
    handle(request, response, url);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The well-known description a fake registry at `url` serves. */
export function describeFake(url: string, peers: { base_iri: string; title?: string }[] = []): string {
  return JSON.stringify({
    base_iri: url,
    title: `fake registry at ${url}`,
    software_version: '0.0.0',
    peers,
  });
}

/**
 * A fake peer registry: a valid description, and `behaviour` for everything else (`hang`: never answers;
 * `garbage`: answers 200 with text that is neither JSON nor RDF).
 */
export function startFakePeer(behaviour: 'hang' | 'garbage'): Promise<FakeServer> {
  return startFakeServer((request, response, url) => {
    if (request.url === '/.well-known/reg-registry') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(describeFake(url));
      return;
    }
    if (behaviour === 'garbage')
      response.writeHead(200, { 'content-type': 'text/turtle' }).end('<<<< not at all >>>>');
    // 'hang': the request is left open until the server closes.
  });
}

/** Answers with a fixed status on every path. */
export function startStatusServer(status: number): Promise<FakeServer> {
  return startFakeServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'text/plain' }).end(`status ${status}`);
  });
}
