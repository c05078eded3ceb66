import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Core } from '../core/core.js';
import { ConfigError } from '../core/errors.js';
import { reportForeignBase, reportRetiredCitations } from '../core/discovery/reference-data.js';
import { createApp } from './app.js';
import { applyConnectionLimits, connectionsCheckingInterval } from './connection-limits.js';

/** A listening registry server. */
export interface RunningServer {
  readonly url: string;
  /** Resolves when the query index is loaded (or has failed to load, which /readyz then reports). */
  readonly indexed: Promise<void>;
  /** Stops accepting connections, lets requests in flight finish (up to `graceMs`), then closes the core. */
  close(graceMs?: number): Promise<void>;
}

/** One sentence naming why the server could not listen and what to do about it. */
function listenFailure(error: NodeJS.ErrnoException, listen: { host: string; port: number }): ConfigError {
  const at = `${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${listen.port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return new ConfigError(
        `cannot listen on ${at}: the address is already in use (another registry or program listens there); stop it, or set REG_LISTEN to a free address`,
      );
    case 'EACCES':
      return new ConfigError(
        `cannot listen on ${at}: permission denied (ports below 1024 need privileges); set REG_LISTEN to a port above 1023`,
      );
    case 'EADDRNOTAVAIL':
      return new ConfigError(
        `cannot listen on ${at}: ${listen.host} is not an address of this machine; set REG_LISTEN to one of its addresses, or 0.0.0.0`,
      );
    default:
      return new ConfigError(`cannot listen on ${at}: ${error.message}; check REG_LISTEN`);
  }
}

/**
 * Starts serving: /healthz answers as soon as the port is bound, while the query index loads in its worker;
 * /readyz answers once it is loaded.
 */
export async function startServer(core: Core): Promise<RunningServer> {
  const app = createApp(core);
  const server = createAdaptorServer({
    fetch: app.fetch,
    hostname: core.config.listen.host,
    port: core.config.listen.port,
    serverOptions: { connectionsCheckingInterval: connectionsCheckingInterval(core.config.http) },
  }) as Server;
  applyConnectionLimits(server, core.config.http, core.log);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(core.config.listen.port, core.config.listen.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // Nothing may keep running after a failed start: the index and validation workers stop, and the data
    // directory's lock is released, so the process exits at once and a supervisor can restart it.
    await core.close();
    throw listenFailure(error as NodeJS.ErrnoException, core.config.listen);
  }
  const address = server.address() as AddressInfo;
  const url = reachableUrl(address);
  core.log.info('listening', {
    url,
    address: `${address.address}:${address.port}`,
    base_iri: core.config.baseIri,
    data_dir: core.config.dataDir,
  });

  let closing: Promise<void> | undefined;
  const indexed = (async () => {
    const started = Date.now();
    try {
      await core.graph.open();
      core.log.info('ready', { ms: Date.now() - started, triples: await core.graph.countQuads() });
      reportForeignBase(core);
      await reportRetiredCitations(core);
    } catch (error) {
      if (closing !== undefined) return;
      core.log.error('the query index could not be loaded; /readyz will fail', {
        error: (error as Error).message,
      });
    }
  })();

  const close = (graceMs = 10_000): Promise<void> => {
    closing ??= (async () => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.closeAllConnections();
          resolve();
        }, graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
      await core.close();
      await indexed;
    })();
    return closing;
  };
  return { url, indexed, close };
}

/**
 * A URL this machine reaches the server at: a wildcard listen (every interface) is reached over loopback, since
 * `http://0.0.0.0:8080` is not an address to give anyone.
 */
function reachableUrl(address: AddressInfo): string {
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  if (address.family === 'IPv6') return `http://[${wildcard ? '::1' : address.address}]:${address.port}`;
  return `http://${wildcard ? '127.0.0.1' : address.address}:${address.port}`;
}
