import type { SparqlBudget, SparqlLimits } from '../config/index.js';
import { BadRequestError, FederatedQueryError, ForbiddenError, QueryBoundError } from '../errors.js';
import type { QueryDataset, QueryForm, SparqlResponse } from '../store/graph/types.js';
import type { Core } from '../core.js';
import { limitSolutions, scanQuery } from './sparql-scan.js';

const QUERY_FORMS = new Set<QueryForm>(['SELECT', 'ASK', 'CONSTRUCT', 'DESCRIBE']);
const UPDATE_KEYWORDS = new Set([
  'INSERT',
  'DELETE',
  'LOAD',
  'CLEAR',
  'CREATE',
  'DROP',
  'COPY',
  'MOVE',
  'ADD',
  'WITH',
]);
const KEYWORD = /[A-Za-z]+/y;
const PREFIX_NAME = /[^\s:]*:/y;

/** What a SPARQL request is, judged from its first keyword after the prologue. */
export type SparqlKind =
  | { readonly kind: 'query'; readonly form: QueryForm }
  | { readonly kind: 'update' }
  | { readonly kind: 'unknown' };

/**
 * Classifies a SPARQL request by skipping comments and PREFIX/BASE declarations (whose IRIs may contain `#`)
 * and reading the first keyword. Sticky patterns read in place: no copy of the rest of the text per declaration.
 */
export function classifySparql(text: string): SparqlKind {
  let i = 0;
  const skipSpaceAndComments = (): void => {
    for (;;) {
      while (i < text.length && /\s/.test(text.charAt(i))) i++;
      if (text.charAt(i) !== '#') return;
      while (i < text.length && text.charAt(i) !== '\n') i++;
    }
  };
  const skipIri = (): boolean => {
    if (text.charAt(i) !== '<') return false;
    const end = text.indexOf('>', i);
    if (end < 0) return false;
    i = end + 1;
    return true;
  };
  const read = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = i;
    return pattern.exec(text)?.[0];
  };
  for (;;) {
    skipSpaceAndComments();
    const word = read(KEYWORD)?.toUpperCase() ?? '';
    if (word === 'BASE') {
      i += word.length;
      skipSpaceAndComments();
      if (!skipIri()) return { kind: 'unknown' };
      continue;
    }
    if (word === 'PREFIX') {
      i += word.length;
      skipSpaceAndComments();
      const name = read(PREFIX_NAME);
      if (name === undefined) return { kind: 'unknown' };
      i += name.length;
      skipSpaceAndComments();
      if (!skipIri()) return { kind: 'unknown' };
      continue;
    }
    if (QUERY_FORMS.has(word as QueryForm)) return { kind: 'query', form: word as QueryForm };
    if (UPDATE_KEYWORDS.has(word)) return { kind: 'update' };
    return { kind: 'unknown' };
  }
}

/** Refuses a query text longer than /sparql accepts; checked before anything else reads the text. */
function checkLength(text: string, limits: SparqlLimits): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxQueryBytes) {
    throw new QueryBoundError(
      'query-too-long',
      `the query is ${bytes} bytes long, more than the ${limits.maxQueryBytes} this endpoint accepts (REG_SPARQL_MAX_QUERY_BYTES)`,
      limits.maxQueryBytes,
      'REG_SPARQL_MAX_QUERY_BYTES',
    );
  }
}

/**
 * Checks a query against the bounds of /sparql before any engine sees it: its nesting, its number of syntax
 * elements, and SERVICE (federated query is not offered: an embedded index cannot, and an external server would
 * fetch whatever URL a client names). Returns the query to run: with a LIMIT of one solution more than `maxRows`
 * where a larger answer could come back, so that the store can tell an answer that is too long.
 */
export function boundQuery(text: string, form: QueryForm, limits: SparqlLimits, maxRows: number): string {
  checkLength(text, limits);
  const shape = scanQuery(text);
  if (shape.service) throw new FederatedQueryError();
  if (shape.depth > limits.maxDepth) {
    throw new QueryBoundError(
      'query-too-deep',
      `the query nests groups, brackets or parentheses ${shape.depth} levels deep, more than the ${limits.maxDepth} this endpoint accepts (REG_SPARQL_MAX_DEPTH)`,
      limits.maxDepth,
      'REG_SPARQL_MAX_DEPTH',
    );
  }
  if (shape.tokens > limits.maxTokens) {
    throw new QueryBoundError(
      'query-too-complex',
      `the query has ${shape.tokens} syntax elements (terms, keywords, operators; its prefixes and VALUES data not counted), more than the ${limits.maxTokens} this endpoint accepts (REG_SPARQL_MAX_TOKENS)`,
      limits.maxTokens,
      'REG_SPARQL_MAX_TOKENS',
    );
  }
  if (form === 'ASK') return text;
  // A SELECT asks for one solution more than allowed, to tell a long answer; a graph is built from at most
  // `maxRows` solutions.
  return limitSolutions(text, shape, form === 'SELECT' ? maxRows + 1 : maxRows);
}

/** The budget of a caller: a credential gets the administrator's, anonymous callers their own smaller one. */
export function budgetOf(limits: SparqlLimits, authenticated: boolean): SparqlBudget {
  return authenticated ? limits.credentialed : limits.anonymous;
}

/**
 * The form of a read-only SPARQL query, checked before anything runs it: empty text, updates and text that is no
 * query are refused here, whatever the graph backend.
 */
export function sparqlQueryForm(core: Core, text: string): QueryForm {
  if (text.trim().length === 0)
    throw new BadRequestError('missing SPARQL query: send it as the `query` parameter');
  checkLength(text, core.config.sparql);
  const kind = classifySparql(text);
  if (kind.kind === 'update') {
    throw new ForbiddenError(
      'SPARQL updates are not accepted: /sparql is read-only; records change through the API',
    );
  }
  if (kind.kind === 'unknown') {
    throw new BadRequestError(
      'SPARQL syntax error: expected SELECT, ASK, CONSTRUCT or DESCRIBE after the prologue',
    );
  }
  return kind.form;
}

/**
 * Answers a read-only SPARQL query within the caller's budget, against the union of every graph or the dataset
 * the request named: SPARQL JSON results for SELECT and ASK, Turtle for CONSTRUCT and DESCRIBE.
 */
export async function runSparqlQuery(
  core: Core,
  text: string,
  caller: { readonly authenticated: boolean },
  dataset?: QueryDataset,
): Promise<SparqlResponse & { readonly form: QueryForm }> {
  const form = sparqlQueryForm(core, text);
  const limits = core.config.sparql;
  const budget = budgetOf(limits, caller.authenticated);
  const query = boundQuery(text, form, limits, budget.maxRows);
  return { ...(await core.graph.query(query, form, budget, dataset)), form };
}
