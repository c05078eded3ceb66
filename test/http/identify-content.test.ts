import { createHash } from 'node:crypto';
import N3 from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { REG } from '../../src/core/ns.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { apiOf, TYPE, type Json } from '../support/api.js';

const CONTENT_NAME = REG('contentName');
/** The bytes the artifact's distribution holds, and every name they have. */
const BYTES = Buffer.from('chromosome\tstart\tend\nchr1\t100\t200\n');
const SHA256 = createHash('sha256').update(BYTES).digest();
const HEX = SHA256.toString('hex');
const SHA512_HEX = createHash('sha512').update(BYTES).digest('hex');
const NI = `ni:///sha-256;${SHA256.toString('base64url')}`;
/** A git blob id (what a SWHID of a file names): SHA-1 of `blob <length>\0` and the bytes. */
const BLOB = createHash('sha1')
  .update(Buffer.concat([Buffer.from(`blob ${BYTES.length}\0`), BYTES]))
  .digest('hex');
const CNT = `swh:1:cnt:${BLOB}`;
/** The release's image (the digest of a manifest) and its source release in the archive. */
const IMAGE_HEX = createHash('sha256').update('{"schemaVersion":2,"layers":[]}').digest('hex');
const RELEASE_SWHID = `swh:1:rel:${createHash('sha1').update('tag v2.1.0').digest('hex')}`;
const ORIGIN = ';origin=https://github.com/example/tabulate';

let core: Core;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof apiOf>;
let artifact: Json;
let release: Json;
let softwareId: string;

async function identify(id: string | undefined): Promise<{ status: number; body: Json }> {
  const response = await app.request(
    `/api/v1/identify${id === undefined ? '' : `?id=${encodeURIComponent(id)}`}`,
  );
  return { status: response.status, body: (await response.json()) as Json };
}

/** The `reg:contentName` targets of a Link header, in header order. */
function linkedNames(response: Response): string[] {
  const header = response.headers.get('link') ?? '';
  return [...header.matchAll(/<([^>]*)>; rel="([^"]+)"/g)]
    .filter(([, , rel]) => rel === CONTENT_NAME)
    .map(([, href]) => href!);
}

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  api = apiOf(app);
  const software = await api.call('POST', '/api/v1/software', 201, { name: 'tabulate' });
  softwareId = software.id as string;
  release = await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, {
    version: '2.1.0',
    container_image: 'ghcr.io/example/tabulate:2.1.0',
    image_digest: `sha256:${IMAGE_HEX}`,
    swhids: [`${RELEASE_SWHID}${ORIGIN}`],
  });
  artifact = await api.call('POST', '/api/v1/artifacts', 201, {
    title: 'Peaks of sample 7',
    conforms_to: TYPE,
    distributions: [
      {
        download_url: 'https://data.example.org/peaks-7.tsv',
        checksum: { algorithm: 'sha256', value: HEX },
        swhids: [`${CNT}${ORIGIN};path=/data/peaks-7.tsv`],
      },
    ],
  });
  // A second record of the same bytes that knows them only by their checksum.
  await api.call('POST', '/api/v1/artifacts', 201, {
    title: 'Peaks of sample 7, mirrored',
    conforms_to: TYPE,
    distributions: [
      { download_url: 'https://mirror.example.org/p7.tsv', checksum: { algorithm: 'sha256', value: HEX } },
    ],
  });
});
afterAll(async () => core.close());

