import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
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
  'deployment_history',
  'find_capable_software',
  'get_artifact_lineage',
  'get_record',
  'impact',
  'list_enumerations',
  'list_records',
  'observed_capability',
  'registry_info',
  'search_registry',
  'software_deployments',
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
    // Each filter is described once per distinct meaning, naming the kinds that take it.
    const listRecords = (await anonymous.listTools()).tools.find((tool) => tool.name === 'list_records');
    const properties = listRecords?.inputSchema.properties as Record<string, { description: string }>;
    expect(properties.limit?.description).toBe('software, instances, artifacts, runs: items per page');
    expect(properties.software?.description).toBe(
      'instances: the software deployed (id or IRI); artifacts: software one of whose deployments generated, used or registered it; runs: the software of that deployment (id or IRI); releases: the software whose releases to list (id or IRI)',
    );
    const asRoot = await connectMcp({ app }, '2026-07-28', ROOT_TOKEN);
    expect(await toolNames(asRoot)).toHaveLength(23);
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

  it('gives the caching hints of 2026-07-28: the description public for an hour, the tool list private', async () => {
    const answers: Json[] = [];
    const recording = async (url: string | URL, init?: RequestInit) => {
      const response = await app.fetch(new Request(url, init));
      if (response.headers.get('content-type')?.includes('json') === true)
        answers.push((await response.clone().json()) as Json);
      return response;
    };
    const client = new Client(
      { name: 'reg-tests', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://registry.test/mcp'), { fetch: recording }),
    );
    await client.listTools();
    const results = answers.map((answer) => answer.result as Json);
    expect(results.find((result) => result.supportedVersions !== undefined)).toMatchObject({
      ttlMs: 3_600_000,
      cacheScope: 'public',
    });
    expect(results.find((result) => result.tools !== undefined)).toMatchObject({ cacheScope: 'private' });
  });

  it('refuses arguments a tool cannot use, and a tool it does not have', async () => {
    const client = await connectMcp({ app }, '2026-07-28');
    const missing = await callTool(client, 'list_records', {});
    expect(missing).toMatchObject({ isError: true, text: 'Bad request: kind is required' });
    const outside = await callTool(client, 'list_records', { kind: 'peers' });
    expect(outside.isError).toBe(true);
    expect(outside.text).toMatch(/kind must be one of software, instances, artifacts, runs, releases, types/);
    const describe = await callTool(client, 'sparql_query', { query: 'DESCRIBE <urn:x>' });
    expect(describe.isError).toBe(true);
    await expect(client.callTool({ name: 'drop_everything', arguments: {} })).rejects.toThrow(
      /drop_everything/,
    );
    // An id that is a dot segment would lead the call elsewhere in the API.
    const dots = await callTool(client, 'list_records', { kind: 'releases', software: '..' });
    expect(dots.isError).toBe(true);
    expect(dots.content).toMatchObject({ status: 400, code: 'bad-request' });
  });

  it('lists software by its kinds under software_kind, since kind names the records to list', async () => {
    await api.call('POST', '/api/v1/software', 201, { name: 'a desktop program', kinds: ['desktop'] });
    const client = await connectMcp({ app }, '2025-03-26');
    const listed = await callTool(client, 'list_records', { kind: 'software', software_kind: 'desktop' });
    const direct = await api.call('GET', '/api/v1/software?kind=desktop', 200);
    expect(listed.content).toEqual(direct);
    expect(direct.items.map((item: Json) => item.name)).toEqual(['a desktop program']);
  });

  it('cuts a CONSTRUCT answer at its row budget of triples, saying so', async () => {
    const client = await connectMcp({ app }, '2026-07-28');
    const cut = await callTool(client, 'sparql_query', {
      query: 'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }',
      max_rows: 4,
    });
    expect(cut.isError, cut.text).toBe(false);
    expect(cut.content).toMatchObject({ form: 'CONSTRUCT', partial: true, triples: 4 });
    expect(cut.content.ntriples.trim().split('\n')).toHaveLength(4);
  });

  it("lets a deployment declare its own capability and subscribe, the deployment being the credential's own", async () => {
    const client = await connectMcp({ app }, '2025-11-25', deployment.token);
    const declared = await callTool(client, 'declare_capability', {
      instance: deployment.instance.id,
      consumes: [TYPE],
    });
    expect(declared.isError, declared.text).toBe(false);
    const read = await api.call('GET', `/api/v1/instances/${deployment.instance.id}`, 200);
    expect(read.capability.consumes.map((term: Json) => term.iri ?? term)).toContain(TYPE);
    const subscribed = await callTool(client, 'create_subscription', {
      label: 'types over mcp',
      filter: { conforms_to: [TYPE] },
    });
    expect(subscribed.isError, subscribed.text).toBe(false);
    const listed = await api.call('GET', `/api/v1/instances/${deployment.instance.id}/subscriptions`, 200);
    expect(JSON.stringify(listed)).toContain('types over mcp');
  });

  it('runs every catalogue write through its API path, each readable over REST afterwards', async () => {
    const client = await connectMcp({ app }, '2025-06-18', ROOT_TOKEN);
    const ok = async (tool: string, args: Json) => {
      const result = await callTool(client, tool, args);
      expect(result.isError, `${tool}: ${result.text}`).toBe(false);
      return result.content;
    };
    const type = await ok('register_artifact_type', { label: 'Sample sheet', slug: 'sample-sheet' });
    expect(type.iri).toBe('http://registry.test/type/sample-sheet');
    const software = await ok('register_software', { name: 'written over mcp' });
    await ok('update_software', { software: software.id, tagline: 'changed over mcp' });
    await ok('add_release', { software: software.iri, version: '2.0.0' });
    await ok('declare_capability', { software: software.id, produces: [type.iri] });
    const instance = await ok('register_instance', { software: software.id, label: 'deployed over mcp' });
    const read = await api.call('GET', `/api/v1/software/${software.id}`, 200);
    expect(read).toMatchObject({ tagline: 'changed over mcp', release_count: 1 });
    expect(JSON.stringify(read.capability)).toContain(type.iri);
    const releases = await api.call('GET', `/api/v1/software/${software.id}/releases`, 200);
    expect(releases.items.map((item: Json) => item.version)).toEqual(['2.0.0']);
    expect((await api.call('GET', `/api/v1/instances/${instance.id}`, 200)).label).toBe('deployed over mcp');
    const both = await callTool(client, 'declare_capability', {
      software: software.id,
      instance: instance.id,
    });
    expect(both).toMatchObject({
      isError: true,
      text: 'Bad request: give either software or instance (id or IRI), not both',
    });
  });
});

