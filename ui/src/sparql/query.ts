/**
 * Sends a query to the registry's read-only endpoint (`POST /sparql`, `application/sparql-query`) with the
 * signed-in bearer, and reads the answer: SPARQL JSON results for SELECT and ASK, Turtle for CONSTRUCT and
 * DESCRIBE. A refusal throws an `ApiError` carrying the registry's problem detail.
 */
import { ApiError, type Problem } from '../api';
import { session } from '../session';

/** One value of a SELECT solution, as SPARQL JSON results give it. */
export interface Term {
  readonly type: 'uri' | 'literal' | 'bnode' | 'typed-literal' | 'triple';
  readonly value: string;
  readonly datatype?: string;
  readonly 'xml:lang'?: string;
}

export type Solution = Readonly<Record<string, Term | undefined>>;

export type Outcome =
  | {
      readonly kind: 'select';
      readonly vars: readonly string[];
      readonly rows: readonly Solution[];
      readonly body: string;
      readonly ms: number;
    }
  | { readonly kind: 'ask'; readonly value: boolean; readonly body: string; readonly ms: number }
  | { readonly kind: 'graph'; readonly turtle: string; readonly ms: number };

interface ResultsJson {
  readonly head?: { readonly vars?: readonly string[] };
  readonly boolean?: boolean;
  readonly results?: { readonly bindings?: readonly Solution[] };
}

async function problemOf(response: Response): Promise<Partial<Problem>> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as Partial<Problem>;
    if (typeof body === 'object' && body !== null) return body;
  } catch {
    // not a problem document: keep the text
  }
  return {
    status: response.status,
    title: response.statusText || 'Error',
    detail: text.trim() === '' ? `the registry answered ${response.status}` : text.trim().slice(0, 500),
  };
}

/** Runs one query; `signal` cancels it. */
export async function runQuery(query: string, signal?: AbortSignal): Promise<Outcome> {
  const headers: Record<string, string> = {
    'content-type': 'application/sparql-query',
    accept: 'application/sparql-results+json, text/turtle;q=0.9',
  };
  const token = session.token();
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const started = performance.now();
  let response: Response;
  try {
    response = await fetch('/sparql', {
      method: 'POST',
      headers,
      body: query,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, { title: 'Network error', detail: 'the registry could not be reached' });
  }
  if (response.status === 401 && token !== undefined) session.expired();
  if (!response.ok) {
    const problem = await problemOf(response);
    const retry = response.headers.get('retry-after');
    throw new ApiError(response.status, retry === null ? problem : { ...problem, retry_after: retry });
  }
  const type = response.headers.get('content-type') ?? '';
  const body = await response.text();
  const ms = Math.round(performance.now() - started);
  if (!type.includes('json')) return { kind: 'graph', turtle: body, ms };
  const json = JSON.parse(body) as ResultsJson;
  if (typeof json.boolean === 'boolean') return { kind: 'ask', value: json.boolean, body, ms };
  return {
    kind: 'select',
    vars: json.head?.vars ?? [],
    rows: json.results?.bindings ?? [],
    body,
    ms,
  };
}
