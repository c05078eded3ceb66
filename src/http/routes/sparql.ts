import { Hono, type Context } from 'hono';
import { ForbiddenError, UnauthorizedError, UnsupportedMediaTypeError } from '../../core/errors.js';
import { runSparqlQuery } from '../../core/services/sparql.js';
import type { AppEnv } from '../env.js';
import type { WebPage } from '../web.js';

/**
 * The read-only SPARQL endpoint: GET ?query=, POST form `query=`, or POST application/sparql-query. A browser
 * opening `/sparql` (with or without `?query=`) gets the web page's query console, which runs the query itself.
 */
export function sparqlRoutes(web?: WebPage): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/sparql', async (c) =>
    web?.serves(c) === true ? web.respond(c, 200) : answer(c, c.req.query('query') ?? ''),
  );
  app.post('/sparql', async (c) => answer(c, await readQuery(c)));
  return app;
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

async function answer(c: Context<AppEnv>, query: string): Promise<Response> {
  const core = c.get('core');
  if (!core.config.sparqlPublic && !c.get('principal').authenticated) {
    throw new UnauthorizedError('this registry does not allow anonymous SPARQL queries: send a credential');
  }
  const result = await runSparqlQuery(core, query);
  c.header('content-type', result.contentType);
  return c.body(result.body);
}