describe('GET /api/v1/identify', () => {
  it('finds the same artifact by every name of its bytes', async () => {
    const forms: [string, string][] = [
      ['ni', NI],
      ['hash-uri', `hash://sha256/${HEX}`],
      ['hex', HEX.toUpperCase()],
      ['oci', `sha256:${HEX}`],
      ['digest-set', JSON.stringify({ sha512: SHA512_HEX, sha256: HEX })],
      ['digest-set', JSON.stringify({ gitBlob: BLOB })],
      ['swhid', CNT],
      ['swhid', `${CNT}${ORIGIN}`],
    ];
    for (const [form, id] of forms) {
      const { status, body } = await identify(id);
      expect(status, id).toBe(200);
      expect(body.form, id).toBe(form);
      const found = body.matches.filter((match: Json) => match.artifact === artifact.iri);
      expect(found, id).toHaveLength(1);
      expect(found[0]).toMatchObject({
        kind: 'distribution',
        iri: `${artifact.iri}#distribution-0`,
        id: artifact.id,
        title: 'Peaks of sample 7',
        origin: { kind: 'local' },
      });
      // The mirror is found too: by its checksum, even when the name given was the SWHID.
      expect(body.total, id).toBe(2);
      expect(body.matches.map((match: Json) => match.title).sort(), id).toEqual([
        'Peaks of sample 7',
        'Peaks of sample 7, mirrored',
      ]);
    }
  });

  it('says which recorded value matched and lists every alias of the content', async () => {
    const { body } = await identify(CNT);
    const own = body.matches.find((match: Json) => match.artifact === artifact.iri);
    expect(own.matched).toEqual(
      expect.arrayContaining([
        { field: 'distributions.swhids', value: `${CNT}${ORIGIN};path=/data/peaks-7.tsv` },
        { field: 'distributions.checksum', value: HEX },
      ]),
    );
    const names = body.aliases.map((alias: Json) => `${alias.form} ${alias.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        `ni ${NI}`,
        `hash-uri hash://sha256/${HEX}`,
        `oci sha256:${HEX}`,
        `hex ${HEX}`,
        `swhid ${CNT}`,
        `digest-set ${JSON.stringify({ sha256: HEX, gitBlob: BLOB })}`,
      ]),
    );
  });

  it('answers for a digest what the artifacts identify endpoint answers', async () => {
    const { body } = await identify(`hash://sha256/${HEX}`);
    const legacy = await api.call('GET', `/api/v1/artifacts/identify?value=${HEX}`, 200);
    for (const key of ['content_identifier', 'algorithm', 'digest_hex', 'digest_base64url', 'find'])
      expect(body[key], key).toEqual(legacy[key]);
    expect(body.how_to_compute).toEqual(legacy.how_to_compute);
  });

  it('finds a release by the OCI digest of its image and by its SWHID', async () => {
    for (const id of [`sha256:${IMAGE_HEX}`, IMAGE_HEX, `hash://sha256/${IMAGE_HEX}`]) {
      const { body } = await identify(id);
      expect(body.matches, id).toEqual([
        {
          kind: 'release',
          iri: release.iri,
          id: release.id,
          title: 'tabulate 2.1.0',
          origin: { kind: 'local' },
          matched: [{ field: 'image_digest', value: `sha256:${IMAGE_HEX}` }],
        },
      ]);
    }
    for (const id of [RELEASE_SWHID, `${RELEASE_SWHID};visit=swh:1:snp:${'0'.repeat(40)}`]) {
      const { body } = await identify(id);
      expect(body.total, id).toBe(1);
      expect(body.matches[0], id).toMatchObject({
        kind: 'release',
        iri: release.iri,
        matched: [{ field: 'swhids', value: `${RELEASE_SWHID}${ORIGIN}` }],
      });
      expect(body.aliases, id).toContainEqual({ form: 'swhid', name: RELEASE_SWHID });
    }
  });

  it('finds digests of other algorithms in every form they have', async () => {
    const bytes = Buffer.from('a model of 7 layers');
    const sha512 = createHash('sha512').update(bytes).digest('hex');
    const md5 = createHash('md5').update(bytes).digest('hex');
    const add = (title: string, algorithm: string, value: string) =>
      api.call('POST', '/api/v1/artifacts', 201, {
        title,
        conforms_to: TYPE,
        distributions: [
          { download_url: `https://data.example.org/${algorithm}`, checksum: { algorithm, value } },
        ],
      });
    const long = await add('Model, SHA-512', 'sha512', sha512);
    const weak = await add('Model, MD5', 'md5', md5);
    for (const id of [
      `ni:///sha-512;${Buffer.from(sha512, 'hex').toString('base64url')}`,
      `hash://sha512/${sha512}`,
      sha512,
      `sha512:${sha512}`,
      JSON.stringify({ sha512 }),
    ])
      expect(
        (await identify(id)).body.matches.map((m: Json) => m.artifact),
        id,
      ).toEqual([long.iri]);
    for (const id of [`hash://md5/${md5}`, md5, JSON.stringify({ md5 })]) {
      const { body } = await identify(id);
      expect(
        body.matches.map((m: Json) => m.artifact),
        id,
      ).toEqual([weak.iri]);
      // MD5 names no content identifier and no OCI digest.
      expect(
        body.aliases.map((alias: Json) => alias.form),
        id,
      ).toEqual(['hash-uri', 'hex', 'digest-set']);
      expect(body.content_identifier, id).toBeUndefined();
    }
    // A DigestSet matches on any one of its digests.
    const both = await identify(JSON.stringify({ sha512, md5 }));
    expect(both.body.matches.map((m: Json) => m.artifact).sort()).toEqual([long.iri, weak.iri].sort());
  });

  it('no longer finds a release once it is deleted', async () => {
    const software = await api.call('POST', '/api/v1/software', 201, { name: 'withdrawn-tool' });
    const digest = createHash('sha256').update('withdrawn image').digest('hex');
    const withdrawn = await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, {
      version: '0.1.0',
      image_digest: `sha256:${digest}`,
    });
    expect((await identify(`sha256:${digest}`)).body.total).toBe(1);
    await api.call('DELETE', `/api/v1/software/${software.id}/releases/${withdrawn.id}`, 204);
    expect((await identify(`sha256:${digest}`)).body).toMatchObject({ total: 0, matches: [] });
  });

  it('lets the artifact list filter by content given in any digest form', async () => {
    for (const content of [NI, `hash://sha256/${HEX}`, `sha256:${HEX}`, JSON.stringify({ sha256: HEX })]) {
      const page = await api.call('GET', `/api/v1/artifacts?content=${encodeURIComponent(content)}`, 200);
      expect(page.items.map((item: Json) => item.title).sort(), content).toEqual([
        'Peaks of sample 7',
        'Peaks of sample 7, mirrored',
      ]);
    }
  });

  it('answers unknown content with no matches and its names', async () => {
    const { status, body } = await identify('0f'.repeat(32));
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 0, matches: [], form: 'hex' });
    expect(body.aliases).toContainEqual({ form: 'hash-uri', name: `hash://sha256/${'0f'.repeat(32)}` });
  });

  it('refuses what is no content name (400 naming id and the forms it takes)', async () => {
    for (const id of [
      undefined,
      '',
      'peaks-7.tsv',
      `sha256:${HEX.slice(2)}`,
      'ni:///sha-256;tooshort',
      `hash://sha256/${'zz'.repeat(32)}`,
      JSON.stringify({ sha256: 42 }),
      JSON.stringify({ sha256: 'abc' }),
      JSON.stringify({ nothing: HEX }),
      '["sha256"]',
      `swh:1:cnt:${BLOB.toUpperCase()}`,
      `swh:2:cnt:${BLOB}`,
      `swh:1:xyz:${BLOB}`,
      `${CNT};colour=blue`,
    ]) {
      const { status, body } = await identify(id);
      expect(status, String(id)).toBe(400);
      expect(body.code).toBe('bad-request');
      expect(body.field).toBe('id');
      expect(body.forms).toEqual(['ni', 'hash-uri', 'hex', 'oci', 'digest-set', 'swhid']);
      expect(body.detail).toContain('swh:1:');
    }
  });

  it('counts as a read: anonymous callers are refused when reads are not public', async () => {
    const closed = await openTestCore({ REG_PUBLIC_READ: 'false' }, true);
    try {
      const closedApp = createApp(closed);
      const anonymous = await closedApp.request(`/api/v1/identify?id=${HEX}`);
      expect(anonymous.status).toBe(401);
      const reader = await closedApp.request(`/api/v1/identify?id=${HEX}`, {
        headers: { authorization: `Bearer ${ROOT_TOKEN}` },
      });
      expect(reader.status).toBe(200);
      expect(((await reader.json()) as Json).total).toBe(0);
    } finally {
      await closed.close();
    }
  });

  it('refuses a malformed SWHID on write, naming the field', async () => {
    const software = await api.call('POST', '/api/v1/software', 201, { name: 'badly-archived' });
    const releaseRefusal = await api.call('POST', `/api/v1/software/${software.id}/releases`, 422, {
      version: '1.0.0',
      swhids: ['swh:1:rel:not-hex'],
    });
    expect(releaseRefusal.code).toBe('shacl-validation-failed');
    expect(releaseRefusal.errors.map((error: Json) => error.field)).toEqual(['swhids']);
    const artifactRefusal = await api.call('POST', '/api/v1/artifacts', 422, {
      title: 'Badly archived',
      conforms_to: TYPE,
      distributions: [{ download_url: 'https://data.example.org/b', swhids: [`swh:1:cnt:${BLOB} `] }],
    });
    expect(artifactRefusal.errors.map((error: Json) => error.field).join(' ')).toContain('swhids');
  });
});

