import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { listAudit } from '../../src/core/store/audit.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { apiOf, artifact, TYPE, type Json } from '../support/api.js';
import { callTool, connectMcp, REVISIONS, toolNames } from '../support/mcp.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof apiOf>;
let deployment: { software: Json; instance: Json; token: string };

const READ_TOOLS = [
  'find_capable_software',
  'get_artifact_lineage',
  'get_record',
  'list_enumerations',
  'list_records',
  'registry_info',
  'search_registry',
  'sparql_query',
  'vocab_resolve',
  'vocab_search',
];

/** A JSON-RPC request to /mcp as a 2025 client sends it after `initialize` (no session: none is needed). */
const rpc = (body: unknown, headers: Record<string, string> = {}) =>
  app.request('/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  api = apiOf(app);
  deployment = await api.deployment(undefined, 'mcp deployment');
  await api.advertise(deployment.token, 'produced', 'mcp-run-1', [artifact('mcp first artifact')]);
});
afterAll(async () => core.close());

describe('the MCP endpoint in process', () => {
  it('lists the read tools to anonymous callers, and more to a deployment and to the root token', async () => {
    const anonymous = await connectMcp({ app }, '2025-11-25');
    expect(await toolNames(anonymous)).toEqual(READ_TOOLS);
    const asDeployment = await connectMcp({ app }, '2026-07-28', deployment.token);
    expect(await toolNames(asDeployment)).toEqual(
      [
        ...READ_TOOLS,
        'advertise_consumed',
        'advertise_produced',
        'create_subscription',
        'declare_capability',
      ].sort(),
    );
    const asRoot = await connectMcp({ app }, '2026-07-28', ROOT_TOKEN);
    expect(await toolNames(asRoot)).toHaveLength(19);
  });

  it('connects at every revision it serves', async () => {
    for (const revision of REVISIONS) {
      const client = await connectMcp({ app }, revision);
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      const info = await callTool(client, 'registry_info');
      expect(info.isError).toBe(false);
      expect(info.content.base_iri ?? info.content.title).toBeDefined();
    }
  });

  it('answers a body that is not JSON with the JSON-RPC parse error, and one nested too deep with a 400 problem', async () => {
    const broken = await rpc('{"jsonrpc": "2.0", "id": 1, "method": ');
    const answer = (await broken.json()) as Json;
    expect(answer.error.code).toBe(-32700);
    const deep = await rpc(`${'['.repeat(200)}${']'.repeat(200)}`);
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as Json).code).toBe('too-deep');
  });

  it('runs a write as the caller: the record is in the API and the audit names the caller', async () => {
    const client = await connectMcp({ app }, '2026-07-28', deployment.token);
    const result = await callTool(client, 'advertise_produced', {
      run: { external_key: 'mcp-run-2' },
      artifacts: [{ title: 'made over mcp', conforms_to: TYPE }],
    });
    expect(result.isError, result.text).toBe(false);
    const listed = await api.call('GET', '/api/v1/artifacts?q=made%20over%20mcp', 200);
    expect(listed.items.map((item: Json) => item.title)).toContain('made over mcp');
    const audit = listAudit(core.db, { limit: 50 });
    expect(JSON.stringify(audit)).toContain(deployment.instance.iri);
  });
});
