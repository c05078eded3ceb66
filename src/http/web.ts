import fs from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { Config } from '../core/config/index.js';
import type { Logger } from '../core/log.js';
import { preferred } from './accept.js';
import type { AppEnv } from './env.js';

/** Hashed file names under /assets/ never change content, so browsers may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Files at the top of the built page (the icon, robots.txt), served as they are; never the shell itself. */
const TOP_LEVEL_FILE = /^[\w-][\w.-]*\.(?:svg|ico|png|txt|webmanifest)$/;

/**
 * The built web page (`REG_STATIC_DIR`, by default the one inside the package): its hashed assets, and the
 * shell (`index.html`) that browsers get at record IRIs and at every other page path. The shell carries no
 * record data, so it is also what an anonymous browser gets from a private registry (the page then asks it to
 * sign in).
 */
export class WebPage {
  readonly dir: string;
  private readonly shell: string | undefined;
  private readonly securityPolicy: string;

  constructor(config: Config, log: Logger) {
    this.dir = path.resolve(config.staticDir);
    const file = path.join(this.dir, 'index.html');
    try {
      // The base IRI rides in the shell, so the page tells this registry's IRIs from foreign ones at once.
      this.shell = fs
        .readFileSync(file, 'utf8')
        .replace(
          '</head>',
          `<meta name="reg-base-iri" content="${escapeAttribute(config.baseIri)}" />\n  </head>`,
        );
    } catch {
      this.shell = undefined;
      log.warn('the web page is not built: browsers get problems instead of pages', { missing: file });
    }
    this.securityPolicy = contentSecurityPolicy(config.oidc.issuer);
  }

  get installed(): boolean {
    return this.shell !== undefined;
  }

  /** True when the page is built and the request is a browser asking for one (see `wantsPage`). */
  serves(c: Context<AppEnv>): boolean {
    return this.shell !== undefined && wantsPage(c);
  }

  /**
   * The shell with the given status and extra headers (Signposting links on record pages). It is chosen by the
   * Accept header, so it always varies on it.
   */
  respond(c: Context<AppEnv>, status: 200 | 404, headers: Record<string, string> = {}): Response {
    return c.html(this.shell ?? '', status, {
      vary: 'Accept',
      'cache-control': 'no-cache',
      'content-security-policy': this.securityPolicy,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      ...headers,
    });
  }

  /** The hashed assets and top-level files. */
  routes(): Hono<AppEnv> {
    const app = new Hono<AppEnv>();
    if (this.shell === undefined) return app;
    app.use('/assets/*', this.files(undefined, IMMUTABLE));
    const files = new Set(fs.readdirSync(this.dir).filter((name) => TOP_LEVEL_FILE.test(name)));
    app.get('/:file', async (c, next) => {
      const name = c.req.param('file');
      return files.has(name) ? this.files(name, 'public, max-age=3600')(c, next) : next();
    });
    return app;
  }

  /** Serves files of the build (precompressed when the browser takes it), with their caching stated. */
  private files(name: string | undefined, caching: string): MiddlewareHandler<AppEnv> {
    const serve = serveStatic<AppEnv>({
      root: this.dir,
      precompressed: true,
      ...(name === undefined ? {} : { path: name }),
    });
    return async (c, next) => {
      const response = await serve(c, next);
      if (response instanceof Response) {
        response.headers.set('cache-control', caching);
        response.headers.set('x-content-type-options', 'nosniff');
      }
      return response;
    };
  }
}

/**
 * True when the request is a browser asking for a page: a GET or HEAD outside the API whose Accept header
 * prefers HTML to every data format (on a tie, data wins, so `*\/*` gets data), with no extension naming
 * another representation (`/software/<id>.ttl` is data whatever the header says).
 */
function wantsPage(c: Context<AppEnv>): boolean {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return false;
  const { path: route } = c.req;
  if (route.startsWith('/api/') || route.startsWith('/admin/') || route.startsWith('/.well-known/'))
    return false;
  const last = route.slice(route.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  if (dot > 0 && last.slice(dot + 1) !== 'html') return false;
  return preferred(c.req.header('accept'), PAGE_OR_DATA) === 'page';
}

const PAGE_OR_DATA: readonly (readonly ['data' | 'page', readonly string[]])[] = [
  [
    'data',
    [
      'application/json',
      'application/problem+json',
      'text/turtle',
      'application/ld+json',
      'application/n-quads',
      'application/n-triples',
      'application/rdf+xml',
      'application/sparql-results+json',
      'application/sparql-results+xml',
      'text/csv',
      'text/tab-separated-values',
      'text/markdown',
      'application/linkset+json',
      'application/linkset',
      'text/plain',
    ],
  ],
  ['page', ['text/html', 'application/xhtml+xml']],
];

/**
 * What the page may load: its own scripts and styles only (no inline scripts, nothing from a CDN), images from
 * anywhere (README pictures), and requests to the registry itself plus the identity provider for sign-in.
 */
function contentSecurityPolicy(issuer: string | undefined): string {
  let provider = '';
  if (issuer !== undefined) {
    try {
      provider = ` ${new URL(issuer).origin}`;
    } catch {
      provider = '';
    }
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    `connect-src 'self'${provider}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${provider}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Text made safe inside HTML, attribute values included. */
export function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