describe('content names of a record', () => {
  it('are Link headers of the artifact and the release, after cite-as', async () => {
    const read = await app.request(`/api/v1/artifacts/${artifact.id}`);
    expect(read.headers.get('link')).toMatch(new RegExp(`^<${artifact.iri}>; rel="cite-as"`));
    expect(linkedNames(read)).toEqual([NI, `hash://sha256/${HEX}`, CNT]);
    const dereferenced = await app.request(new URL(artifact.iri).pathname, {
      headers: { accept: 'text/turtle' },
    });
    expect(linkedNames(dereferenced)).toEqual([NI, `hash://sha256/${HEX}`, CNT]);
    const releaseRead = await app.request(`/api/v1/software/${softwareId}/releases/${release.id}`);
    expect(linkedNames(releaseRead)).toEqual([
      `ni:///sha-256;${Buffer.from(IMAGE_HEX, 'hex').toString('base64url')}`,
      `hash://sha256/${IMAGE_HEX}`,
      RELEASE_SWHID,
    ]);
  });

  it('are reg:contentName statements in the Turtle of the record', async () => {
    const response = await app.request(`${new URL(artifact.iri).pathname}.ttl`);
    expect(response.status).toBe(200);
    const quads = new N3.Parser({ baseIRI: artifact.iri }).parse(await response.text());
    const names = quads
      .filter((quad) => quad.predicate.value === CONTENT_NAME)
      .map((quad) => `${quad.subject.value} ${quad.object.value}`);
    expect(names.sort()).toEqual(
      [NI, `hash://sha256/${HEX}`, CNT].map((name) => `${artifact.iri}#distribution-0 ${name}`).sort(),
    );
    const release2 = await app.request(`${new URL(release.iri).pathname}.ttl`);
    expect(await release2.text()).toContain(`hash://sha256/${IMAGE_HEX}`);
  });
});
