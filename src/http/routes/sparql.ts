import { createHash, randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import {
  BadRequestError,
  ForbiddenError,
  NotAcceptableError,
  TooManyQueriesError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from '../../core/errors.js';
import { runSparqlQuery, sparqlQueryForm } from '../../core/discovery/sparql.js';
import {
  contentTypeOf,
  GRAPH_OFFERS,
  offersFor,
  RESULT_OFFERS,
  serialiseGraph,
  serialiseResults,
  type ResultFormat,
  type SparqlFormat,
} from '../../core/discovery/sparql-formats.js';
import { describeSparqlService } from '../../core/discovery/sparql-service.js';
import type { QueryDataset } from '../../core/store/graph/types.js';
import { preferred } from '../accept.js';
import { notModified } from '../record-conditions.js';
import { CallerGate, callerOf } from '../../core/discovery/sparql-callers.js';
import { clientAddress } from '../client-address.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';
import { problemResponse } from '../problem.js';
import type { WebPage } from '../web.js';

/** Seconds a caller refused for having too many queries under way is asked to wait. */
const RETRY_AFTER_SECONDS = 1;

/** The SPARQL 1.1 Protocol's parameters naming a dataset. */
const DATASET_PARAMS = ['default-graph-uri', 'named-graph-uri'] as const;

/**
 * The read-only SPARQL endpoint (SPARQL 1.1 Protocol): GET ?query=, POST form `query=`, or POST
 * application/sparql-query, with `default-graph-uri`/`named-graph-uri` applied; answers in the serialisation the
 * Accept header ranks highest among those the query form has (406 listing them otherwise); GET without a query is
 * the service description. A browser opening `/sparql` (with or without `?query=`) gets the web page's query
 * console, which runs the query itself. Each caller (credential, or client address without one) may have
 * REG_SPARQL_MAX_CONCURRENT queries under way. Answers carry an entity tag that holds while no commit changes the
 * data, so a client asking again with `If-None-Match` gets 304 without the query running again.
 */
export function sparqlRoutes(web?: WebPage): Mounts {
  const sparql = new Hono<AppEnv>();
  const callers = new CallerGate();
  // Commit counters start again with each process: tags from an earlier one must not match.
  const boot = randomUUID();
  sparql.get('/', async (c) => {
    if (web?.serves(c) === true) return web.respond(c, 200);
    const query = c.req.query('query');
    if (query === undefined) return describe(c);
    return answer(c, callers, boot, { query, dataset: datasetOf((name) => c.req.queries(name) ?? []) });
  });
  sparql.post('/', async (c) => answer(c, callers, boot, await readRequest(c)));
  return [['/sparql', sparql]];
}

interface SparqlRequest {
  readonly query: string;
  readonly dataset: QueryDataset | undefined;
}

const READ_ONLY = 'SPARQL updates are not accepted: /sparql is read-only; records change through the API';

async function readRequest(c: Context<AppEnv>): Promise<SparqlRequest> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams(await c.req.text());
    if (form.has('update')) throw new ForbiddenError(READ_ONLY);
    // Dataset parameters belong in the body; some clients put them in the URL, where they count as well.
    return {
      query: form.get('query') ?? '',
      dataset: datasetOf((name) => [...form.getAll(name), ...(c.req.queries(name) ?? [])]),
    };
  }
  // With the query as the body, the dataset comes in the URL's query string.
  const dataset = datasetOf((name) => c.req.queries(name) ?? []);
  if (type === 'application/sparql-query' || type === 'text/plain' || type === '')
    return { query: await c.req.text(), dataset };
  if (type === 'application/sparql-update') throw new ForbiddenError(READ_ONLY);
  throw new UnsupportedMediaTypeError(
    `send the query as application/sparql-query or a form field, not ${type}`,
  );
}

