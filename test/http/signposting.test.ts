import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { REG, SCHEMA } from '../../src/core/ns.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';
import { apiOf, artifact, CC_BY, TYPE, type Json } from '../support/api.js';

const BASE = 'http://registry.test';
const APACHE = 'https://spdx.org/licenses/Apache-2.0';
const REPO = 'https://github.com/example/signposted';
const ROR = 'https://ror.org/02jz4aj89';
let core: Core;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof apiOf>;
/** One record of each kind, as the API returned it when it was created. */
const records: Record<'software' | 'release' | 'instance' | 'type' | 'run' | 'artifact', Json> = {} as never;

/** The typed links of a `Link` header, as `rel <href>` (with `; type` when given), in header order. */
function links(response: Response): string[] {
  const header = response.headers.get('link') ?? '';
  return [...header.matchAll(/<([^>]*)>; rel="([^"]+)"(?:; type="([^"]+)")?/g)].map(
    ([, href, rel, type]) => `${rel} <${href}>${type === undefined ? '' : ` ${type}`}`,
  );
}

/** What every record response carries: its IRI to cite and its Turtle and JSON-LD descriptions. */
const basics = (iri: string) => [
  `cite-as <${iri}>`,
  `describedby <${iri}.ttl> text/turtle`,
  `describedby <${iri}.jsonld> application/ld+json`,
];

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  api = apiOf(app);
  records.software = await api.call('POST', '/api/v1/software', 201, {
    name: 'signposted',
    license: APACHE,
    code_repository: REPO,
    publisher: { name: 'Example Lab', kind: 'organization', identifier: ROR },
  });
  records.release = await api.call('POST', `/api/v1/software/${records.software.id}/releases`, 201, {
    version: '1.0.0',
    downloads: [
      { url: 'https://example.org/dl/linux', platform: 'linux-amd64' },
      { url: 'https://example.org/dl/none', availability: 'metadata-only' },
    ],
  });
  records.instance = await api.call('POST', '/api/v1/instances', 201, {
    software: records.software.id,
    label: 'signposted-eu',
    endpoint_url: 'https://signposted.example.org',
  });
  const { token } = await api.call('POST', `/api/v1/instances/${records.instance.id}/tokens`, 201, {
    scopes: ['advertise:produce'],
  });
  records.type = await api.call('POST', '/api/v1/types', 201, { slug: 'signposted', label: 'Signposted' });
  const advertised = await api.advertise(token as string, 'produced', 'job-1', [
    artifact('Report', { license: CC_BY }),
  ]);
  records.run = await api.call('GET', `/api/v1/runs/${encodeURIComponent(advertised.run as string)}`, 200);
  const [artifactIri] = advertised.artifacts as string[];
  records.artifact = await api.call('GET', `/api/v1/artifacts/${encodeURIComponent(artifactIri!)}`, 200);
});
afterAll(async () => core.close());

/** The API path that reads one record of each kind by its bare id. */
const readPath = (kind: keyof typeof records): string =>
  ({
    software: `/api/v1/software/${records.software.id}`,
    release: `/api/v1/software/${records.software.id}/releases/${records.release.id}`,
    instance: `/api/v1/instances/${records.instance.id}`,
    type: `/api/v1/types/signposted`,
    run: `/api/v1/runs/${records.run.id}`,
    artifact: `/api/v1/artifacts/${records.artifact.id}`,
  })[kind];

describe('Signposting on the API reads of records', () => {
  it.each(['software', 'release', 'instance', 'type', 'run', 'artifact'] as const)(
    'GET of one %s carries the same Link header as its IRI, citing it and naming its descriptions',
    async (kind) => {
      const response = await app.request(readPath(kind));
      expect(response.status).toBe(200);
      const record = (await response.json()) as Json;
      expect(record.iri).toBe(records[kind].iri);
      expect(links(response).slice(0, 3)).toEqual(basics(record.iri as string));
      const dereferenced = await app.request(new URL(record.iri as string).pathname, {
        headers: { accept: 'application/json' },
      });
      expect(dereferenced.headers.get('link')).toBe(response.headers.get('link'));
    },
  );

  it('names the licence, author, bytes, class and collection that apply to each kind', async () => {
    const of = async (kind: keyof typeof records) => links(await app.request(readPath(kind)));
    const software = records.software.iri as string;
    expect(await of('software')).toEqual([
      ...basics(software),
      `alternate <${software}.md> text/markdown`,
      `linkset <${software}.linkset> application/linkset+json`,
      `linkset <${software}.linkset> application/linkset`,
      `type <${SCHEMA('SoftwareApplication')}>`,
      `type <${SCHEMA('SoftwareSourceCode')}>`,
      `type <${REG('Software')}>`,
      `license <${APACHE}>`,
      `author <${ROR}>`,
      `item <${REPO}>`,
      `collection <${BASE}/api/v1/software>`,
    ]);
    const release = await of('release');
    expect(release).toContain('item <https://example.org/dl/linux>');
    expect(release).not.toContain('item <https://example.org/dl/none>');
    expect(release).toContain(`collection <${software}>`);
    const instance = await of('instance');
    expect(instance).toContain('item <https://signposted.example.org>');
    expect(instance).toContain(`collection <${software}>`);
    expect(await of('type')).toContain(`collection <${BASE}/api/v1/types>`);
    expect(await of('run')).toContain(`collection <${BASE}/api/v1/runs>`);
    const artifactLinks = await of('artifact');
    expect(artifactLinks).toContain(`license <${CC_BY}>`);
    expect(artifactLinks).toContain(`type <${TYPE}>`);
    expect(artifactLinks).toContain('item <https://data.example.org/Report.ttl>');
  });

  it('reads a record named by its full IRI with the same links', async () => {
    const iri = records.software.iri as string;
    const byIri = await app.request(`/api/v1/software/${encodeURIComponent(iri)}`);
    expect(byIri.status).toBe(200);
    expect(links(byIri).slice(0, 3)).toEqual(basics(iri));
    const type = await app.request(`/api/v1/types/${encodeURIComponent(records.type.iri as string)}`);
    expect(links(type)[0]).toBe(`cite-as <${records.type.iri as string}>`);
  });

  it('gives no links where no record of this registry is read', async () => {
    const missing = await app.request('/api/v1/software/0190aaaa-0000-7000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('link')).toBeNull();
    // A bundled vocabulary term is read through the types API, but its IRI is not this registry's to describe.
    const bundled = await app.request(`/api/v1/types/${encodeURIComponent(TYPE)}`);
    expect(bundled.status).toBe(200);
    expect(bundled.headers.get('link')).toBeNull();
    const identify = await app.request('/api/v1/artifacts/identify?algorithm=sha256&value=00ff');
    expect(identify.headers.get('link')).toBeNull();
  });

  it('reads a release only through its own software', async () => {
    const other = await api.call('POST', '/api/v1/software', 201, { name: 'other' });
    const wrong = await app.request(`/api/v1/software/${other.id}/releases/${records.release.id}`);
    expect(wrong.status).toBe(404);
    expect(((await wrong.json()) as Json).code).toBe('not-found');
    expect(wrong.headers.get('link')).toBeNull();
  });
});
