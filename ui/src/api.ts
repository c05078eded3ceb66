/**
 * The one way the page talks to the registry: JSON over the REST API with the signed-in bearer, and RFC 9457
 * problems turned into `ApiError`s that keep the field-level errors for forms.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Problem } from '../../src/api/index.js';
import { baseIri } from './registry';
import { session } from './session';

/** The API's JSON shapes (records, list pages, answers, problems), declared once in `src/api`. */
export type {
  AgentJson,
  ApiDocJson,
  ApiFormat,
  ArtifactJson,
  ArtifactRefJson,
  Availability,
  CapabilityJson,
  CapabilityMatch,
  CapabilityMatches,
  CredentialScope,
  DistributionJson,
  DownloadJson,
  Facet,
  FieldError,
  GraphAnswer,
  GraphNode,
  InstanceJson,
  LineageAnswer,
  LineageNode,
  ListPage,
  OriginJson,
  MintedToken,
  Problem,
  RegistryDescription,
  ReleaseJson,
  RunJson,
  RunStatus,
  SearchAnswer,
  SearchHit,
  SoftwareJson,
  SoftwareKind,
  Delivery,
  Subscription,
  SubscriptionFilterJson,
  SubscriptionWritten,
  TermJson,
  TokenList,
  TokenRecord,
  TypeJson,
  VocabHit,
} from '../../src/api/index.js';

/** A request the registry refused or could not answer. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** What the registry answered, or what the page knows of a failure it never answered. */
    readonly problem: Partial<Problem>,
  ) {
    super(problem.detail ?? problem.title ?? `request failed with status ${status}`);
    this.name = 'ApiError';
  }

  /** The messages for one form field: its own errors, and those of its nested members (`field.x`, `field[0]`). */
  fieldErrors(field: string): string[] {
    return (this.problem.errors ?? [])
      .filter((e) => e.field === field || e.field.startsWith(`${field}.`) || e.field.startsWith(`${field}[`))
      .map((e) => e.message);
  }
}

type Query = Record<string, string | number | boolean | readonly string[] | undefined | null>;

/** `path?query`, leaving out empty values and repeating array values. */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    const values: readonly (string | number | boolean)[] = typeof value === 'object' ? value : [value];
    for (const v of values) params.append(name, String(v));
  }
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** Sends a request and returns the parsed body (`undefined` for 204); refusals throw `ApiError`. */
export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  accept = 'application/json',
): Promise<T> {
  const headers: Record<string, string> = { accept };
  const token = session.token();
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, { title: 'Network error', detail: 'the registry could not be reached' });
  }
  if (response.status === 401 && token !== undefined) session.expired();
  if (!response.ok) throw new ApiError(response.status, await problemOf(response));
  if (response.status === 204) return undefined as T;
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('json') ? await response.json() : await response.text()) as T;
}

async function problemOf(response: Response): Promise<Partial<Problem>> {
  try {
    const body = (await response.json()) as Partial<Problem>;
    return typeof body === 'object' && body !== null ? body : { status: response.status };
  } catch {
    return {
      status: response.status,
      title: response.statusText,
      detail: `the registry answered ${response.status}`,
    };
  }
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', withQuery(path, query)),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body ?? {}),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  delete: (path: string) => request<void>('DELETE', path),
};

/** The state of one read: data once loaded, the error if it failed, and a way to load it again. */
export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: ApiError | undefined;
  readonly loading: boolean;
  reload(): void;
}

/**
 * Reads `path` (with `query`) whenever either changes or the signed-in credential changes; `null` reads nothing.
 * A response arriving after a newer request started is dropped.
 */
export function useApi<T>(path: string | null, query?: Query): Loaded<T> {
  const url = path === null ? null : withQuery(path, query);
  const credential = session.useToken();
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({
    loading: url !== null,
  });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (url === null) {
      setState({ loading: false });
      return;
    }
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    request<T>('GET', url).then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error: asApiError(error), loading: false }),
    );
    return () => {
      current = false;
    };
  }, [url, credential, generation]);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, { title: 'Error', detail: error instanceof Error ? error.message : String(error) });
}

/** The last path segment of a record IRI: its id in the API. */
export function idOf(iri: string): string {
  return iri.slice(iri.replace(/[#/]$/, '').lastIndexOf('/') + 1);
}

/**
 * The page of a record IRI: its path when the IRI is this registry's (under its base IRI, or on the page's own
 * origin), or the IRI itself when it is foreign.
 */
export function pageOf(iri: string): string {
  const base = baseIri();
  if (base !== undefined && iri.startsWith(`${base}/`)) return iri.slice(base.length);
  try {
    const url = new URL(iri);
    return url.origin === window.location.origin ? `${url.pathname}${url.search}${url.hash}` : iri;
  } catch {
    return iri;
  }
}

/** True when an IRI belongs to this registry (its page is served here). */
export function isLocal(iri: string): boolean {
  return pageOf(iri) !== iri;
}
