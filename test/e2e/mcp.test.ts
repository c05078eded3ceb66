import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, startServe, testEnv, type ServerProcess } from '../helpers.js';
import { artifact, TYPE, type Json } from '../support/api.js';
import { callTool, connectMcp, REVISIONS, toolNames } from '../support/mcp.js';
import { startProvider, type TestProvider } from '../support/oidc.js';

/** The base IRI `testEnv` gives a registry, which the identity provider issues tokens for. */
const BASE = 'http://registry.test';

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
const DEPLOYMENT_TOOLS = [
  'advertise_consumed',
  'advertise_produced',
  'create_subscription',
  'declare_capability',
];
const CURATOR_TOOLS = [
  'add_release',
  'create_subscription',
  'declare_capability',
  'register_artifact_type',
  'register_instance',
  'register_software',
  'update_software',
];

let provider: TestProvider;
let server: ServerProcess;
let curatorToken: string;
let deploymentToken: string;
let software: Json;
let instance: Json;
let produced: Json;
let release: Json;
const clients: Client[] = [];

/** A request to the registry's REST API with a bearer token (the root token unless another is given). */
async function rest(method: string, path: string, body?: unknown, token: string | null = ROOT_TOKEN) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text === '' ? {} : JSON.parse(text)) as Json,
  };
}

/** An MCP client of the server at a revision (2026-07-28 unless given), closed after the file. */
async function mcp(token?: string, revision: (typeof REVISIONS)[number] = '2026-07-28'): Promise<Client> {
  const client = await connectMcp({ url: server.url }, revision, token);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  provider = await startProvider({
    audience: BASE,
    clients: [{ id: 'curator-bot', claims: { realm_access: { roles: ['reg-curator'] } } }],
  });
  server = await startServe(testEnv({ REG_OIDC_ISSUER: provider.issuer }));
  curatorToken = await provider.clientToken('curator-bot');
  software = (await rest('POST', '/api/v1/software', { name: 'mcp-e2e-tool', kinds: ['cli'] })).body;
  instance = (
    await rest('POST', '/api/v1/instances', { software: software.iri, label: 'mcp e2e deployment' })
  ).body;
  const minted = await rest('POST', `/api/v1/instances/${instance.id}/tokens`, {
    scopes: ['advertise:produce', 'advertise:consume', 'subscribe:artifacts'],
  });
  deploymentToken = minted.body.token as string;
  release = (await rest('POST', `/api/v1/software/${software.id}/releases`, { version: '1.0.0' })).body;
  await rest('PUT', `/api/v1/instances/${instance.id}/capability`, { produces: [TYPE] });
  const advertised = await rest(
    'POST',
    '/api/v1/advertise/produced',
    { run: { external_key: 'mcp-e2e-run' }, artifacts: [artifact('mcp e2e dataset')] },
    deploymentToken,
  );
  expect(advertised.status).toBe(201);
  produced = advertised.body;
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server?.stop();
  await provider?.stop();
});

