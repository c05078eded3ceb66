/**
 * The closed catalogue of error codes. Every problem the registry or its CLI reports carries one of these codes;
 * its HTTP status and title come from here, and so does the sentence that documents it (served at
 * `/problems/<code>`, listed in the README). A new failure a caller can act on gets an entry here first.
 */

/** One error code: the HTTP status it is answered with, its title, and what it means for the caller. */
export interface ErrorCodeEntry {
  readonly status: number;
  readonly title: string;
  readonly about: string;
  /** Where the code arises: `http` (answers of the registry) or `cli` (the command line only). */
  readonly medium: 'http' | 'cli';
}

const http = (status: number, title: string, about: string): ErrorCodeEntry => ({
  status,
  title,
  about,
  medium: 'http',
});
const cli = (status: number, title: string, about: string): ErrorCodeEntry => ({
  status,
  title,
  about,
  medium: 'cli',
});

export const ERROR_CODES = {
  'bad-request': http(
    400,
    'Bad request',
    'The request cannot be understood as sent; the detail says which part.',
  ),
  'invalid-utf8': http(
    400,
    'Request body is not UTF-8',
    'The request body is not valid UTF-8 and nothing in it was read.',
  ),
  'too-deep': http(
    400,
    'Request body nested too deeply',
    'The JSON body nests objects and lists deeper than REG_MAX_JSON_DEPTH allows.',
  ),
  'query-too-long': http(
    400,
    'Query beyond a bound of this endpoint',
    'The SPARQL query is longer than this endpoint accepts.',
  ),
  'query-too-deep': http(
    400,
    'Query beyond a bound of this endpoint',
    'The SPARQL query nests groups deeper than this endpoint accepts.',
  ),
  'query-too-complex': http(
    400,
    'Query beyond a bound of this endpoint',
    'The SPARQL query has more syntax elements than this endpoint accepts, or the engine could not plan it.',
  ),
  'federated-query-refused': http(
    400,
    'Federated query not offered',
    'The SPARQL query holds a SERVICE clause; this endpoint answers from its own graph only.',
  ),
  'too-many-rows': http(
    400,
    'Too many solutions',
    'The SPARQL query has more solutions than its caller may fetch at once (REG_SPARQL_MAX_ROWS or REG_SPARQL_ANONYMOUS_MAX_ROWS).',
  ),
  unauthorized: http(
    401,
    'Authentication required',
    'The request needs a credential, or the one sent is not valid; send a bearer token.',
  ),
  forbidden: http(403, 'Forbidden', 'The credential is valid but may not do this.'),
  'not-found': http(404, 'Not found', 'No record or resource exists at this address.'),
  'method-not-allowed': http(
    405,
    'Method not allowed',
    'The resource exists but does not answer this method; the Allow header lists those it answers.',
  ),
  'not-acceptable': http(
    406,
    'Not acceptable',
    'None of the media types the request accepts can be produced.',
  ),
  'request-timeout': http(
    408,
    'Request timeout',
    'The request did not arrive in full within the time allowed.',
  ),
  conflict: http(409, 'Conflict', 'The request conflicts with the current state of the registry.'),
  'data-dir-locked': http(
    409,
    'Data directory in use',
    'Another process holds the data directory; stop it first, or back up a running registry over HTTP.',
  ),
  tombstoned: http(
    410,
    'Record is tombstoned',
    'The record was withdrawn; it still dereferences but can no longer be changed or cited.',
  ),
  'precondition-failed': http(
    412,
    'Precondition failed',
    'The If-Match header names a version of the record that is no longer current; read it again and retry.',
  ),
  'payload-too-large': http(
    413,
    'Payload too large',
    'The request body is larger than REG_MAX_PAYLOAD_BYTES allows.',
  ),
  'unsupported-media-type': http(
    415,
    'Unsupported media type',
    'The request body is in a media type this endpoint does not read.',
  ),
  'shacl-validation-failed': http(
    422,
    'Write rejected by SHACL validation',
    'The record violates the registry shapes or rules; errors lists each violation with its JSON field.',
  ),
  'attestation-not-verified': http(
    422,
    'Attestation not verified',
    'The registry accepts verified attestations only (REG_ATTESTATION_REQUIRE_VERIFIED), and this one is unverified or failed verification; `verification` says why.',
  ),
  'malformed-input': http(
    422,
    'Malformed input',
    'The input is syntactically broken, such as a malformed N-Quads line.',
  ),
  'invalid-text': http(
    422,
    'Invalid text',
    'A string or member name is not a sequence of Unicode characters, such as one holding a lone surrogate.',
  ),
  'too-many-items': http(
    422,
    'Too many items',
    'A list field holds more values than REG_MAX_LIST_ITEMS allows.',
  ),
  'not-deployable': http(
    422,
    'Endpoint on software that cannot be hosted',
    'A deployment names an endpoint, but its software is declared not deployable.',
  ),
  'bytes-not-accepted': http(
    422,
    'Send a digest, not the data',
    'The request carries the data itself; the registry takes only its digest.',
  ),
  'invalid-checksum': http(
    422,
    'Unusable checksum',
    'A checksum names an unknown algorithm or a value of the wrong form.',
  ),
  'scope-not-allowed': http(
    422,
    'Scope not allowed for this deployment',
    "A token was asked for with a scope outside the deployment's allowed_scopes.",
  ),
  'too-many-queries': http(
    429,
    'Too many queries at once',
    'The caller already has as many SPARQL queries under way as it may (REG_SPARQL_MAX_CONCURRENT).',
  ),
  'rate-limited': http(
    429,
    'Too many requests',
    'The caller sent more requests of one class (read, write, sparql, federated, mcp, outbound) than its rate allows, or its address sent too many failed credentials; Retry-After and retry_after say when to try again.',
  ),
  'headers-too-large': http(
    431,
    'Request header fields too large',
    'The request head is larger than the server reads.',
  ),
  internal: http(500, 'Internal error', 'The registry failed; the log has the details under the request id.'),
  config: http(
    500,
    'Configuration refused',
    'A start-up setting cannot be used; the detail names the variable.',
  ),
  'upstream-failed': http(
    502,
    'Upstream request failed',
    'A request the registry made on the caller’s behalf failed or was refused.',
  ),
  unavailable: http(
    503,
    'Service unavailable',
    'The registry cannot answer this yet (it is still loading) or a store it needs is unreachable; retry.',
  ),
  'query-timeout': http(
    504,
    'Query timed out',
    'The query did not finish within its time limit and was stopped.',
  ),
  'webhook-malformed-timestamp': cli(
    401,
    'Invalid webhook delivery',
    'The delivery’s timestamp header is missing or not a number of seconds.',
  ),
  'webhook-malformed-signature': cli(
    401,
    'Invalid webhook delivery',
    'The delivery’s signature header is missing or not in the expected form.',
  ),
  'webhook-bad-signature': cli(
    401,
    'Invalid webhook delivery',
    'The delivery’s signature does not match its body under the subscription secret.',
  ),
  'webhook-stale-timestamp': cli(
    401,
    'Invalid webhook delivery',
    'The delivery’s timestamp is outside the accepted window, as a replayed delivery would be.',
  ),
  unreachable: cli(
    503,
    'Registry unreachable',
    'The registry could not be reached: connection refused, unknown host, TLS failure or no answer in time.',
  ),
  'ci-token': cli(
    401,
    'CI identity token unavailable',
    'The CI job’s OIDC identity token could not be had: the GitHub Actions token endpoint failed, or the GitLab CI id_tokens variable is empty.',
  ),
  spool: cli(500, 'Spool unusable', 'The spool directory cannot be written or read.'),
  profile: cli(
    500,
    'Connection profile refused',
    'The connection profile or client configuration cannot be used.',
  ),
  'unexpected-response': cli(
    502,
    'Unexpected response',
    'The registry answered with something other than what the command expects.',
  ),
  usage: cli(
    400,
    'Usage',
    'The command line asks for something impossible, such as an update with nothing to change.',
  ),
} as const satisfies Record<string, ErrorCodeEntry>;

/** Every error code the registry and its CLI report. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Whether a string is a code of the catalogue. */
export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CODES, value);
}
