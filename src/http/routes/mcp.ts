import { createMcpHandler } from '@modelcontextprotocol/server';
import { Hono, type MiddlewareHandler } from 'hono';
import { requireReader } from '../../core/access/policy.js';
import type { Core } from '../../core/core.js';
import { InvalidEncodingError, MethodNotAllowedError } from '../../core/errors.js';
import { registryTitle } from '../../core/ops/status.js';
import { parseLimitedJson } from '../../core/records/json.js';
import { readJsonBytes } from '../body.js';
import type { AppEnv } from '../env.js';
import { InnerApi } from '../mcp/inner-api.js';
import { authInfoOf, mcpServerFactory } from '../mcp/server.js';
import type { Mounts } from '../mounts.js';

/** The path of the MCP endpoint below the base IRI. */
export const MCP_PATH = '/mcp';
/** The path of the RFC 9728 metadata of the registry as a whole; the MCP endpoint's adds its own path. */
const METADATA_PATH = '/.well-known/oauth-protected-resource';

/** A body that is not JSON: handed to the MCP handler as sent, which answers it with the JSON-RPC parse error. */
class NotJson extends Error {}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The hosted MCP server at `/mcp` (Streamable HTTP, POST only: no sessions, so GET and DELETE answer 405), serving
 * the 2026-07-28 revision and, through `initialize`, the 2025 revisions; and the OAuth protected-resource metadata
 * (RFC 9728) of the registry and of the MCP endpoint. Tool calls are requests to `app` itself in the caller's
 * name.
 */
export function mcpRoutes(core: Core, app: Hono<AppEnv>): Mounts {
  const handler = createMcpHandler(mcpServerFactory(core.config, core.version), {
    legacy: 'stateless',
    // Every answer is one JSON body: no tool sends anything before its result, so the response never becomes a stream.
    responseMode: 'auto',
    onerror: (error) => core.log.debug('mcp request refused', { error: error.message }),
  });
  const mcp = new Hono<AppEnv>();
  mcp.post('/', async (c) => {
    const principal = c.get('principal');
    // A private registry asks an anonymous client to sign in before anything else (the 401 carries the challenge).
    if (!core.config.publicRead) requireReader(principal);
    const bytes = await readJsonBytes(c);
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw new InvalidEncodingError('the request body is not valid UTF-8');
    }
    let parsedBody: unknown;
    try {
      parsedBody = parseLimitedJson(text, core.config.maxJsonDepth, (message) => new NotJson(message));
    } catch (error) {
      if (!(error instanceof NotJson)) throw error;
    }
    const headers = new Headers(c.req.raw.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    const request = new Request(c.req.raw.url, {
      method: 'POST',
      headers,
      ...(parsedBody === undefined ? { body: text } : {}),
    });
    const api = new InnerApi(app, c.req.raw, c.env, c.get('requestId'));
    const token = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    return handler.fetch(request, {
      authInfo: authInfoOf({ principal, api }, token),
      ...(parsedBody === undefined ? {} : { parsedBody }),
    });
  });
  // No sessions, so no stream to open (GET) or close (DELETE): every other method is a 405 naming POST.
  mcp.all('/', (c) => {
    throw new MethodNotAllowedError(c.req.method, c.req.path, ['POST']);
  });
  const wellKnown = new Hono<AppEnv>();
  wellKnown.get('/oauth-protected-resource', (c) => c.json(protectedResource(core, core.config.baseIri)));
  wellKnown.get(`/oauth-protected-resource${MCP_PATH}`, (c) =>
    c.json(protectedResource(core, `${core.config.baseIri}${MCP_PATH}`)),
  );
  return [
    [MCP_PATH, mcp],
    ['/.well-known', wellKnown],
  ];
}

/**
 * The OAuth 2.0 Protected Resource Metadata (RFC 9728) of `resource`: the identity providers whose tokens the
 * registry accepts (the primary issuer and the workload issuers; none when it takes only its own tokens), how
 * tokens are sent, and where its documentation for agents is.
 */
export function protectedResource(core: Core, resource: string): Record<string, unknown> {
  const { oidc } = core.config;
  const issuers = [...new Set([oidc.issuer, ...oidc.workloadIssuers].filter((iri) => iri !== undefined))];
  return {
    resource,
    authorization_servers: issuers,
    bearer_methods_supported: ['header'],
    ...(core.config.mcpScopes.length === 0 ? {} : { scopes_supported: [...core.config.mcpScopes] }),
    resource_name: registryTitle(core),
    resource_documentation: `${core.config.baseIri}/llms.txt`,
  };
}

/** Quotes a value for an auth-param of a challenge (RFC 9110 quoted-string). */
const quoted = (value: string): string =>
  `"${value.replace(/[\\"]/g, (ch) => `\\${ch}`).replace(/[\r\n]+/g, ' ')}"`;

/**
 * Gives every 401 of the MCP endpoint the Bearer challenge an MCP client starts its sign-in from (RFC 6750, RFC
 * 9728): the realm, where the endpoint's protected-resource metadata is, and, when a credential was sent and
 * refused, `invalid_token` with the problem's detail. Mounted before authentication, so a refused credential is
 * answered this way too.
 */
export function mcpChallenge(core: Core): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status !== 401) return;
    const parts = [
      `realm=${quoted('reg')}`,
      `resource_metadata=${quoted(`${core.config.baseIri}${METADATA_PATH}${MCP_PATH}`)}`,
    ];
    if (c.req.header('authorization') !== undefined) {
      const problem = (await c.res
        .clone()
        .json()
        .catch(() => ({}))) as { detail?: unknown };
      parts.push(`error=${quoted('invalid_token')}`);
      if (typeof problem.detail === 'string') parts.push(`error_description=${quoted(problem.detail)}`);
    }
    const response = new Response(c.res.body, c.res);
    response.headers.set('www-authenticate', `Bearer ${parts.join(', ')}`);
    c.res = undefined;
    c.res = response;
  };
}
