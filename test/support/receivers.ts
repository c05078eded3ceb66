import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { tempDir } from '../helpers.js';

/** One request a receiver got. */
export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** How a receiver answers a request: a status (and body, headers), or never. */
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

/** A webhook receiver on the loopback interface, recording every request it gets. */
export interface Receiver {
  readonly port: number;
  readonly received: Received[];
  /** Replaces how the receiver answers (by default 204). */
  respond: (request: Received, index: number) => Answer;
  url(path?: string, host?: string): string;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1: plain HTTP, or HTTPS with the given key and certificate. */
export async function startReceiver(tls?: { key: string; cert: string }): Promise<Receiver> {
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const receiver = {
    received,
    respond: (): Answer => ({ status: 204 }),
  } as unknown as Receiver;
  const handler: http.RequestListener = (req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      received.push(request);
      const answer = receiver.respond(request, received.length - 1);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, answer.headers).end(answer.body ?? '');
    });
  };
  const server = tls === undefined ? http.createServer(handler) : https.createServer(tls, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const scheme = tls === undefined ? 'http' : 'https';
  return Object.assign(receiver, {
    port,
    url: (pathname = '/hook', host = '127.0.0.1') => `${scheme}://${host}:${port}${pathname}`,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** A certificate authority made for one test run, and a server certificate it signed for `hostname`. */
export interface TestCa {
  readonly ca: string;
  readonly key: string;
  readonly cert: string;
}

/** Makes a test CA and a server certificate for `hostname` with openssl (ECDSA P-256, valid for two days). */
export function makeTestCa(hostname: string): TestCa {
  const dir = tempDir('reg-ca-');
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=reg test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl('req', ...ec, '-keyout', file('leaf.key'), '-out', file('leaf.csr'), '-subj', `/CN=${hostname}`);
  fs.writeFileSync(
    file('leaf.ext'),
    `subjectAltName=DNS:${hostname}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`,
  );
  openssl(
    'x509',
    '-req',
    '-in',
    file('leaf.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('leaf.pem'),
    '-days',
    '2',
    '-extfile',
    file('leaf.ext'),
  );
  const read = (name: string) => fs.readFileSync(file(name), 'utf8');
  return { ca: read('ca.pem'), key: read('leaf.key'), cert: read('leaf.pem') };
}
