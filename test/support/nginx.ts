/**
 * A real nginx (Debian's nginx-light) in front of a Virtuoso, on a loopback port, checking the credentials itself:
 * `/bearer/sparql` wants `Authorization: Bearer <token>`, `/basic/sparql` a Basic username and password (an
 * RFC 2307 {SSHA} entry in its user file). Both forward to Virtuoso's anonymous /sparql endpoint, whose SPARQL
 * user the test template granted SPARQL_UPDATE, so the proxy is the only gate, as in a deployment that puts one
 * in front of its store.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from '../helpers.js';
import { freePortsSync } from './virtuoso.js';

/** The nginx binary of nginx-light. */
export const NGINX_BIN = '/usr/sbin/nginx';

/** A running nginx proxy. */
export interface NginxProxy {
  readonly bearerUrl: string;
  /** Like `bearerUrl`, at another path: an update endpoint apart from the query endpoint. */
  readonly bearerUpdateUrl: string;
  readonly basicUrl: string;
  /** The requests served so far, one `METHOD path` line each. */
  requests(): string[];
  stop(): Promise<void>;
}

/** Credentials the proxy accepts. */
export interface ProxyCredentials {
  readonly token: string;
  readonly username: string;
  readonly password: string;
}

function sshaEntry(username: string, password: string): string {
  const salt = randomBytes(8);
  const digest = createHash('sha1').update(password).update(salt).digest();
  return `${username}:{SSHA}${Buffer.concat([digest, salt]).toString('base64')}\n`;
}

/** Starts nginx in front of the Virtuoso HTTP port `upstreamPort`. */
export async function startNginx(upstreamPort: number, credentials: ProxyCredentials): Promise<NginxProxy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reg-nginx-'));
  fs.chmodSync(dir, 0o755);
  const [port = 0] = freePortsSync(1);
  const users = path.join(dir, 'htpasswd');
  fs.writeFileSync(users, sshaEntry(credentials.username, credentials.password), { mode: 0o644 });
  const upstream = `http://127.0.0.1:${upstreamPort}/sparql`;
  const temp = (name: string) => path.join(dir, name);
  const config = `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${temp('nginx.pid')};
error_log ${temp('error.log')} warn;
events { worker_connections 64; }
http {
  log_format lines '$request_method $uri';
  access_log ${temp('access.log')} lines;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  client_max_body_size 16m;
  proxy_http_version 1.1;
  proxy_set_header Connection "";
  server {
    listen 127.0.0.1:${port};
    location = /bearer/sparql {
      if ($http_authorization != "Bearer ${credentials.token}") { return 401; }
      proxy_set_header Authorization "";
      proxy_pass ${upstream};
    }
    location = /bearer/update {
      if ($http_authorization != "Bearer ${credentials.token}") { return 401; }
      proxy_set_header Authorization "";
      proxy_pass ${upstream};
    }
    location = /basic/sparql {
      auth_basic "SPARQL";
      auth_basic_user_file ${users};
      proxy_set_header Authorization "";
      proxy_pass ${upstream};
    }
  }
}
`;
  const file = temp('nginx.conf');
  fs.writeFileSync(file, config);
  const child: ChildProcess = spawn(
    NGINX_BIN,
    ['-p', dir, '-c', file, '-e', temp('error.log'), '-g', 'daemon off;'],
    {
      stdio: 'ignore',
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      }),
    15_000,
  ).catch(() => {
    throw new Error(
      `nginx did not start:\n${fs.existsSync(temp('error.log')) ? fs.readFileSync(temp('error.log'), 'utf8') : ''}`,
    );
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    bearerUrl: `${base}/bearer/sparql`,
    bearerUpdateUrl: `${base}/bearer/update`,
    basicUrl: `${base}/basic/sparql`,
    requests: () => {
      const file = temp('access.log');
      return fs.existsSync(file)
        ? fs
            .readFileSync(file, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
        : [];
    },
    stop: async () => {
      process.off('exit', kill);
      child.kill('SIGQUIT');
      const timer = setTimeout(kill, 5000);
      await exited;
      clearTimeout(timer);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
