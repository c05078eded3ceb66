import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN, tempDir } from '../helpers.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8';
const SHELL =
  '<!doctype html><html><head><script type="module" src="/assets/main-abc123.js"></script></head><body><div id="app"></div></body></html>';
/** The shell as served: the registry's base IRI written into it. */
const SERVED = SHELL.replace(
  '</head>',
  '<meta name="reg-base-iri" content="http://registry.test" />\n  </head>',
);
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;
const auth = { authorization: `Bearer ${ROOT_TOKEN}` };

/** A built page in miniature: the shell, one hashed script with its Brotli copy, an icon, and a stray file. */
function staticDir(): string {
  const dir = tempDir('reg-ui-');
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), SHELL);
  fs.writeFileSync(path.join(dir, 'assets', 'main-abc123.js'), SCRIPT);
  fs.writeFileSync(path.join(dir, 'assets', 'main-abc123.js.br'), zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(dir, 'notes.md'), 'not served');
  return dir;
}

async function createSoftware(core: Core): Promise<{ id: string; iri: string }> {
  const response = await createApp(core).request('/api/v1/software', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'web-page-test', kinds: ['service'] }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; iri: string };
}

describe('the web page on a public registry', () => {
  let core: Core;
  let app: ReturnType<typeof createApp>;
  let software: { id: string; iri: string };
  const get = (url: string, headers: Record<string, string> = {}) => app.request(url, { headers });

  beforeAll(async () => {
    core = await openTestCore(
      { REG_STATIC_DIR: staticDir(), REG_OIDC_ISSUER: 'https://id.example.org/realms/reg' },
      true,
    );
    app = createApp(core);
    software = await createSoftware(core);
  });
  afterAll(async () => core.close());

  it('gives browsers the shell at a record IRI, with Signposting links and a strict security policy', async () => {
    const response = await get(`/software/${software.id}`, { accept: BROWSER });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toBe(SERVED);
    expect(response.headers.get('vary')).toBe('Accept');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('link')).toContain(`<${software.iri}>; rel="cite-as"`);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self' https://id.example.org");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    // `.html` asks for the page whatever the Accept header says.
    expect((await get(`/software/${software.id}.html`, { accept: 'text/turtle' })).status).toBe(200);
  });

  it('keeps data for everyone else: no Accept, */*, an extension, or data ranked above HTML', async () => {
    for (const [url, accept] of [
      [`/software/${software.id}`, undefined],
      [`/software/${software.id}`, '*/*'],
      [`/software/${software.id}.ttl`, BROWSER],
      [`/software/${software.id}`, 'text/turtle, text/html;q=0.5'],
    ] as const) {
      const response = await get(url, accept === undefined ? {} : { accept });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type'), `${url} ${accept}`).toMatch(/^text\/turtle/);
    }
    const json = await get(`/software/${software.id}`, { accept: 'application/json' });
    expect(((await json.json()) as { iri: string }).iri).toBe(software.iri);
  });

  it('answers 404 with the shell for an unknown record, and the shell for page paths the API does not know', async () => {
    const unknown = await get('/artifact/019a0000-0000-7000-8000-000000000000', { accept: BROWSER });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe(SERVED);
    expect(unknown.headers.get('link')).toBeNull();
    for (const page of [
      '/',
      '/software',
      '/software/new',
      '/instances',
      '/search?q=x',
      '/auth/callback?code=1',
    ]) {
      const response = await get(page, { accept: BROWSER });
      expect(response.status, page).toBe(200);
      expect(await response.text()).toBe(SERVED);
    }
    // The API's own unknown paths stay problems, whatever the client accepts.
    const api = await get('/api/v1/nothing-here', { accept: BROWSER });
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toBe('application/problem+json');
    const data = await get('/no-such-page', { accept: 'application/json' });
    expect(data.status).toBe(404);
    expect(data.headers.get('content-type')).toBe('application/problem+json');
  });

  it('opens the query console at /sparql for browsers and answers queries there for everyone else', async () => {
    const console = await get('/sparql', { accept: BROWSER });
    expect(console.status).toBe(200);
    expect(await console.text()).toBe(SERVED);
    // A linked console state (`?query=`) opens the console too; clients asking for results get results.
    const query = encodeURIComponent('ASK { ?s ?p ?o }');
    expect(await (await get(`/sparql?query=${query}`, { accept: BROWSER })).text()).toBe(SERVED);
    for (const accept of [undefined, '*/*', 'application/sparql-results+json']) {
      const answer = await get(`/sparql?query=${query}`, accept === undefined ? {} : { accept });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ boolean: true });
    }
    const bare = await get('/sparql', { accept: 'application/sparql-results+json' });
    expect(bare.status).toBe(400);
  });

  it('serves hashed assets precompressed and cached for a year, and only the known top-level files', async () => {
    const plain = await get('/assets/main-abc123.js');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toMatch(/javascript/);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await plain.text()).toBe(SCRIPT);
    const brotli = await get('/assets/main-abc123.js', { 'accept-encoding': 'gzip, br' });
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(zlib.brotliDecompressSync(Buffer.from(await brotli.arrayBuffer())).toString()).toBe(SCRIPT);
    expect((await get('/favicon.svg')).headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect((await get('/assets/missing-000.js')).status).toBe(404);
    expect((await get('/notes.md', { accept: 'text/plain' })).status).toBe(404);
    expect((await get('/assets/%2e%2e/index.html')).status).toBe(404);
  });
});

