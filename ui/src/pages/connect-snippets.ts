/**
 * The copy-paste configuration `/connect` shows: for each common MCP client, the entry that connects it to one
 * MCP endpoint, with or without a token. A token is only ever named (an environment variable, or a VS Code
 * prompt), never written in.
 */

/** The environment variable the snippets read a token from. */
export const TOKEN_VARIABLE = 'REG_TOKEN';
/** The name the agent knows this registry's server by. */
const SERVER_NAME = 'reg';
/** The protocol revision the check with `server/discover` speaks; `initialize` checks an older one. */
export const MODERN_REVISION = '2026-07-28';
const LEGACY_REVISION = '2025-11-25';

/** Whether the configuration carries a token. */
export type Credential = 'none' | 'token';

/** One copy-paste block. */
export interface Snippet {
  readonly id: string;
  readonly label: string;
  readonly text: string;
}

const json = (value: unknown): string => JSON.stringify(value, null, 2);
/** A word the shell passes on as it is: left bare when it holds nothing the shell would read, else quoted. */
const shellWord = (text: string): string =>
  /^[\w@%+=:,./~-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;

/** The configuration of each client for the MCP endpoint `url`, with or without a token. */
export function clientSnippets(url: string, credential: Credential, title: string) {
  const token = credential === 'token';
  const header = (value: string) => (token ? { headers: { Authorization: `Bearer ${value}` } } : {});
  const address = shellWord(url);
  const curlHeaders = [
    `-H 'Content-Type: application/json'`,
    `-H 'Accept: application/json, text/event-stream'`,
    ...(token ? [`-H "Authorization: Bearer $${TOKEN_VARIABLE}"`] : []),
  ];
  const curl = (headers: string[], body: unknown) =>
    [`curl -sS ${address}`, ...headers, `-d '${JSON.stringify(body)}'`].join(' \\\n  ');
  return {
    claudeCode: {
      id: 'cn-claude-code',
      label: 'Claude Code command',
      text: token
        ? `claude mcp add --transport http ${SERVER_NAME} ${address} \\\n  --header "Authorization: Bearer $${TOKEN_VARIABLE}"`
        : `claude mcp add --transport http ${SERVER_NAME} ${address}`,
    },
    mcpServers: {
      id: 'cn-mcp-servers',
      label: '.mcp.json',
      text: json({
        mcpServers: { [SERVER_NAME]: { type: 'http', url, ...header(`\${${TOKEN_VARIABLE}}`) } },
      }),
    },
    vscode: {
      id: 'cn-vscode',
      label: '.vscode/mcp.json',
      text: json({
        ...(token
          ? {
              inputs: [
                {
                  type: 'promptString',
                  id: 'reg-token',
                  description: `API token of ${title}`,
                  password: true,
                },
              ],
            }
          : {}),
        servers: { [SERVER_NAME]: { type: 'http', url, ...header('${input:reg-token}') } },
      }),
    },
    cursor: {
      id: 'cn-cursor',
      label: '~/.cursor/mcp.json',
      text: json({ mcpServers: { [SERVER_NAME]: { url, ...header(`\${env:${TOKEN_VARIABLE}}`) } } }),
    },
    connector: { id: 'cn-connector', label: 'Connector address', text: url },
    discover: {
      id: 'cn-discover',
      label: 'curl: server/discover',
      text: curl(
        [...curlHeaders, `-H 'MCP-Protocol-Version: ${MODERN_REVISION}'`, `-H 'Mcp-Method: server/discover'`],
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'server/discover',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        },
      ),
    },
    initialize: {
      id: 'cn-initialize',
      label: 'curl: initialize',
      text: curl(curlHeaders, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: LEGACY_REVISION,
          capabilities: {},
          clientInfo: { name: 'curl', version: '1.0.0' },
        },
      }),
    },
  } satisfies Record<string, Snippet>;
}
