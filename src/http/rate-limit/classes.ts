import type { RateLimitClass } from '../../core/config/index.js';

/** Paths never limited: the probes, and the web page's hashed assets. */
const EXEMPT = /^\/(?:healthz|readyz|metrics|assets\/.*)$/;

/** Requests that only read although they are POSTs: a query or a digest travels in the body. */
const READING_POSTS = /^\/api\/v1\/artifacts\/identify\/?$/;

/** Requests that make the registry fetch from elsewhere: adding a peer, a software sync, its API description. */
const OUTBOUND: readonly (readonly [method: string, path: RegExp])[] = [
  ['POST', /^\/api\/v1\/peers\/?$/],
  ['POST', /^\/api\/v1\/software\/[^/]+\/sync\/?$/],
  ['GET', /^\/api\/v1\/software\/[^/]+\/api-doc\/?$/],
  ['HEAD', /^\/api\/v1\/software\/[^/]+\/api-doc\/?$/],
];

/** The parts of a request its class depends on. */
export interface ClassifiedRequest {
  readonly method: string;
  readonly path: string;
  /** The request's query parameters, read only for search (whether it asks for federation). */
  readonly query: () => Record<string, string>;
}

/**
 * The class a request is counted in, or undefined for one that is never limited. Federated searches (asked for
 * with `federated=true`, or relayed with the `fed_*` envelope) and resolution of foreign IRIs go to peers;
 * requests that fetch from elsewhere are `outbound`; other reads (GET, HEAD, and the POSTs that only read) are
 * `read`, every other method `write`.
 */
export function classOf(request: ClassifiedRequest): RateLimitClass | undefined {
  const { method, path } = request;
  if (EXEMPT.test(path)) return undefined;
  if (path === '/sparql' || path.startsWith('/sparql/')) return 'sparql';
  if (path === '/mcp' || path.startsWith('/mcp/')) return 'mcp';
  if (/^\/api\/v1\/resolve\/?$/.test(path)) return 'federated';
  if (/^\/api\/v1\/search\/?$/.test(path) && asksFederation(request.query())) return 'federated';
  if (OUTBOUND.some(([verb, pattern]) => verb === method && pattern.test(path))) return 'outbound';
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return 'read';
  if (method === 'POST' && READING_POSTS.test(path)) return 'read';
  return 'write';
}

function asksFederation(query: Record<string, string>): boolean {
  const federated = query.federated;
  return (
    federated === 'true' || federated === '1' || Object.keys(query).some((name) => name.startsWith('fed_'))
  );
}
