import { BadRequestError, ForbiddenError } from '../errors.js';
import type { QueryForm, SparqlResponse } from '../store/graph/types.js';
import type { Core } from '../core.js';

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

/** What a SPARQL request is, judged from its first keyword after the prologue. */
export type SparqlKind =
  | { readonly kind: 'query'; readonly form: QueryForm }
  | { readonly kind: 'update' }
  | { readonly kind: 'unknown' };

/**
 * Classifies a SPARQL request by skipping comments and PREFIX/BASE declarations (whose IRIs may contain `#`)
 * and reading the first keyword.
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
  for (;;) {
    skipSpaceAndComments();
    const word = /^[A-Za-z]+/.exec(text.slice(i))?.[0].toUpperCase() ?? '';
    if (word === 'BASE') {
      i += word.length;
      skipSpaceAndComments();
      if (!skipIri()) return { kind: 'unknown' };
      continue;
    }
    if (word === 'PREFIX') {
      i += word.length;
      skipSpaceAndComments();
      const name = /^[^\s:]*:/.exec(text.slice(i));
      if (name === null) return { kind: 'unknown' };
      i += name[0].length;
      skipSpaceAndComments();
      if (!skipIri()) return { kind: 'unknown' };
      continue;
    }
    if (QUERY_FORMS.has(word as QueryForm)) return { kind: 'query', form: word as QueryForm };
    if (UPDATE_KEYWORDS.has(word)) return { kind: 'update' };
    return { kind: 'unknown' };
  }
}

/** Answers a read-only SPARQL query; updates are refused whatever the graph backend. */
export async function runSparqlQuery(core: Core, text: string): Promise<SparqlResponse> {
  if (text.trim().length === 0)
    throw new BadRequestError('missing SPARQL query: send it as the `query` parameter');
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
  return core.graph.query(text, kind.form);
}
