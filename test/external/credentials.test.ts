import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openCore } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { GRAPHS } from '../../src/core/ns.js';
import { factory } from '../../src/core/store/nquads.js';
import { testConfig } from '../helpers.js';
import { startNginx, type NginxProxy } from '../support/nginx.js';
import {
  startVirtuosoSync,
  VIRTUOSO_PASSWORD,
  VIRTUOSO_USER,
  type VirtuosoServer,
} from '../support/virtuoso.js';

const TOKEN = 'proxy-bearer-7f3c2a9e51d04b6c';
const USER = 'registry';
const PASSWORD = 'proxy-pass-4b1e9d7a';
const NO_SECRET = 'no-secret-configured';

let server: VirtuosoServer;
let proxy: NginxProxy;

beforeAll(async () => {
  server = startVirtuosoSync(inject('virtuosoTemplate'));
  proxy = await startNginx(server.httpPort, { token: TOKEN, username: USER, password: PASSWORD });
});

afterAll(async () => {
  await proxy.stop();
  await server.dispose();
});

/** Opens a registry with these graph store settings, writes a record and reads it back. */
async function roundTrip(settings: Record<string, string>): Promise<string | undefined> {
  const core = await openCore(testConfig(settings), silentLogger);
  try {
    const subject = `http://registry.test/software/${settings.REG_SPARQL_ENDPOINT!.length}-${Date.now()}`;
    const { namedNode, literal, quad } = factory;
    await core.graph.commit(
      [
        {
          graph: GRAPHS.local,
          subject,
          kind: 'software',
          quads: [
            quad(
              namedNode(subject),
              namedNode('https://schema.org/name'),
              literal('through'),
              namedNode(GRAPHS.local),
            ),
          ],
        },
      ],
      () => undefined,
    );
    return await core.graph.readRecord(GRAPHS.local, subject);
  } finally {
    await core.close();
  }
}

/** The error a registry start with these settings fails with. */
async function refusal(
  settings: Record<string, string>,
): Promise<Error & { status?: number; detail?: string }> {
  try {
    const core = await openCore(testConfig(settings), silentLogger);
    await core.close();
  } catch (error) {
    return error as Error & { status?: number; detail?: string };
  }
  throw new Error('the registry opened');
}

describe('credentials for the external graph store', () => {
  it('sends a bearer token that nginx checks', async () => {
    const text = await roundTrip({ REG_SPARQL_ENDPOINT: proxy.bearerUrl, REG_SPARQL_BEARER_TOKEN: TOKEN });
    expect(text).toContain('"through"');
  });

  it('answers nginx Basic authentication with the username and password', async () => {
    const text = await roundTrip({
      REG_SPARQL_ENDPOINT: proxy.basicUrl,
      REG_SPARQL_USERNAME: USER,
      REG_SPARQL_PASSWORD: PASSWORD,
    });
    expect(text).toContain('"through"');
  });

  it('answers Virtuoso Digest authentication (RFC 7616, MD5, qop=auth) on /sparql-auth', async () => {
    const text = await roundTrip({
      REG_SPARQL_ENDPOINT: server.sparqlAuthUrl,
      REG_SPARQL_USERNAME: VIRTUOSO_USER,
      REG_SPARQL_PASSWORD: VIRTUOSO_PASSWORD,
    });
    expect(text).toContain('"through"');
  });

  it('takes a username and password written into the endpoint URL, and never shows them', async () => {
    const url = new URL(server.sparqlAuthUrl);
    url.username = VIRTUOSO_USER;
    url.password = VIRTUOSO_PASSWORD;
    expect(await roundTrip({ REG_SPARQL_ENDPOINT: url.href })).toContain('"through"');
    url.password = 'wrong-in-url';
    const error = await refusal({ REG_SPARQL_ENDPOINT: url.href });
    expect(error.message).toContain(server.sparqlAuthUrl);
    expect(error.message).not.toContain('wrong-in-url');
  });

  it('sends queries to REG_SPARQL_ENDPOINT and updates to REG_SPARQL_UPDATE_ENDPOINT', async () => {
    const before = proxy.requests().length;
    const text = await roundTrip({
      REG_SPARQL_ENDPOINT: proxy.bearerUrl,
      REG_SPARQL_UPDATE_ENDPOINT: proxy.bearerUpdateUrl,
      REG_SPARQL_BEARER_TOKEN: TOKEN,
    });
    expect(text).toContain('"through"');
    const requests = proxy.requests().slice(before);
    // The commit is one update request (its record was new: nothing to read first); everything else is a query.
    expect(requests.filter((line) => line.endsWith('/bearer/update'))).toEqual(['POST /bearer/update']);
    expect(
      requests
        .filter((line) => !line.endsWith('/bearer/update'))
        .every((line) => line.endsWith('/bearer/sparql')),
    ).toBe(true);
  });

  it.each([
    [
      'a wrong bearer token',
      () => ({ REG_SPARQL_ENDPOINT: proxy.bearerUrl, REG_SPARQL_BEARER_TOKEN: 'wrong-token-0000' }),
      'wrong-token-0000',
    ],
    [
      'a wrong Basic password',
      () => ({
        REG_SPARQL_ENDPOINT: proxy.basicUrl,
        REG_SPARQL_USERNAME: USER,
        REG_SPARQL_PASSWORD: 'wrong-basic-pass',
      }),
      'wrong-basic-pass',
    ],
    [
      'a wrong Digest password',
      () => ({
        REG_SPARQL_ENDPOINT: server.sparqlAuthUrl,
        REG_SPARQL_USERNAME: VIRTUOSO_USER,
        REG_SPARQL_PASSWORD: 'wrong-digest-pass',
      }),
      'wrong-digest-pass',
    ],
    ['no credential at all', () => ({ REG_SPARQL_ENDPOINT: proxy.basicUrl }), NO_SECRET],
  ])(
    'refuses to start with %s, naming the endpoint and never the secret',
    async (_name, settings, secret) => {
      const values = settings();
      const error = await refusal(values);
      expect(error.status).toBe(503);
      expect(error.message).toContain(values.REG_SPARQL_ENDPOINT.replace(/\?.*$/, ''));
      expect(error.message).toMatch(/refused the credentials \(HTTP 401\)|needs credentials \(HTTP 401\)/);
      expect(error.message).not.toContain(secret);
    },
  );
});