/** The dataset a request names, if it names one; each graph must be an absolute IRI. */
function datasetOf(values: (name: string) => readonly string[]): QueryDataset | undefined {
  const [defaults, named] = DATASET_PARAMS.map((name) => {
    const graphs = values(name);
    for (const graph of graphs) {
      if (!ABSOLUTE_IRI.test(graph))
        throw new BadRequestError(
          `${name} must be an absolute IRI, not ${JSON.stringify(graph.slice(0, 200))}`,
        );
    }
    return graphs;
  }) as [readonly string[], readonly string[]];
  return defaults.length === 0 && named.length === 0
    ? undefined
    : { defaultGraphs: defaults, namedGraphs: named };
}

const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|^`\\]*$/;

/** The serialisation the Accept header ranks highest among `offers`; 406 naming every one otherwise. */
function negotiate<T extends SparqlFormat>(
  c: Context<AppEnv>,
  offers: readonly (readonly [T, readonly string[]])[],
  what: string,
): T {
  const format = preferred(c.req.header('accept'), offers);
  if (format !== undefined) return format;
  throw new NotAcceptableError(
    `${what} can be had as ${offers.flatMap(([, types]) => types).join(', ')}; the Accept header asks for none of them`,
  );
}

/**
 * The service description, for a GET without a query whose Accept takes an RDF serialisation; any other such GET
 * is a request that forgot its query.
 */
async function describe(c: Context<AppEnv>): Promise<Response> {
  const format = preferred(c.req.header('accept'), GRAPH_OFFERS);
  if (format === undefined)
    throw new BadRequestError(
      'missing SPARQL query: send it as the `query` parameter (asked for with an RDF type, GET /sparql without a query is the service description)',
    );
  c.header('vary', 'Accept');
  c.header('content-type', contentTypeOf(format));
  return c.body(await describeSparqlService(c.get('core'), format));
}

async function answer(
  c: Context<AppEnv>,
  callers: CallerGate,
  boot: string,
  request: SparqlRequest,
): Promise<Response> {
  const core = c.get('core');
  const principal = c.get('principal');
  if (!core.config.sparqlPublic && !principal.authenticated) {
    throw new UnauthorizedError('this registry does not allow anonymous SPARQL queries: send a credential');
  }
  const form = sparqlQueryForm(core, request.query);
  const format = negotiate(c, offersFor(form), `the answer to a ${form} query`);
  c.header('vary', 'Accept, Authorization');
  c.header('cache-control', principal.authenticated ? 'private, no-cache' : 'no-cache');
  // Read before the query runs: an answer that saw a later commit is only ever sent under an older tag, and that
  // tag no longer matches once the later commit is counted.
  const tag = answerTag(boot, core.graph.generation, principal.authenticated, format, request);
  // If-None-Match compares weakly: the tag's opaque part is what a listed tag must name.
  if (notModified(c, tag.replace(/^W\//, ''))) {
    c.header('etag', tag);
    return c.body(null, 304);
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
    const result = await runSparqlQuery(core, request.query, principal, request.dataset);
    const body = isResultFormat(format)
      ? serialiseResults(result.body, format)
      : await serialiseGraph(result.body, format);
    c.header('content-type', contentTypeOf(format));
    c.header('etag', tag);
    return c.body(body);
  } finally {
    leave();
  }
}

function isResultFormat(format: SparqlFormat): format is ResultFormat {
  return RESULT_OFFERS.some(([offered]) => offered === format);
}

/** The entity tag of an answer: the data's commit count, who asks (budgets differ), the serialisation and request. */
function answerTag(
  boot: string,
  generation: number,
  authenticated: boolean,
  format: SparqlFormat,
  request: SparqlRequest,
): string {
  const hash = createHash('sha256');
  for (const part of [
    boot,
    String(generation),
    authenticated ? 'credential' : 'anonymous',
    format,
    JSON.stringify(request.dataset ?? null),
    request.query,
  ])
    hash.update(`${part}\0`);
  return `W/"${hash.digest('base64url').slice(0, 27)}"`;
}
