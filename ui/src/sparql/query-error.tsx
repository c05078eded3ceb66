/** A refused or failed query, with the registry's own words about why, beside the editor. */
import type { ApiError } from '../api';
import { session } from '../session';

function headline(error: ApiError): string {
  switch (error.status) {
    case 400:
      return 'The query could not be run';
    case 401:
      return session.token() === undefined
        ? 'SPARQL on this registry is not public: sign in to run queries'
        : 'Your sign-in has expired or was revoked';
    case 403:
      return 'This query is not allowed';
    case 429:
      return 'Too many queries for now';
    case 503:
      return 'The query index is restarting';
    case 504:
      return 'The query ran out of time';
    case 0:
      return 'The registry could not be reached';
    default:
      return error.problem.title ?? 'The query failed';
  }
}

export function QueryError({ error }: { error: ApiError }) {
  const retry = error.problem.retry_after;
  return (
    <div class="notice notice-error sq-error" role="alert">
      <p>
        <strong>{headline(error)}</strong>
        {error.status > 0 && <span class="sq-code"> ({error.status})</span>}
      </p>
      <p class="sq-detail">{error.message}</p>
      {error.status === 504 && <p>Bind a class or an IRI early, name the graph, and add a LIMIT.</p>}
      {typeof retry === 'string' && <p>Try again in {retry} seconds.</p>}
      {error.status === 401 && (
        <p>
          <a href="/signin?next=%2Fsparql">Sign in</a>
        </p>
      )}
    </div>
  );
}