describe('the MCP server at /mcp, with the official client over loopback', () => {
  it('is discovered under 2026-07-28 and initialised under each 2025 revision', async () => {
    for (const revision of REVISIONS) {
      const client = await mcp(undefined, revision);
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      expect(client.getProtocolEra()).toBe(revision === '2026-07-28' ? 'modern' : 'legacy');
      expect(client.getServerVersion()?.name).toBe('reg');
    }
    const discovered = (await mcp()).getDiscoverResult();
    expect(discovered?.supportedVersions).toEqual(['2026-07-28']);
    expect(discovered?.capabilities.tools).toBeDefined();
  });

  it('offers each caller the tools it may use: reads to anyone, advertising to a deployment, catalogue writes to a curator', async () => {
    expect(await toolNames(await mcp())).toEqual(READ_TOOLS);
    expect(await toolNames(await mcp(deploymentToken))).toEqual([...READ_TOOLS, ...DEPLOYMENT_TOOLS].sort());
    expect(await toolNames(await mcp(curatorToken, '2025-06-18'))).toEqual(
      [...READ_TOOLS, ...CURATOR_TOOLS].sort(),
    );
    const all = (await (await mcp(ROOT_TOKEN)).listTools()).tools;
    expect(all.map((tool) => tool.name).sort()).toEqual(
      [...new Set([...READ_TOOLS, ...DEPLOYMENT_TOOLS, ...CURATOR_TOOLS])].sort(),
    );
    for (const tool of all) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations).toMatchObject({ destructiveHint: false, openWorldHint: true });
      expect(tool.annotations?.readOnlyHint).toBe(READ_TOOLS.includes(tool.name));
    }
    const listRecords = all.find((tool) => tool.name === 'list_records');
    // The list filters are the API's own: those of every listed kind are offered.
    expect(Object.keys(listRecords?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['kind', 'conforms_to', 'health', 'status', 'publisher', 'cursor']),
    );
  });

  it('answers each read tool as the REST API answers the same question', async () => {
    const client = await mcp();
    const same = async (tool: string, args: Json, path: string, wrap = false) => {
      const result = await callTool(client, tool, args);
      expect(result.isError, `${tool}: ${result.text}`).toBe(false);
      const answer = await rest('GET', path, undefined, null);
      expect(answer.status).toBe(200);
      expect(result.content, tool).toEqual(wrap ? { items: answer.body } : answer.body);
      expect(JSON.parse(result.text)).toEqual(answer.body);
    };
    await same('registry_info', {}, '/api/v1/registry');
    await same(
      'vocab_search',
      { q: 'sequence', branch: 'data', limit: 5 },
      '/api/v1/vocab/search?q=sequence&branch=data&limit=5',
    );
    await same(
      'vocab_resolve',
      { iris: [TYPE] },
      `/api/v1/vocab/resolve?iris=${encodeURIComponent(TYPE)}`,
      true,
    );
    await same('search_registry', { q: 'mcp e2e' }, '/api/v1/search?q=mcp%20e2e');
    await same(
      'list_records',
      { kind: 'software', name: 'mcp-e2e-tool' },
      '/api/v1/software?name=mcp-e2e-tool',
    );
    await same('list_records', { kind: 'runs', status: 'success' }, '/api/v1/runs?status=success');
    await same(
      'list_records',
      { kind: 'releases', software: software.id },
      `/api/v1/software/${software.id}/releases`,
    );
    await same('get_record', { iri: software.iri }, `/api/v1/software/${software.id}`);
    await same('get_record', { kind: 'instance', id: instance.id }, `/api/v1/instances/${instance.id}`);
    await same(
      'get_record',
      { kind: 'release', id: release.id },
      `/api/v1/software/${software.id}/releases/${release.id}`,
    );
    const artifactIri = (produced.artifacts as string[])[0]!;
    const artifactId = artifactIri.slice(artifactIri.lastIndexOf('/') + 1);
    await same('get_record', { iri: artifactIri }, `/api/v1/artifacts/${artifactId}`);
    await same(
      'get_record',
      { iri: produced.run },
      `/api/v1/runs/${encodeURIComponent(produced.run as string)}`,
    );
    await same(
      'find_capable_software',
      { produces: [TYPE] },
      `/api/v1/capabilities?produces=${encodeURIComponent(TYPE)}`,
    );
    await same(
      'get_artifact_lineage',
      { artifact: artifactId, direction: 'up', depth: 2 },
      `/api/v1/artifacts/${artifactId}/lineage?direction=up&depth=2`,
    );
    await same(
      'find_capable_software',
      { produces: [TYPE], basis: 'both' },
      `/api/v1/capabilities?produces=${encodeURIComponent(TYPE)}&basis=both`,
    );
    await same('impact', { of: artifactIri }, `/api/v1/impact?of=${encodeURIComponent(artifactIri)}`);
    await same(
      'deployment_history',
      { instance: instance.id, limit: 5 },
      `/api/v1/instances/${instance.id}/history?limit=5`,
    );
    await same(
      'software_deployments',
      { software: software.iri },
      `/api/v1/software/${software.id}/deployments`,
    );
    await same(
      'observed_capability',
      { instance: instance.iri, days: 7 },
      `/api/v1/instances/${instance.id}/observed-capability?days=7`,
    );

    const enumerations = await callTool(client, 'list_enumerations');
    expect(enumerations.content.run_status.values).toEqual(['success', 'failed', 'running', 'aborted']);
    expect(enumerations.content.access_protocol.values).toContain('s3');
    expect(enumerations.content.sync_field.values).toContain('readme');
    expect(enumerations.content.scope.values).toContain('advertise:produce');
    expect(enumerations.content.match_basis.values).toEqual(['declared', 'observed', 'both']);
    expect(enumerations.content.subscription_signature.values).toEqual(['reg', 'standard-webhooks']);
  });

  it('refuses a filter a kind does not take, naming those it takes', async () => {
    const refused = await callTool(await mcp(), 'list_records', { kind: 'runs', health: 'up' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/runs does not take health; it takes instance, software, status/);
  });

  it("writes in the caller's name: the record is readable over REST and the audit log names the curator", async () => {
    const client = await mcp(curatorToken);
    const written = await callTool(client, 'register_software', {
      name: 'registered over mcp',
      kinds: ['service'],
    });
    expect(written.isError, written.text).toBe(false);
    const read = await rest('GET', `/api/v1/software/${written.content.id}`, undefined, null);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ name: 'registered over mcp', kinds: ['service'] });
    const audit = await rest('GET', '/api/v1/audit?limit=200');
    const entry = (audit.body.items as Json[]).find((item) => item.target === written.content.iri);
    expect(entry).toMatchObject({ actor: `${provider.issuer}|curator-bot`, actor_kind: 'oidc-human' });
  });

  it('refuses a write without permission with the problem the REST API gives, listed or not', async () => {
    const asDeployment = await callTool(await mcp(deploymentToken), 'register_software', {
      name: 'not mine to add',
    });
    const direct = await rest('POST', '/api/v1/software', { name: 'not mine to add' }, deploymentToken);
    expect(direct.status).toBe(403);
    expect(asDeployment.isError).toBe(true);
    expect(asDeployment.content.type).toBe(direct.body.type);
    expect(asDeployment.text).toContain(direct.body.detail as string);

    const anonymous = await callTool(await mcp(), 'advertise_produced', { artifacts: [artifact('nobody')] });
    const anonymousDirect = await rest(
      'POST',
      '/api/v1/advertise/produced',
      { artifacts: [artifact('nobody')] },
      null,
    );
    expect(anonymous.isError).toBe(true);
    expect(anonymous.content).toMatchObject({ type: anonymousDirect.body.type, status: 401 });

    const listed = await callTool(await mcp(deploymentToken), 'advertise_produced', {
      run: { external_key: 'mcp-e2e-run-2' },
      artifacts: [{ title: 'advertised over mcp', conforms_to: TYPE }],
    });
    expect(listed.isError, listed.text).toBe(false);
    const run = await rest(
      'GET',
      `/api/v1/runs/${encodeURIComponent(listed.content.run as string)}`,
      undefined,
      null,
    );
    expect(run.body).toMatchObject({ external_key: 'mcp-e2e-run-2', instance: instance.iri });
  });

  it('answers SPARQL within its row budget, saying when the budget cut the answer, and refuses updates', async () => {
    const client = await mcp();
    const cut = await callTool(client, 'sparql_query', {
      query: 'SELECT ?s ?p ?o WHERE { ?s ?p ?o }',
      max_rows: 3,
    });
    expect(cut.isError, cut.text).toBe(false);
    expect(cut.content).toMatchObject({
      form: 'SELECT',
      partial: true,
      row_budget: 3,
      vars: ['s', 'p', 'o'],
    });
    expect(cut.content.rows).toHaveLength(3);
    expect(cut.content.reason).toMatch(/row budget/);

    const whole = await callTool(client, 'sparql_query', {
      query: `SELECT ?name WHERE { <${software.iri}> <https://schema.org/name> ?name }`,
    });
    expect(whole.content).toMatchObject({ partial: false, row_budget: 100 });
    expect(whole.content.rows).toEqual([{ name: { type: 'literal', value: 'mcp-e2e-tool' } }]);

    const ask = await callTool(client, 'sparql_query', { query: `ASK { <${software.iri}> ?p ?o }` });
    expect(ask.content).toMatchObject({ form: 'ASK', boolean: true, partial: false });

    const update = await callTool(client, 'sparql_query', {
      query: 'INSERT DATA { <urn:a> <urn:b> <urn:c> }',
    });
    const direct = await fetch(`${server.url}/sparql`, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query' },
      body: 'INSERT DATA { <urn:a> <urn:b> <urn:c> }',
    });
    expect(update.isError).toBe(true);
    expect(update.content.type).toBe(((await direct.json()) as Json).type);
    expect(update.content.status).toBe(403);
  });

  it('answers GET and DELETE with 405, and a bad credential with 401 and the Bearer challenge', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${server.url}/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
    const refused = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer not-a-token-of-this-registry',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer realm="reg", resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="token is unknown, revoked or expired"`,
    );
  });

  it('publishes the protected-resource metadata of the registry and of its MCP endpoint (RFC 9728)', async () => {
    for (const [path, resource] of [
      ['/.well-known/oauth-protected-resource', BASE],
      ['/.well-known/oauth-protected-resource/mcp', `${BASE}/mcp`],
    ] as const) {
      const answer = await rest('GET', path, undefined, null);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        resource,
        authorization_servers: [provider.issuer],
        bearer_methods_supported: ['header'],
        resource_name: expect.any(String),
        resource_documentation: `${BASE}/llms.txt`,
      });
    }
    const described = await rest('GET', '/.well-known/reg-registry', undefined, null);
    expect(described.body.mcp_url).toBe(`${BASE}/mcp`);
  });
});
