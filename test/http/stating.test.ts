/**
 * Records found by a value they state or a record they link to (credentials, self-registration, deployment
 * events): the lineage index finds the same nodes as the query, for every value it is looked up by, and the
 * lookups answer before the query index has loaded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principal, ROOT_PRINCIPAL, type Principal } from '../../src/core/access/principal.js';
import { softwareListingClient } from '../../src/core/access/registration-clients.js';
import type { Core } from '../../src/core/core.js';
import { DCAT, DCT, GRAPHS, PEER_GRAPH_PREFIX, PROV, RDF, REG, SCHEMA, XSD } from '../../src/core/ns.js';
import { createSoftware, withdrawSoftware } from '../../src/core/catalogue/software.js';
import { createInstance } from '../../src/core/catalogue/instances.js';
import { createRelease } from '../../src/core/catalogue/releases.js';
import { announceInstance } from '../../src/core/catalogue/self-registration.js';
import { findRelease } from '../../src/core/deployment/event-releases.js';
import { currentVersion, knownElsewhere, versionNamed } from '../../src/core/provenance/series-versions.js';
import { lineageIndexReady, markLineageStale } from '../../src/core/store/lineage/lineage-index.js';
import { parseNQuads } from '../../src/core/store/nquads.js';
import { nodesLinkingTo, nodesStating } from '../../src/core/stored/stating.js';
import { actOf } from '../../src/core/stored/write-path.js';
import { openTestCore } from '../helpers.js';

const ISSUER = 'https://login.example.org/realms/reg';
const DIGEST = `sha256:${'ab'.repeat(32)}`;
/** A digest in capitals, as another writer may have stated it. */
const UPPER = `SHA256:${'CD'.repeat(32)}`;
let core: Core;
let dataDir: string;
let software: string;

const softwareToken = (bound: string): Principal =>
  principal({
    credential: 'local-token',
    actorKind: 'instance-token',
    subject: 'urn:reg:token:t1',
    software: bound,
    scopes: ['register:instance', 'advertise:produce'],
    tokenId: 't1',
  });

/** Every lookup the registry makes, with values the records hold. */
const lookups = (): (() => Promise<string[]>)[] => [
  () => nodesStating(core, REG('selfRegisteredBy'), 'urn:reg:token:t1'),
  () => nodesStating(core, REG('instanceKey'), 'node-a'),
  () => nodesStating(core, REG('oidcClientId'), 'declared-client'),
  () => nodesStating(core, REG('registrationClient'), 'ci-runner'),
  () => nodesStating(core, REG('publisherIssuer'), 'https://token.actions.githubusercontent.com'),
  () => nodesStating(core, REG('imageDigest'), DIGEST),
  () => nodesLinkingTo(core, DCT('isVersionOf'), software),
  () =>
    nodesLinkingTo(core, DCT('isVersionOf'), software, {
      predicate: SCHEMA('softwareVersion'),
      value: '1.0.0',
    }),
  () =>
    nodesLinkingTo(core, DCT('isVersionOf'), software, {
      predicate: REG('imageDigest'),
      value: DIGEST.toUpperCase(),
      caseless: true,
    }),
  () =>
    nodesLinkingTo(core, DCT('isVersionOf'), software, {
      predicate: REG('imageDigest'),
      value: UPPER.toLowerCase(),
      caseless: true,
    }),
];

beforeAll(async () => {
  core = await openTestCore({ REG_OIDC_ISSUER: ISSUER }, true);
  dataDir = core.config.dataDir;
  const act = actOf(ROOT_PRINCIPAL);
  software = (
    await createSoftware(core, act, {
      name: 'looked up',
      registration_clients: ['ci-runner'],
      trusted_publishers: [
        { issuer: 'https://token.actions.githubusercontent.com', claims: { repository: 'org/tool' } },
      ],
    })
  ).iri as string;
  // A withdrawn software listing the same client: the lookup finds it, its readers leave it out.
  const gone = await createSoftware(core, act, { name: 'gone', registration_clients: ['ci-runner'] });
  await withdrawSoftware(core, act, gone.id as string);
  await createInstance(core, act, { software, label: 'declared', oidc_client_id: 'declared-client' });
  await announceInstance(core, actOf(softwareToken(software)), { instance_key: 'node-a' });
  const id = software.slice(software.lastIndexOf('/') + 1);
  await createRelease(core, act, id, { version: '1.0.0', image_digest: DIGEST });
  await createRelease(core, act, id, { version: '2.0.0' });
  // A peer's copy stating the same values is not this registry's record.
  const peer = `${PEER_GRAPH_PREFIX}stating-peer`;
  await core.graph.commit(
    [
      {
        graph: peer,
        subject: 'https://peer.example/instance/x',
        quads: parseNQuads(
          `<https://peer.example/instance/x> <${REG('selfRegisteredBy')}> "urn:reg:token:t1" <${peer}> .\n`,
        ),
        kind: 'instance',
      },
      {
        graph: GRAPHS.local,
        subject: `${software}-release-upper`,
        quads: parseNQuads(
          [
            `<${software}-release-upper> <${RDF('type')}> <${REG('Release')}> <${GRAPHS.local}> .`,
            `<${software}-release-upper> <${DCT('isVersionOf')}> <${software}> <${GRAPHS.local}> .`,
            `<${software}-release-upper> <${REG('imageDigest')}> "${UPPER}" <${GRAPHS.local}> .`,
          ].join('\n'),
        ),
        kind: 'release',
      },
    ],
    () => undefined,
  );
}, 60_000);

afterAll(async () => core.close());

