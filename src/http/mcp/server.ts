import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type AuthInfo,
  type CallToolResult,
  type McpRequestContext,
  type Tool,
} from '@modelcontextprotocol/server';
import type { Principal } from '../../core/access/principal.js';
import type { Config } from '../../core/config/index.js';
import { DEPLOYMENT_TOOLS } from './deployment-tools.js';
import type { InnerApi } from './inner-api.js';
import { LIST_TOOLS } from './list-tools.js';
import { READ_TOOLS } from './read-tools.js';
import { SPARQL_TOOL } from './sparql-tool.js';
import { refusal, type ToolArguments, type ToolDefinition } from './tool.js';
import { WRITE_TOOLS } from './write-tools.js';

/** Every tool, in the order `tools/list` presents them: reads first, then writes. */
export const TOOLS: readonly ToolDefinition[] = [
  ...READ_TOOLS,
  ...LIST_TOOLS,
  ...DEPLOYMENT_TOOLS,
  SPARQL_TOOL,
  ...WRITE_TOOLS,
];

/** The name the server gives itself. */
export const SERVER_NAME = 'reg';

/** How long a client may keep the server's description, and the caller's tool list (2026-07-28 caching hints). */
export const CACHE_HINTS = {
  discoverMs: 3_600_000,
  toolsMs: 300_000,
} as const;

/** The caller of one MCP request, handed to the server factory with the request's authentication. */
export interface McpCaller {
  readonly principal: Principal;
  readonly api: InnerApi;
}

const CALLER = 'reg.caller';

/** The authentication the SDK passes through to the factory: the credential, and the caller it resolved to. */
export function authInfoOf(caller: McpCaller, token: string | undefined): AuthInfo {
  return {
    token: token ?? '',
    clientId: caller.principal.clientId ?? caller.principal.subject,
    scopes: [...caller.principal.scopes],
    extra: { [CALLER]: caller },
  };
}

const INSTRUCTIONS =
  'This is a registry of software, its releases and deployments (instances), the runs they performed and the artifacts those produced or consumed. Start with registry_info; find records with search_registry or list_records and read one with get_record; find terms (artifact types, topics, licences) with vocab_search before writing them; ask what runs where with software_deployments and deployment_history, and what an artifact, a release or an image digest affected with impact; list_enumerations gives the allowed values of fields. Every call runs with your own credential, so the tools offered are those it may use, and a write names you in the audit log. A refused call comes back as an error result naming the problem.';

/** The tool as `tools/list` describes it. */
function described(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    annotations: {
      title: tool.title,
      readOnlyHint: tool.readOnly,
      destructiveHint: false,
      idempotentHint: tool.idempotent,
      openWorldHint: true,
    },
  };
}

/** A refusal of arguments the tool's schema rules out: a missing required one, or a value outside its set. */
function argumentProblem(tool: ToolDefinition, args: ToolArguments): CallToolResult | undefined {
  const missing = (tool.inputSchema.required ?? []).filter(
    (name) => args[name] === undefined || args[name] === null,
  );
  if (missing.length > 0)
    return refusal(`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required`);
  for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
    const value = args[name];
    if (schema.enum === undefined || value === undefined) continue;
    if (!schema.enum.includes(value as string))
      return refusal(`${name} must be one of ${schema.enum.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return undefined;
}

/**
 * The factory of the MCP server: a fresh server per request (the transport keeps no session), whose tool list is
 * what the request's caller may use and whose tool calls run through the HTTP API with the caller's credential.
 */
export function mcpServerFactory(config: Config, version: string): (context: McpRequestContext) => Server {
  return (context) => {
    const caller = context.authInfo?.extra?.[CALLER] as McpCaller | undefined;
    const server = new Server(
      { name: SERVER_NAME, title: 'reg registry', version },
      {
        capabilities: { tools: {} },
        instructions: INSTRUCTIONS,
        cacheHints: {
          'server/discover': { ttlMs: CACHE_HINTS.discoverMs, cacheScope: 'public' },
          'tools/list': { ttlMs: CACHE_HINTS.toolsMs, cacheScope: 'private' },
        },
      },
    );
    server.setRequestHandler('tools/list', () => ({
      tools:
        caller === undefined
          ? []
          : TOOLS.filter((tool) => tool.offered(caller.principal, config)).map(described),
    }));
    server.setRequestHandler('tools/call', async (request) => {
      const tool = TOOLS.find((candidate) => candidate.name === request.params.name);
      if (tool === undefined || caller === undefined)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no tool named ${request.params.name}`);
      const args = request.params.arguments ?? {};
      // A tool not offered to the caller still runs: the API refuses it with the problem it gives anyone.
      return (
        argumentProblem(tool, args) ??
        (await tool.run({ args, api: caller.api, config, principal: caller.principal }))
      );
    });
    return server;
  };
}
