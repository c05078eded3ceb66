import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { apiOf, artifact, CC_BY, type Json } from '../support/api.js';
import { openTestCore } from '../helpers.js';

// Every read of one record carries the entity tag of the stored record's version; it changes with every edit,
// and the IRI's RDF forms, which are the stored record and nothing else, answer If-None-Match with 304.
let core: Core;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof apiOf>;
const records: Record<string, Json> = {};

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  api = apiOf(app);
  const { software, instance, token } = await api.deployment(undefined, 'tagged');
  records.software = software;
  records.instance = instance;
  records.release = await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, {
    version: '2.0.0',
  });
  records.type = await api.call('POST', '/api/v1/types', 201, { slug: 'tagged', label: 'Tagged' });
  const advertised = await api.advertise(token, 'produced', 'job-tagged', [
    artifact('Tagged report', { license: CC_BY }),
  ]);
  records.run = await api.call('GET', `/api/v1/runs/${encodeURIComponent(advertised.run as string)}`, 200);
  const [artifactIri] = advertised.artifacts as string[];
  records.artifact = await api.call('GET', `/api/v1/artifacts/${encodeURIComponent(artifactIri!)}`, 200);
});
afterAll(async () => core.close());

const readPath = (kind: string): string =>
  ({
    software: `/api/v1/software/${records.software!.id}`,
    release: `/api/v1/software/${records.software!.id}/releases/${records.release!.id}`,
    instance: `/api/v1/instances/${records.instance!.id}`,
    type: `/api/v1/types/tagged`,
    run: `/api/v1/runs/${records.run!.id}`,
    artifact: `/api/v1/artifacts/${records.artifact!.id}`,
  })[kind] as string;

const STRONG_TAG = /^"[A-Za-z0-9_-]{22}"$/;

describe('ETag on API reads of one record', () => {
  it.each(['software', 'release', 'instance', 'type', 'run', 'artifact'])(
    'GET of a %s carries a strong ETag that stays while the record does',
    async (kind) => {
      const first = await app.request(readPath(kind));
      expect(first.status).toBe(200);
      const tag = first.headers.get('etag');
      expect(tag).toMatch(STRONG_TAG);
      expect((await app.request(readPath(kind))).headers.get('etag')).toBe(tag);
    },
  );

  it('gives each record a tag of its own', async () => {
    const tags = new Set<string | null>();
    for (const kind of ['software', 'release', 'instance', 'type', 'run', 'artifact'])
      tags.add((await app.request(readPath(kind))).headers.get('etag'));
    expect(tags.size).toBe(6);
  });

  it('changes the tag with every edit, and a PATCH answers with the tag a read then gives', async () => {
    const path = readPath('software');
    const before = (await app.request(path)).headers.get('etag');
    const patched = await api.send('PATCH', path, { description: 'first edit' });
    expect(patched.status).toBe(200);
    const after = (await app.request(path)).headers.get('etag');
    expect(after).not.toBe(before);
    expect(patched.headers.get('etag')).toBe(after);
    await api.call('PATCH', path, 200, { description: 'second edit' });
    expect((await app.request(path)).headers.get('etag')).not.toBe(after);
  });

  it('gives no ETag to an answer that is not one record', async () => {
    expect((await app.request('/api/v1/software')).headers.get('etag')).toBeNull();
    expect((await app.request('/api/v1/software/no-such-software')).headers.get('etag')).toBeNull();
  });
});

describe('ETag and If-None-Match at record IRIs', () => {
  const iriPath = () => `/software/${records.software!.id}`;

  it('tags each form of one version apart, the JSON as the API read does', async () => {
    const read = (await app.request(readPath('software'))).headers.get('etag') as string;
    const version = read.slice(1, -1);
    const forms = { 'application/json': read, 'text/turtle': `"${version}.ttl"` } as const;
    for (const [accept, tag] of Object.entries(forms)) {
      const response = await app.request(iriPath(), { headers: { accept } });
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toBe(tag);
    }
    const nquads = await app.request(`${iriPath()}.nq`);
    expect(nquads.headers.get('etag')).toBe(`"${version}.nq"`);
    const jsonld = await app.request(`${iriPath()}.jsonld`);
    expect(jsonld.headers.get('etag')).toBe(`"${version}.jsonld"`);
  });

  it('answers 304 to If-None-Match naming the current Turtle, and 200 once the record changed', async () => {
    const first = await app.request(`${iriPath()}.ttl`);
    const tag = first.headers.get('etag') as string;
    const again = await app.request(`${iriPath()}.ttl`, { headers: { 'if-none-match': `"other", ${tag}` } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(tag);
    expect(await again.text()).toBe('');
    await api.call('PATCH', readPath('software'), 200, { description: 'changed for the cache' });
    const changed = await app.request(`${iriPath()}.ttl`, { headers: { 'if-none-match': tag } });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain('changed for the cache');
  });

  it('answers the JSON in full even when If-None-Match names it: its derived counts are not covered', async () => {
    const tag = (await app.request(readPath('software'))).headers.get('etag') as string;
    const response = await app.request(iriPath(), {
      headers: { accept: 'application/json', 'if-none-match': tag },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Json).release_count).toBe(1);
  });
});
