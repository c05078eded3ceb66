import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { fetchApiDoc } from '../../src/core/catalogue/api-doc.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

const OPENAPI = JSON.stringify({ openapi: '3.1.0', info: { title: 'Example', version: '1' }, paths: {} });
const auth = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };

let core: Core;
let app: ReturnType<typeof createApp>;
let server: Server;
let host: string;
const requests: string[] = [];

/** A loopback host that serves API documents, redirects, failures, a large body and a stalled answer. */
function startDocumentHost(): Promise<Server> {
  const big = Buffer.alloc(3 * 1024 * 1024, 'a');
  const started = createServer((request, response) => {
    const url = request.url ?? '/';
    requests.push(url);
    const redirect = (location: string) => response.writeHead(302, { location }).end();
    if (url === '/openapi.json') response.writeHead(200, { 'content-type': 'application/json' }).end(OPENAPI);
    else if (url === '/spec.yaml') response.writeHead(200).end('openapi: 3.1.0\n');
    else if (url.startsWith('/hop/')) {
      const left = Number(url.slice('/hop/'.length));
      redirect(left === 0 ? '/openapi.json' : `/hop/${left - 1}`);
    } else if (url === '/elsewhere')
      redirect(`http://localhost:${(started.address() as AddressInfo).port}/openapi.json`);
    else if (url === '/big') response.writeHead(200, { 'content-type': 'text/plain' }).end(big);
    else if (url === '/big-chunked') {
      response.writeHead(200, { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' });
      for (let i = 0; i < 3; i++) response.write(big.subarray(0, 1024 * 1024));
      response.end();
    } else if (url === '/stall') response.writeHead(200, { 'content-type': 'application/json' }).write('{');
    else response.writeHead(404).end('no');
  });
  return new Promise((resolve) => started.listen(0, '127.0.0.1', () => resolve(started)));
}

async function registerSoftware(urls: string[], on = app): Promise<string> {
  const response = await on.request('/api/v1/software', {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      name: 'documented',
      api_docs: urls.map((url) => ({
        url,
        format: url.endsWith('.ttl') ? 'sparql-service-description' : 'openapi',
      })),
    }),
  });
  const body = (await response.json()) as { id: string };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.id;
}

const docs = [
  '/openapi.json',
  '/hop/2',
  '/hop/3',
  '/elsewhere',
  '/big',
  '/big-chunked',
  '/missing',
  '/spec.yaml',
];
let id: string;

beforeAll(async () => {
  // The document host listens on loopback, which only a registry that allows private targets fetches from.
  core = await openTestCore({ REG_API_DOC_ALLOW_PRIVATE_TARGETS: 'true' }, true);
  app = createApp(core);
  server = await startDocumentHost();
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  id = await registerSoftware(docs.map((doc) => `${host}${doc}`));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await core.close();
});

const apiDoc = (query = '', software = id) => app.request(`/api/v1/software/${software}/api-doc${query}`);
const at = (doc: string) => `?n=${docs.indexOf(doc)}`;

async function expectUpstreamFailure(response: Response): Promise<Record<string, unknown>> {
  expect(response.status).toBe(502);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const problem = (await response.json()) as Record<string, unknown>;
  expect(problem).toMatchObject({
    code: 'upstream-failed',
    type: 'https://w3id.org/reg/problem/upstream-failed',
  });
  return problem;
}