describe('the MCP endpoint of a registry whose reads are not public', () => {
  let privateCore: Core;
  let privateApp: ReturnType<typeof createApp>;
  beforeAll(async () => {
    privateCore = await openTestCore({ REG_PUBLIC_READ: 'false' }, true);
    privateApp = createApp(privateCore);
  });
  afterAll(async () => privateCore.close());

  it('asks an anonymous client to sign in, naming its protected-resource metadata', async () => {
    const response = await privateApp.request('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="reg", resource_metadata="http://registry.test/.well-known/oauth-protected-resource/mcp"',
    );
    const metadata = await privateApp.request('/.well-known/oauth-protected-resource/mcp');
    expect(metadata.status).toBe(200);
    const document = (await metadata.json()) as Json;
    expect(document.authorization_servers).toEqual([]);
    expect(document).not.toHaveProperty('scopes_supported');
  });

  it('names the configured scopes in its protected-resource metadata', async () => {
    const scoped = await openTestCore({ REG_MCP_SCOPES: 'openid,reg.read' }, true);
    try {
      const metadata = await createApp(scoped).request('/.well-known/oauth-protected-resource');
      expect(await metadata.json()).toMatchObject({
        resource: 'http://registry.test',
        scopes_supported: ['openid', 'reg.read'],
      });
    } finally {
      await scoped.close();
    }
  });

  it('serves a caller with a credential', async () => {
    const client = await connectMcp({ app: privateApp }, '2026-07-28', ROOT_TOKEN);
    expect(await toolNames(client)).toContain('register_software');
  });
});