describe('the web page on a private registry', () => {
  let core: Core;
  let app: ReturnType<typeof createApp>;
  let software: { id: string; iri: string };

  beforeAll(async () => {
    core = await openTestCore({ REG_STATIC_DIR: staticDir(), REG_PUBLIC_READ: 'false' }, true);
    app = createApp(core);
    software = await createSoftware(core);
  });
  afterAll(async () => core.close());

  it('gives an anonymous browser the shell with nothing about the record, and its data only with a credential', async () => {
    const page = await app.request(`/software/${software.id}`, { headers: { accept: BROWSER } });
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(SERVED);
    expect(page.headers.get('link')).toBeNull();
    // The same answer for a record that does not exist: the shell does not tell which ids are taken.
    const unknown = await app.request('/software/019a0000-0000-7000-8000-000000000000', {
      headers: { accept: BROWSER },
    });
    expect(unknown.status).toBe(200);
    for (const url of [`/software/${software.id}.ttl`, `/software/${software.id}`, '/api/v1/software']) {
      const refused = await app.request(url, {
        headers: { accept: url.startsWith('/api') ? BROWSER : 'text/turtle' },
      });
      expect(refused.status, url).toBe(401);
    }
    expect((await app.request('/assets/main-abc123.js')).status).toBe(200);
    const signedIn = await app.request(`/software/${software.id}`, { headers: { ...auth, accept: BROWSER } });
    expect(signedIn.headers.get('link')).toContain('rel="cite-as"');
  });
});

describe('a registry whose web page is not built', () => {
  it('answers browsers with problems instead of an empty page', async () => {
    const core = await openTestCore({ REG_STATIC_DIR: tempDir('reg-no-ui-') }, true);
    try {
      const app = createApp(core);
      const software = await createSoftware(core);
      const record = await app.request(`/software/${software.id}`, { headers: { accept: BROWSER } });
      expect(record.status).toBe(406);
      expect(((await record.json()) as { detail: string }).detail).toContain('no web page');
      expect((await app.request('/software', { headers: { accept: BROWSER } })).status).toBe(404);
    } finally {
      await core.close();
    }
  });
});

describe('the page built into the package', () => {
  it('has a shell whose scripts and styles are all served', async () => {
    const core = await openTestCore({}, true);
    try {
      const app = createApp(core);
      const shell = await (await app.request('/', { headers: { accept: BROWSER } })).text();
      const assets = [...shell.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
      expect(assets.length).toBeGreaterThanOrEqual(2);
      for (const asset of assets) expect((await app.request(asset)).status, asset).toBe(200);
    } finally {
      await core.close();
    }
  });
});
