import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, UnexpectedResponseError, UnreachableError } from '../../src/cli/client/errors.js';
import { HttpClient } from '../../src/cli/client/http.js';
import type { Profile } from '../../src/cli/client/profile.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';

const TOKEN = 'secret-token-do-not-print-0123';
const seen: {
  method: string;
  url: string;
  auth: string | undefined;
  type: string | undefined;
  body: string;
}[] = [];
let server: http.Server;
let base: string;

// A loopback server answering each path the way a registry (or something in front of it) might.
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        auth: req.headers.authorization,
        type: req.headers['content-type'],
        body,
      });
      const problem = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/problem+json' }).end(JSON.stringify(value));
      };
      if (req.url?.startsWith('/ok'))
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}');
      else if (req.url === '/gone') res.writeHead(204).end();
      else if (req.url === '/invalid') {
        const errors = [
          { field: 'name', message: 'name is required' },
          { field: 'kinds', message: 'kinds: kind must be one of service, library' },
        ];
        problem(422, {
          type: 'https://w3id.org/reg/problem/shacl-validation-failed',
          title: 'Write rejected by SHACL validation',
          status: 422,
          detail: errors.map((e) => e.message).join('; '),
          code: 'shacl-validation-failed',
          errors,
        });
      } else if (req.url === '/missing') {
        problem(404, {
          type: 'https://w3id.org/reg/problem/not-found',
          title: 'Not found',
          status: 404,
          detail: 'no x',
        });
      } else if (req.url === '/html')
        res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>bad gateway</h1>');
      else if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
      else if (req.url === '/moved') res.writeHead(301, { location: 'https://elsewhere.test/' }).end();
      else if (req.url === '/slow') setTimeout(() => res.end('{}'), 3000);
      else res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const profile = (overrides: Partial<Profile> = {}): Profile => ({
  url: base,
  token: TOKEN,
  timeout: 5,
  name: undefined,
  configFile: undefined,
  sources: { url: 'flag', token: 'env' },
  ...overrides,
});

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('the HTTP client', () => {
  it('sends the bearer token, query and JSON body, and reads JSON or nothing back', async () => {
    const client = new HttpClient(profile());
    expect(await client.request('GET', '/ok', { query: { q: 'a b', limit: 5, cursor: undefined } })).toEqual({
      a: 1,
    });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/ok?q=a+b&limit=5', auth: `Bearer ${TOKEN}` });
    await client.request('PATCH', '/ok', {
      body: { tagline: null },
      contentType: 'application/merge-patch+json',
    });
    expect(seen.at(-1)).toMatchObject({ type: 'application/merge-patch+json', body: '{"tagline":null}' });
    expect(await client.request('DELETE', '/gone')).toBeUndefined();
    await new HttpClient(profile({ token: undefined })).request('GET', '/ok');
    expect(seen.at(-1)?.auth).toBeUndefined();
  });

  it('turns a problem into an ApiError with its status, code and field errors, said once each', async () => {
    const error = await failure(new HttpClient(profile()).request('POST', '/invalid', { body: {} }));
    expect(error).toBeInstanceOf(ApiError);
    const api = error as ApiError;
    expect(api.status).toBe(422);
    expect(api.code).toBe('shacl-validation-failed');
    expect(api.message).toBe('422 Write rejected by SHACL validation: 2 fields were refused');
    expect(api.errors.map((e) => e.field)).toEqual(['name', 'kinds']);
    expect(api.problem).toMatchObject({ status: 422 });
    expect(exitCodeFor(api)).toBe(8);

    const missing = await failure(new HttpClient(profile()).request('GET', '/missing'));
    expect(missing.message).toBe('404 Not found: no x');
    expect(exitCodeFor(missing)).toBe(7);
  });

  it('reports answers that are not problems, not JSON, or redirects', async () => {
    const html = await failure(new HttpClient(profile()).request('GET', '/html'));
    expect(html).toBeInstanceOf(ApiError);
    expect(html.message).toBe('502 Bad Gateway: the answer was not problem+json');
    expect(exitCodeFor(html)).toBe(12);
    const page = await failure(new HttpClient(profile()).request('GET', '/page'));
    expect(page).toBeInstanceOf(UnexpectedResponseError);
    expect(page.message).toMatch(/answered 200 with text\/html, not JSON/);
    const moved = await failure(new HttpClient(profile()).request('GET', '/moved'));
    expect(moved.message).toMatch(/was redirected \(301\) to https:\/\/elsewhere\.test\//);
  });

  it('names the URL and where it came from when the registry cannot be reached or is too slow', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await failure(
      new HttpClient(profile({ url: `http://127.0.0.1:${port}` })).request('GET', '/ok'),
    );
    expect(refused).toBeInstanceOf(UnreachableError);
    expect(refused.message).toBe(`cannot reach http://127.0.0.1:${port} (from --url): connection refused`);
    expect(exitCodeFor(refused)).toBe(10);

    const slow = await failure(new HttpClient(profile({ timeout: 1 })).request('GET', '/slow'));
    expect(slow).toBeInstanceOf(UnreachableError);
    expect(slow.message).toBe(`${base} (from --url) did not answer within 1 s`);
    for (const error of [refused, slow])
      expect(JSON.stringify({ ...error, m: error.message })).not.toContain(TOKEN);
  });
});
