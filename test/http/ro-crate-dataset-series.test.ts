/** An artifact series, the versions of one artifact, read as a DCAT 3 dataset series. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { markLineageStale } from '../../src/core/store/lineage/lineage-index.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let token: string;

async function call(method: string, path: string, body?: unknown, bearer = ROOT_TOKEN) {
  const response = await app.request(path, {
    method,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: (await response.json()) as any,
  };
}

const idOf = (iri: string) => iri.slice(iri.lastIndexOf('/') + 1);

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  const software = await call('POST', '/api/v1/software', { name: 'exporter' });
  const instance = await call('POST', '/api/v1/instances', { software: software.body.id, label: 'nightly' });
  token = (await call('POST', `/api/v1/instances/${instance.body.id}/tokens`, {})).body.token;
});
afterAll(async () => core.close());

describe('GET /api/v1/artifact-series/{id}', () => {
  it('is a dcat:DatasetSeries with its members in order, first and last, each in the series after the one before', async () => {
    const versions: string[] = [];
    for (const [day, version] of [
      ['2026-11-01', '1'],
      ['2026-11-02', '2'],
      ['2026-11-03', '3'],
    ] as const) {
      const previous = versions.at(-1);
      const answer = await call(
        'POST',
        '/api/v1/advertise/produced',
        {
          run: { external_key: `day-${day}` },
          artifacts: [
            {
              title: 'customer table',
              version,
              issued: `${day}T00:00:00Z`,
              ...(previous === undefined ? {} : { version_of: previous }),
            },
          ],
        },
        token,
      );
      expect(answer.status).toBeLessThan(300);
      versions.push(answer.body.artifacts[0]);
    }
    const first = (await call('GET', `/api/v1/artifacts/${idOf(versions[0]!)}`)).body;
    const seriesIri: string = first.is_version_of[0];
    const { status, type, body } = await call('GET', `/api/v1/artifact-series/${idOf(seriesIri)}`);
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/ld\+json/);
    expect(body['@context']).toMatchObject({
      dcat: 'http://www.w3.org/ns/dcat#',
      dct: 'http://purl.org/dc/terms/',
    });
    const [series, ...members] = body['@graph'];
    expect(series).toMatchObject({
      '@id': seriesIri,
      '@type': 'dcat:DatasetSeries',
      'dcat:seriesMember': versions.map((iri) => ({ '@id': iri })),
      'dcat:first': { '@id': versions[0] },
      'dcat:last': { '@id': versions[2] },
    });
    expect(members.map((member: any) => member['@id'])).toEqual(versions);
    expect(members.map((member: any) => member['dcat:version'])).toEqual(['1', '2', '3']);
    for (const member of members) expect(member['dcat:inSeries']).toEqual({ '@id': seriesIri });
    expect(members[0]['dcat:prev']).toBeUndefined();
    expect(members[1]['dcat:prev']).toEqual({ '@id': versions[0] });
    expect(members[2]['dcat:prev']).toEqual({ '@id': versions[1] });
    expect(members[0]['dct:issued']).toEqual({
      '@value': '2026-11-01T00:00:00.000Z',
      '@type': 'xsd:dateTime',
    });
    // A version registered last but issued first (with an offset) comes first, from the lineage index as by the
    // query while that index is filled.
    const late = await call(
      'POST',
      '/api/v1/advertise/produced',
      {
        run: { external_key: 'day-late' },
        artifacts: [
          {
            title: 'customer table',
            version: '0',
            issued: '2026-11-01T00:30:00+02:00',
            version_of: versions[2],
          },
        ],
      },
      token,
    );
    expect(late.status).toBeLessThan(300);
    const fromIndex = (await call('GET', `/api/v1/artifact-series/${idOf(seriesIri)}`)).body;
    expect(fromIndex['@graph'][0]['dcat:first']).toEqual({ '@id': late.body.artifacts[0] });
    core.db.transaction(() => markLineageStale(core.db, core.graph.kind));
    expect((await call('GET', `/api/v1/artifact-series/${idOf(seriesIri)}`)).body).toEqual(fromIndex);
  });

  it('answers 404 for a series it does not hold and 400 for what is no id', async () => {
    expect((await call('GET', '/api/v1/artifact-series/01J7ZQK8W0RXAB3M2C7YQ1V4TD')).status).toBe(404);
    expect((await call('GET', `/api/v1/artifact-series/${encodeURIComponent('not an id')}`)).status).toBe(
      400,
    );
  });
});
