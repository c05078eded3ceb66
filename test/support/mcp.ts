import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { createApp } from '../../src/http/app.js';

/** A protocol revision the MCP endpoint serves: the current one (found by `server/discover`) or a 2025 one. */
export type Revision = '2026-07-28' | '2025-11-25' | '2025-06-18' | '2025-03-26';

/** The revisions the tests connect with, newest first. */
export const REVISIONS: readonly Revision[] = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];

/** Where the client sends its requests: a registry listening on loopback, or an application in process. */
export type Target = { readonly url: string } | { readonly app: ReturnType<typeof createApp> };

/**
 * Connects the official MCP client to a registry's `/mcp` at one revision: 2026-07-28 pinned (the client probes
 * with `server/discover`), or a 2025 revision offered through `initialize`. With `token`, every request carries
 * it as a bearer credential.
 */
export async function connectMcp(target: Target, revision: Revision, token?: string): Promise<Client> {
  const modern = revision === '2026-07-28';
  const client = new Client(
    { name: 'reg-tests', version: '1.0.0' },
    modern ? { versionNegotiation: { mode: { pin: revision } } } : { supportedProtocolVersions: [revision] },
  );
  const base = 'url' in target ? target.url : 'http://registry.test';
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    ...(token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    ...('app' in target
      ? { fetch: async (url: string | URL, init?: RequestInit) => target.app.fetch(new Request(url, init)) }
      : {}),
  });
  await client.connect(transport);
  return client;
}

/** The names of the tools a client is offered, sorted. */
export async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

/** Calls a tool and returns its structured content, with whether it is an error result. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ isError: boolean; content: Record<string, any>; text: string }> {
  const result = await client.callTool({ name, arguments: args });
  const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
  return {
    isError: result.isError === true,
    content: (result.structuredContent ?? {}) as Record<string, any>,
    text: first?.type === 'text' ? (first.text ?? '') : '',
  };
}
