/**
 * The SPARQL the registry sends to an external graph store, checked against the SPARQL 1.1 grammar: every query
 * and update of its own that a registry on a test's Virtuoso issued (its REG_SPARQL_LOG) is parsed by sparqljs, a
 * strict SPARQL 1.1 parser with no extensions switched on, so vendor syntax (Virtuoso's DEFINE, bif:, pragmas,
 * SPARQL-star, …) fails the test that caused it.
 */
import fs from 'node:fs';
import sparqljs from 'sparqljs';

/** One line of a REG_SPARQL_LOG file. */
export interface LoggedRequest {
  readonly at: string;
  /** `graph-store`: a Graph Store Protocol POST of triples (logged as a summary), not SPARQL text. */
  readonly kind: 'query' | 'update' | 'graph-store';
  /** `client` for a caller's query passed on from /sparql as written, `registry` for the registry's own. */
  readonly origin: 'registry' | 'client';
  readonly ms: number;
  readonly error?: string;
  readonly text: string;
}

/** The requests a REG_SPARQL_LOG file holds, oldest first; none when the file does not exist. */
export function readSparqlLog(file: string): LoggedRequest[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LoggedRequest);
}

/** What is wrong with a request's text as SPARQL 1.1, or undefined when it parses as the kind it was sent as. */
export function nonStandard(
  request: Pick<LoggedRequest, 'text'> & { readonly kind: 'query' | 'update' },
): string | undefined {
  let parsed: sparqljs.SparqlQuery;
  try {
    parsed = new sparqljs.Parser().parse(request.text);
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
  const kind = parsed.type === 'update' ? 'update' : 'query';
  return kind === request.kind
    ? undefined
    : `sent as ${article(request.kind)} but parses as ${article(kind)}`;
}

/**
 * The registry's own requests in a log that are not SPARQL 1.1, each as one line naming the problem and the start
 * of the text. Queries callers sent to /sparql are passed on as they wrote them (tests send broken ones on
 * purpose), so they are not the registry's to answer for.
 */
export function strictSparqlFailures(file: string): string[] {
  return readSparqlLog(file).flatMap((request) => {
    if (request.origin === 'client' || request.kind === 'graph-store') return [];
    const problem = nonStandard({ kind: request.kind, text: request.text });
    return problem === undefined
      ? []
      : [`${request.kind} not SPARQL 1.1 (${problem}): ${request.text.replace(/\s+/g, ' ').slice(0, 300)}`];
  });
}

const article = (kind: 'query' | 'update'): string => (kind === 'query' ? 'a query' : 'an update');