describe('lookups by value and by link', () => {
  it('find the same nodes in the lineage index as by the query', async () => {
    expect(lineageIndexReady(core.db)).toBe(true);
    const fromIndex: string[][] = [];
    for (const lookup of lookups()) fromIndex.push(await lookup());
    // Every lookup found something: the instance, the release, both software listing the client.
    for (const found of fromIndex) expect(found.length).toBeGreaterThan(0);
    expect(fromIndex[3]).toHaveLength(2);
    expect(fromIndex[4]![0]).toMatch(/#/);
    expect(fromIndex[6]).toHaveLength(3);
    expect(fromIndex.flat().some((node) => node.startsWith('https://peer.example/'))).toBe(false);
    core.db.transaction(() => markLineageStale(core.db, core.graph.kind));
    const fromQuery: string[][] = [];
    for (const lookup of lookups()) fromQuery.push(await lookup());
    expect(fromQuery).toEqual(fromIndex);
  });

  it('answer before the query index has loaded', async () => {
    await core.close();
    core = await openTestCore({ REG_DATA_DIR: dataDir, REG_OIDC_ISSUER: ISSUER }, true);
    // The lineage index emptied above is filled again in the background.
    for (let wait = 0; wait < 600 && !lineageIndexReady(core.db); wait++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const loaded = {
      listing: await softwareListingClient(core, 'ci-runner', ISSUER),
      release: await findRelease(core, software, { version: undefined, digest: DIGEST }),
      byVersion: await findRelease(core, software, { version: '2.0.0', digest: undefined }),
    };
    expect(loaded.listing).toEqual([software]);
    expect(loaded.release?.version).toBe('1.0.0');
    expect(loaded.byVersion?.version).toBe('2.0.0');
    const announced = await announceInstance(core, actOf(softwareToken(software)), {
      instance_key: 'node-a',
    });
    await core.close();
    core = await openTestCore({ REG_DATA_DIR: dataDir, REG_OIDC_ISSUER: ISSUER }, false);
    expect(core.graph.ready).toBe(false);
    expect(lineageIndexReady(core.db)).toBe(true);
    expect({
      listing: await softwareListingClient(core, 'ci-runner', ISSUER),
      release: await findRelease(core, software, { version: undefined, digest: DIGEST }),
      byVersion: await findRelease(core, software, { version: '2.0.0', digest: undefined }),
    }).toEqual(loaded);
    // Announcing again with the same key finds the deployment it announced before.
    const again = await announceInstance(core, actOf(softwareToken(software)), { instance_key: 'node-a' });
    expect(again.created).toBe(false);
    expect(again.record.iri).toBe(announced.record.iri);
  });
});

describe('the versions of a series, as OpenLineage intake looks them up', () => {
  it('are found in the lineage index as by the query', async () => {
    await core.graph.open();
    const base = core.config.baseIri;
    const series = `${base}/artifact-series/looked-up`;
    const run = `${base}/run/writer`;
    const time = (value: string, type = 'dateTime') => `"${value}"^^<${XSD(type)}>`;
    const version = (id: string, lines: string[]) => {
      const iri = `${base}/artifact/${id}`;
      const all = [
        `<${iri}> <${RDF('type')}> <${DCAT('Dataset')}>`,
        `<${iri}> <${DCT('isVersionOf')}> <${series}>`,
        ...lines.map((line) => `<${iri}> ${line}`),
      ];
      return {
        graph: GRAPHS.local,
        subject: iri,
        quads: parseNQuads(all.map((line) => `${line} <${GRAPHS.local}> .`).join('\n')),
        kind: 'artifact',
      };
    };
    await core.graph.commit(
      [
        version('v1', [`<${DCT('issued')}> ${time('2026-01-01T10:00:00+02:00')}`]),
        version('v2', [`<${DCT('issued')}> ${time('2026-01-01T09:00:00Z')}`, `<${DCAT('version')}> "2"`]),
        version('v3', [
          `<${DCT('issued')}> ${time('2026-01-02T00:00:00Z')}`,
          `<${REG('tombstoned')}> ${time('true', 'boolean')}`,
        ]),
        version('v4', [
          `<${DCT('issued')}> ${time('2026-01-01T12:00:00Z')}`,
          `<${PROV('wasGeneratedBy')}> <${run}>`,
          `<${DCAT('version')}> "4"`,
        ]),
        // Without an issue time it is never the current version.
        version('v5', [`<${DCAT('version')}> "4"`]),
      ],
      () => undefined,
    );
    const read = async () => {
      const out: unknown[] = [];
      for (const at of [
        '2025-12-31T00:00:00Z',
        '2026-01-01T08:30:00Z',
        '2026-01-01T09:00:00Z',
        '2026-01-01T14:00:00+01:00',
        '2026-01-03T00:00:00Z',
      ])
        for (const except of [undefined, run]) out.push(await currentVersion(core, series, at, except));
      for (const name of ['2', '4', 'none']) out.push(await versionNamed(core, series, name));
      for (const iri of [
        `${base}/artifact/v1`,
        'https://peer.example/instance/x',
        'https://nowhere.example/',
      ])
        out.push(await knownElsewhere(core, iri));
      return out;
    };
    expect(lineageIndexReady(core.db)).toBe(true);
    const fromIndex = await read();
    // Before any version, the newest before a time, the run's own left out, withdrawn ones never.
    expect(fromIndex.slice(0, 10).map((iri) => (iri as string | undefined)?.slice(-2))).toEqual([
      undefined,
      undefined,
      'v1',
      'v1',
      'v2',
      'v2',
      'v4',
      'v2',
      'v4',
      'v2',
    ]);
    expect(fromIndex.slice(10)).toEqual([
      `${base}/artifact/v2`,
      `${base}/artifact/v5`,
      undefined,
      true,
      false,
      false,
    ]);
    core.db.transaction(() => markLineageStale(core.db, core.graph.kind));
    expect(await read()).toEqual(fromIndex);
  });
});
