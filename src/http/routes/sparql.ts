import { Hono, type Context } from 'hono';
import {
  ForbiddenError,
  TooManyQueriesError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from '../../core/errors.js';
import { runSparqlQuery } from '../../core/discovery/sparql.js';
import { CallerGate, callerOf } from '../../core/discovery/sparql-callers.js';
import { clientAddress } from '../client-address.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';
import { problemResponse } from '../problem.js';
import type { WebPage } from '../web.js';

/** Seconds a caller refused for having too many queries under way is asked to wait. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The read-only SPARQL endpoint: GET ?query=, POST form `query=`, or POST application/sparql-query. A browser
 * opening `/sparql` (with or without `?query=`) gets the web page's query console, which runs the query itself.
 * Each caller (credential, or client address without one) may have REG_SPARQL_MAX_CONCURRENT queries under way.
 */
export function sparqlRoutes(web?: WebPage): Mounts {
  const sparql = new Hono<AppEnv>();
  const callers = new CallerGate();
  sparql.get('/', async (c) =>
    web?.serves(c) === true ? web.respond(c, 200) : answer(c, callers, c.req.query('query') ?? ''),
  );
  sparql.post('/', async (c) => answer(c, callers, await readQuery(c)));
  return [['/sparql', sparql]];
}

async function readQuery(c: Context<AppEnv>): Promise<string> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams(await c.req.text());
    if (form.has('update'))
      throw new ForbiddenError(
        'SPARQL updates are not accepted: /sparql is read-only; records change through the API',
      );
    return form.get('query') ?? '';
  }
  if (type === 'application/sparql-query' || type === 'text/plain' || type === '') return c.req.text();
  if (type === 'application/sparql-update') {
    throw new ForbiddenError(
      'SPARQL updates are not accepted: /sparql is read-only; records change through the API',
    );
  }
  throw new UnsupportedMediaTypeError(
    `send the query as application/sparql-query or a form field, not ${type}`,
  );
}

async function answer(c: Context<AppEnv>, callers: CallerGate, query: string): Promise<Response> {
  const core = c.get('core');
  const principal = c.get('principal');
  if (!core.config.sparqlPublic && !principal.authenticated) {
    throw new UnauthorizedError('this registry does not allow anonymous SPARQL queries: send a credential');
  }
  const caller = callerOf(principal, clientAddress(c, core.config.trustedProxies));
  let leave: () => void;
  try {
    leave = callers.enter(caller, core.config.sparql.maxConcurrent, RETRY_AFTER_SECONDS);
  } catch (error) {
    if (!(error instanceof TooManyQueriesError)) throw error;
    const refused = problemResponse(error, c.get('requestId'), core.log, c.req.path);
    refused.headers.set('retry-after', String(error.retryAfter));
    return refused;
  }
  try {
    const result = await runSparqlQuery(core, query, principal);
    c.header('content-type', result.contentType);
    return c.body(result.body);
  } finally {
    leave();
  }
}
