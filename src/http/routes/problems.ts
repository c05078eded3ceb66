import { Hono } from 'hono';
import { ERROR_CODES, isErrorCode, type ErrorCode } from '../../core/error-codes.js';
import { NotFoundError } from '../../core/errors.js';
import { PROBLEM_BASE } from '../../core/ns.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';
import { escapeAttribute } from '../web.js';

function describe(code: ErrorCode) {
  const entry = ERROR_CODES[code];
  return {
    code,
    type: `${PROBLEM_BASE}${code}`,
    status: entry.status,
    title: entry.title,
    about: entry.about,
  };
}

/** Whether the client prefers an HTML page (a browser following a problem's type) to JSON. */
function wantsHtml(accept: string | undefined): boolean {
  return accept !== undefined && /text\/html/.test(accept) && !/application\/json/.test(accept);
}

/**
 * The catalogue of error codes, public whatever REG_PUBLIC_READ says: `GET /problems` lists every code, and
 * `GET /problems/<code>` describes one (its status, title and meaning), as JSON or, for a browser, a short page.
 */
export function problemRoutes(): Mounts {
  const problems = new Hono<AppEnv>();
  problems.get('/', (c) => {
    const items = Object.keys(ERROR_CODES).map((code) => describe(code as ErrorCode));
    return c.json({ items, total: items.length });
  });
  problems.get('/:code', (c) => {
    const code = c.req.param('code');
    if (!isErrorCode(code)) throw new NotFoundError(`no error code ${code}: GET /problems lists them`);
    const described = describe(code);
    if (!wantsHtml(c.req.header('accept'))) return c.json(described);
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeAttribute(described.title)} (${code})</title></head>` +
        `<body><h1>${escapeAttribute(described.title)}</h1><p><code>${code}</code> · HTTP ${described.status}</p>` +
        `<p>${escapeAttribute(described.about)}</p><p><a href="../problems">Every error code</a></p></body></html>`,
    );
  });
  return [['/problems', problems]];
}