describe('GET /api/v1/software/:id/api-doc', () => {
  it('passes the first declared document through with its content type', async () => {
    const response = await apiDoc();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    expect(await response.text()).toBe(OPENAPI);
  });

  it('guesses the content type from the URL when the host states none', async () => {
    const response = await apiDoc(at('/spec.yaml'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/yaml');
    expect(await response.text()).toBe('openapi: 3.1.0\n');
  });

  it('follows up to three redirects on the same host, and no more', async () => {
    const followed = await apiDoc(at('/hop/2'));
    expect(followed.status).toBe(200);
    expect(followed.headers.get('link')).toBe(`<${host}/openapi.json>; rel="via"`);
    expect(await followed.text()).toBe(OPENAPI);
    await expectUpstreamFailure(await apiDoc(at('/hop/3')));
  });

  it('refuses a redirect to another host without fetching it', async () => {
    const before = requests.length;
    await expectUpstreamFailure(await apiDoc(at('/elsewhere')));
    expect(requests.slice(before)).toEqual(['/elsewhere']);
  });

  it('refuses documents above 2 MiB, declared or streamed', async () => {
    await expectUpstreamFailure(await apiDoc(at('/big')));
    await expectUpstreamFailure(await apiDoc(at('/big-chunked')));
    await expect(fetchApiDoc(core, id, String(docs.indexOf('/big-chunked')))).rejects.toMatchObject({
      detail: expect.stringContaining(`is larger than ${2 * 1024 * 1024} bytes`),
    });
  });

  it('passes a document of exactly the size limit and refuses one a byte larger', async () => {
    const exact = { timeoutMs: 5000, maxBytes: OPENAPI.length, maxRedirects: 3 };
    const doc = await fetchApiDoc(core, id, '0', exact);
    expect(Buffer.from(doc.body).toString('utf8')).toBe(OPENAPI);
    await expect(
      fetchApiDoc(core, id, '0', { ...exact, maxBytes: OPENAPI.length - 1 }),
    ).rejects.toMatchObject({ code: 'upstream-failed', detail: expect.stringContaining('is larger than') });
  });

  it('reports an upstream error status as upstream-failed', async () => {
    const problem = await expectUpstreamFailure(await apiDoc(at('/missing')));
    expect(problem.upstream_status).toBe(404);
  });

  it('answers 404 out of range or for unknown software, and 400 for a malformed index', async () => {
    for (const response of [
      await apiDoc(`?n=${docs.length}`),
      await apiDoc('', '019a0000-0000-7000-8000-000000000000'),
    ]) {
      expect(response.status).toBe(404);
      expect(((await response.json()) as { code: string }).code).toBe('not-found');
    }
    const bad = await apiDoc('?n=-1');
    expect(bad.status).toBe(400);
    const none = await registerSoftware([]);
    expect((await apiDoc('', none)).status).toBe(404);
  });

  it('takes only http(s) documents: another scheme is refused when the record is written', async () => {
    const response = await app.request('/api/v1/software', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        name: 'documented over ftp',
        api_docs: [{ url: 'ftp://127.0.0.1/openapi.json', format: 'openapi' }],
      }),
    });
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { errors: { field: string }[] };
    expect([...new Set(problem.errors.map((error) => error.field))]).toEqual(['api_docs[0].url']);
  });

  it('gives up on a host that stops answering', async () => {
    const stalled = await registerSoftware([`${host}/stall`]);
    const limits = { timeoutMs: 300, maxBytes: 1024, maxRedirects: 3 };
    await expect(fetchApiDoc(core, stalled, '0', limits)).rejects.toMatchObject({
      code: 'upstream-failed',
      status: 502,
      detail: expect.stringContaining('did not arrive within 0.3 s'),
    });
  });
});

describe('GET /api/v1/software/:id/api-doc on a registry that fetches from public addresses only', () => {
  let strict: Core;
  let strictApp: ReturnType<typeof createApp>;
  beforeAll(async () => {
    strict = await openTestCore({}, true);
    strictApp = createApp(strict);
  });
  afterAll(async () => {
    await strict.close();
  });

  it('refuses a loopback document without connecting to it', async () => {
    const software = await registerSoftware([`${host}/openapi.json`], strictApp);
    const before = requests.length;
    const problem = await expectUpstreamFailure(
      await strictApp.request(`/api/v1/software/${software}/api-doc`),
    );
    expect(problem.refused).toBe('non-public');
    await expect(fetchApiDoc(strict, software, '0')).rejects.toMatchObject({
      detail: expect.stringMatching(/^refused: not a public address: /),
      cause: { message: '127.0.0.1 is not a public address (loopback)' },
    });
    expect(requests.length).toBe(before);
  });

  it('refuses a host name when any address it resolves to is not public', async () => {
    const software = await registerSoftware(
      ['http://metadata.example/latest', 'http://mixed.example/openapi.json'],
      strictApp,
    );
    const addresses: Record<string, { address: string; family: 4 | 6 }[]> = {
      'metadata.example': [{ address: '169.254.169.254', family: 4 }],
      'mixed.example': [
        { address: '93.184.215.14', family: 4 },
        { address: '::ffff:10.0.0.7', family: 6 },
      ],
    };
    const limits = {
      timeoutMs: 2000,
      maxBytes: 1024,
      maxRedirects: 3,
      resolve: (name: string) => Promise.resolve(addresses[name] ?? []),
    };
    await expect(fetchApiDoc(strict, software, '0', limits)).rejects.toMatchObject({
      code: 'upstream-failed',
      cause: {
        message: 'metadata.example resolves to 169.254.169.254, which is not a public address (link-local)',
      },
    });
    await expect(fetchApiDoc(strict, software, '1', limits)).rejects.toMatchObject({
      code: 'upstream-failed',
      cause: { message: expect.stringContaining('::ffff:10.0.0.7') },
    });
  });
});
