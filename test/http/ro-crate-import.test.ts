import { readFileSync } from 'node:fs';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { writeZip } from '../../src/core/packaging/zip.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

type App = ReturnType<typeof createApp>;
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/ro-crate/${name}`, import.meta.url), 'utf8')) as Record<
    string,
    any
  >;
const EXAMPLE1 = fixture('process-run-crate-0.6-example1.json');
const EXAMPLE2 = fixture('workflow-run-crate-0.6-example2.json');
const STIAN = 'https://orcid.org/0000-0001-9842-9718';
const PETER = 'https://orcid.org/0000-0002-3545-944X';
const root = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const cores: Core[] = [];

/** A registry with a deployment of one software at one release, operated by one person, and its token. */
async function registry(
  base: string,
  software: Record<string, unknown>,
  version: string,
  operator: Record<string, unknown>,
): Promise<{ app: App; token: string; deployment: Record<string, any> }> {
  const core = await openTestCore({ REG_BASE_IRI: base }, true);
  cores.push(core);
  const app = createApp(core);
  const made = async (path: string, body: unknown) => {
    const response = await app.request(path, { method: 'POST', headers: root, body: JSON.stringify(body) });
    const json = (await response.json()) as Record<string, any>;
    expect(response.status, `${path}: ${JSON.stringify(json)}`).toBe(201);
    return json;
  };
  const record = await made('/api/v1/software', software);
  const release = await made(`/api/v1/software/${record.id}/releases`, { version });
  const deployment = await made('/api/v1/instances', {
    software: record.id,
    release: release.id,
    label: `${String(software.name)} deployment`,
    operator,
  });
  const token = (await made(`/api/v1/instances/${deployment.id}/tokens`, {})).token as string;
  return { app, token, deployment };
}

async function send(app: App, token: string | undefined, body: unknown, type = 'application/ld+json') {
  const response = await app.request('/api/v1/ro-crate', {
    method: 'POST',
    headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), 'content-type': type },
    body: body instanceof Buffer ? new Uint8Array(body) : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function read(app: App, path: string) {
  const response = await app.request(path);
  expect(response.status, path).toBe(200);
  return (await response.json()) as Record<string, any>;
}

const idOf = (iri: string) => iri.slice(iri.lastIndexOf('/') + 1);

/** A ZIP archive of one deflated file, as archivers commonly write it. */
function deflatedZip(name: string, data: Buffer): Buffer {
  const packed = zlib.deflateRawSync(data);
  const file = Buffer.from(name, 'utf8');
  const header = (size: number) => Buffer.alloc(size);
  const local = header(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(zlib.crc32(data), 14);
  local.writeUInt32LE(packed.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(file.length, 26);
  const central = header(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(zlib.crc32(data), 16);
  central.writeUInt32LE(packed.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(file.length, 28);
  const end = header(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + file.length, 12);
  end.writeUInt32LE(local.length + file.length + packed.length, 16);
  return Buffer.concat([local, file, packed, central, file, end]);
}
const totals = async (app: App) => ({
  runs: (await read(app, '/api/v1/runs')).total,
  artifacts: (await read(app, '/api/v1/artifacts')).total,
});

let imagemagick: { app: App; token: string; deployment: Record<string, any> };

beforeAll(async () => {
  imagemagick = await registry(
    'http://first.test',
    { name: 'ImageMagick', homepage: 'https://www.imagemagick.org/' },
    '6.9.7-4',
    { kind: 'person', name: 'Stian Soiland-Reyes', identifier: STIAN },
  );
});

afterAll(async () => {
  for (const core of cores) await core.close();
});

describe('POST /api/v1/ro-crate', () => {
  it('records the Process Run Crate example: its CreateAction as a run, its object and result as artifacts', async () => {
    const { app, token, deployment } = imagemagick;
    const { status, body } = await send(app, token, EXAMPLE1);
    expect(status).toBe(201);
    expect(body.created).toBe(true);
    expect(body.runs).toHaveLength(1);
    const [imported] = body.runs;
    expect(imported.action).toBe('#SepiaConversion_1');
    expect(imported.used).toHaveLength(1);
    expect(imported.generated).toHaveLength(1);
    const run = await read(app, `/api/v1/runs/${idOf(imported.run)}`);
    expect(run).toMatchObject({
      external_key: '#SepiaConversion_1',
      label: 'Convert dog image to sepia',
      description: 'convert -sepia-tone 80% pics/2017-06-11\\ 12.56.14.jpg pics/sepia_fence.jpg',
      ended_at: '2024-05-17T00:04:52.000Z',
      status: 'success',
      instance: deployment.iri,
    });
    expect(run.used.map((item: any) => item.iri)).toEqual(imported.used);
    expect(run.generated.map((item: any) => item.iri)).toEqual(imported.generated);
    const input = await read(app, `/api/v1/artifacts/${idOf(imported.used[0])}`);
    expect(input).toMatchObject({
      title: '2017-06-11 12.56.14.jpg (input)',
      description: 'Original image',
      creators: [{ name: 'Peter Sefton', kind: 'person', identifier: PETER }],
    });
    expect(input.distributions).toMatchObject([{ media_type: 'image/jpeg', availability: 'metadata-only' }]);
    expect(input.was_generated_by).toBeUndefined();
    const output = await read(app, `/api/v1/artifacts/${idOf(imported.generated[0])}`);
    expect(output).toMatchObject({
      title: 'sepia_fence (output)',
      description: 'The converted picture, now sepia-colored',
      was_generated_by: imported.run,
    });
  });

  it('records nothing new when the same crate comes again, as JSON or in a ZIP archive', async () => {
    const { app, token } = imagemagick;
    const first = await send(app, token, EXAMPLE1);
    const before = await totals(app);
    const again = await send(app, token, EXAMPLE1);
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect(again.body.runs).toEqual(first.body.runs);
    const archive = writeZip(
      [{ name: 'ro-crate-metadata.json', data: Buffer.from(JSON.stringify(EXAMPLE1)) }],
      new Date('2026-11-27T00:00:00Z'),
    );
    const zipped = await send(app, token, archive, 'application/zip');
    expect(zipped.status).toBe(200);
    expect(zipped.body.runs).toEqual(first.body.runs);
    expect(await totals(app)).toEqual(before);
  });

  it('reads a deflated archive holding the crate in a folder, and refuses one that expands past the body limit', async () => {
    const { app, token } = imagemagick;
    const first = await send(app, token, EXAMPLE1);
    const folder = await send(
      app,
      token,
      deflatedZip('pictures/ro-crate-metadata.json', Buffer.from(JSON.stringify(EXAMPLE1))),
      'application/zip',
    );
    expect(folder.status).toBe(200);
    expect(folder.body.runs).toEqual(first.body.runs);
    const padded = `${JSON.stringify(EXAMPLE1).slice(0, -1)}${' '.repeat(3 * 1024 * 1024)}}`;
    const bomb = await send(
      app,
      token,
      deflatedZip('ro-crate-metadata.json', Buffer.from(padded)),
      'application/zip',
    );
    expect(bomb.status).toBe(413);
    const none = await send(
      app,
      token,
      deflatedZip('README.md', Buffer.from('# no crate')),
      'application/zip',
    );
    expect(none.status).toBe(400);
    expect(none.body.detail).toContain('ro-crate-metadata.json');
    const broken = await send(app, token, Buffer.from('PK not really'), 'application/zip');
    expect(broken.status).toBe(400);
  });

  it('refuses the Workflow Run Crate example, naming each statement it cannot record, and writes nothing', async () => {
    const { app, token } = imagemagick;
    const before = await totals(app);
    const { status, body } = await send(app, token, EXAMPLE2);
    expect(status).toBe(422);
    expect(body.code).toBe('shacl-validation-failed');
    const at = (id: string) => EXAMPLE2['@graph'].findIndex((entity: any) => entity['@id'] === id);
    const fields = body.errors.map((error: any) => error.field);
    const action = at('#wfrun-5a5970ab-4375-444d-9a87-a764a66e3a47');
    expect(fields).toContain(`@graph[${action}].subjectOf`);
    expect(fields).toContain(`@graph[${at('inputs/abcdef.txt')}].exampleOfWork`);
    expect(fields).toContain(`@graph[${at('#verbose-pv')}].@type`);
    expect(fields).toContain(`@graph[${at('Galaxy-Workflow-Hello_World.ga')}].input`);
    const subjectOf = body.errors.find((error: any) => error.field === `@graph[${action}].subjectOf`);
    expect(subjectOf.message).toContain('"#wfrun-5a5970ab-4375-444d-9a87-a764a66e3a47" property subjectOf');
    expect(body.detail).toContain('cannot record');
    expect(await totals(app)).toEqual(before);
  });

  it('refuses a single statement it cannot record, and a run of another software, writing nothing', async () => {
    const { app, token } = imagemagick;
    const before = await totals(app);
    const changed = structuredClone(EXAMPLE1);
    const action = changed['@graph'].find((entity: any) => entity['@id'] === '#SepiaConversion_1');
    action['@id'] = '#SepiaConversion_2';
    action.error = 'segmentation fault';
    const refused = await send(app, token, changed);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        field: `@graph[${changed['@graph'].indexOf(action)}].error`,
        message: expect.stringContaining('"#SepiaConversion_2" property error'),
      },
    ]);
    delete action.error;
    const software = changed['@graph'].find((entity: any) => entity['@type'] === 'SoftwareApplication');
    software.softwareVersion = '7.0.0';
    const version = await send(app, token, changed);
    expect(version.status).toBe(422);
    expect(version.body.errors[0].message).toContain('version 7.0.0');
    expect(await totals(app)).toEqual(before);
  });

  it('records a crate of several CreateActions as several runs joined by what they share', async () => {
    const { app, token } = imagemagick;
    const crate = structuredClone(EXAMPLE1);
    crate['@graph'].push(
      {
        '@id': '#Thumbnail_1',
        '@type': 'CreateAction',
        name: 'Make a thumbnail',
        startTime: '2024-05-17T02:00:00Z',
        instrument: { '@id': 'https://www.imagemagick.org/' },
        object: { '@id': 'pics/sepia_fence.jpg' },
        result: { '@id': 'pics/thumbnail.jpg' },
        actionStatus: { '@id': 'http://schema.org/FailedActionStatus' },
      },
      {
        '@id': 'pics/thumbnail.jpg',
        '@type': 'File',
        name: 'thumbnail',
        contentSize: '2048',
        encodingFormat: 'image/jpeg',
      },
    );
    // The second action is listed first: the run that made its input is recorded before it all the same.
    crate['@graph'].reverse();
    const { status, body } = await send(app, token, crate);
    expect(status).toBe(201);
    expect(body.runs.map((run: any) => run.action)).toEqual(['#SepiaConversion_1', '#Thumbnail_1']);
    const [convert, thumbnail] = body.runs;
    expect(thumbnail.used).toEqual(convert.generated);
    const run = await read(app, `/api/v1/runs/${idOf(thumbnail.run)}`);
    expect(run).toMatchObject({
      status: 'failed',
      started_at: '2024-05-17T02:00:00.000Z',
      label: 'Make a thumbnail',
    });
    const made = await read(app, `/api/v1/artifacts/${idOf(thumbnail.generated[0])}`);
    expect(made.distributions).toMatchObject([{ byte_size: 2048, media_type: 'image/jpeg' }]);
  });

  it('takes crates from deployments only', async () => {
    const { app } = imagemagick;
    expect((await send(app, undefined, EXAMPLE1)).status).toBe(401);
    const curator = await send(app, ROOT_TOKEN, EXAMPLE1);
    expect(curator.status).toBe(403);
    const notJson = await send(app, imagemagick.token, 'not a crate', 'text/plain');
    expect(notJson.status).toBe(415);
    const noCrate = await send(app, imagemagick.token, { '@context': 'https://schema.org/', '@graph': [] });
    expect(noCrate.status).toBe(400);
  });
});

describe('a crate exported by one registry and imported into another', () => {
  it('gives the same lineage', async () => {
    const software = { name: 'table-tool', homepage: 'https://table-tool.example.org/' };
    const operator = { kind: 'organization', name: 'Example Lab', identifier: 'https://ror.org/00example0' };
    const source = await registry('http://source.test', software, '3.0.0', operator);
    const target = await registry('http://target.test', software, '3.0.0', operator);
    const advertise = async (role: string, body: unknown) => {
      const response = await source.app.request(`/api/v1/advertise/${role}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${source.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBeLessThan(300);
      return (await response.json()) as Record<string, any>;
    };
    const raw = (
      await advertise('produced', {
        run: { external_key: 'extract', label: 'extract', started_at: '2026-11-01T08:00:00Z' },
        artifacts: [
          {
            title: 'Raw table',
            distributions: [{ download_url: 'https://data.example.org/raw.csv', media_type: 'text/csv' }],
          },
        ],
      })
    ).artifacts[0];
    await advertise('consumed', {
      run: { external_key: 'clean', label: 'clean' },
      artifacts: [{ iri: raw }],
    });
    const clean = (
      await advertise('produced', {
        run: { external_key: 'clean', status: 'success', ended_at: '2026-11-01T09:00:00Z' },
        artifacts: [{ title: 'Clean table', license: 'https://spdx.org/licenses/CC-BY-4.0' }],
      })
    ).artifacts[0];
    const crate = await read(source.app, `/api/v1/artifacts/${idOf(clean)}/ro-crate?depth=6`);
    const imported = await send(target.app, target.token, crate);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.runs).toHaveLength(2);
    const cleanThere = imported.body.runs.find((run: any) => run.used.length === 1).generated[0];
    const shape = async (app: App, artifact: string) => {
      const answer = await read(app, `/api/v1/artifacts/${idOf(artifact)}/lineage?depth=6&direction=up`);
      const name = new Map<string, string>(
        answer.nodes.map((node: any) => [node.iri, `${node.entity_type}:${node.title ?? ''}`]),
      );
      return {
        nodes: [...name.values()].sort(),
        edges: answer.edges
          .map((edge: any) => `${name.get(edge.from)} ${edge.predicate} ${name.get(edge.to)}`)
          .sort(),
      };
    };
    const before = await shape(source.app, clean);
    expect(before).toEqual({
      nodes: ['artifact:Clean table', 'artifact:Raw table', 'run:clean', 'run:extract'],
      edges: [
        'run:clean generated artifact:Clean table',
        'run:clean used artifact:Raw table',
        'run:extract generated artifact:Raw table',
      ],
    });
    expect(await shape(target.app, cleanThere)).toEqual(before);
    const again = await send(target.app, target.token, crate);
    expect(again.status).toBe(200);
  });
});
