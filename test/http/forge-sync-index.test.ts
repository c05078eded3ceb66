/**
 * What repository sync reads of the records (the software connected to a forge, the versions of a software's
 * releases) is read from the lineage index: the same answers as the query index gives, with disabled, withdrawn
 * and peers' records among them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PRINCIPAL } from '../../src/core/access/principal.js';
import { createRelease } from '../../src/core/catalogue/releases.js';
import { createSoftware, withdrawSoftware } from '../../src/core/catalogue/software.js';
import type { Core } from '../../src/core/core.js';
import { connectedSoftware, heldVersions } from '../../src/core/forge/forge-sync.js';
import { PEER_GRAPH_PREFIX, REG, RDF } from '../../src/core/ns.js';
import { lineageIndexReady, markLineageStale } from '../../src/core/store/lineage/lineage-index.js';
import { parseNQuads } from '../../src/core/store/nquads.js';
import { actOf } from '../../src/core/stored/write-path.js';
import { openTestCore } from '../helpers.js';

let core: Core;
const software: string[] = [];

beforeAll(async () => {
  core = await openTestCore({}, true);
  const act = actOf(ROOT_PRINCIPAL);
  const connect = async (name: string, sync: Record<string, unknown>) => {
    const record = await createSoftware(core, act, { name, sync });
    software.push(record.iri as string);
    return record;
  };
  await connect('on github', { source: 'github', repo: 'acme/one', fields: ['tagline'] });
  await connect('on gitlab', { source: 'gitlab', repo: 'acme/two', fields: ['releases'] });
  await connect('paused', { source: 'github', repo: 'acme/three', fields: ['tagline'], enabled: false });
  const gone = await connect('withdrawn', { source: 'github', repo: 'acme/four', fields: ['tagline'] });
  await withdrawSoftware(core, act, gone.id as string);
  const released = await createSoftware(core, act, { name: 'released' });
  software.push(released.iri as string);
  for (const version of ['1.0', '1.1', '2.0'])
    await createRelease(core, act, released.id as string, { version });
  // A peer's copy of a connected software is not this registry's to sync.
  const peer = `${PEER_GRAPH_PREFIX}sync-peer`;
  const copy = 'https://peer.example/software/s';
  const line = (s: string, p: string, o: string) => `<${s}> <${p}> ${o} <${peer}> .`;
  await core.graph.commit(
    [
      {
        graph: peer,
        subject: copy,
        kind: 'software',
        quads: parseNQuads(
          [
            line(copy, RDF('type'), `<${REG('Software')}>`),
            line(copy, REG('sync'), `<${copy}#sync>`),
            line(`${copy}#sync`, REG('syncSource'), '"github"'),
            line(`${copy}#sync`, REG('syncRepo'), '"acme/peer"'),
          ].join('\n'),
        ),
      },
    ],
    () => undefined,
  );
}, 60_000);

afterAll(async () => core.close());

describe('the reads of repository sync', () => {
  it('give from the lineage index what the query index gives', async () => {
    expect(lineageIndexReady(core.db)).toBe(true);
    const read = async () => ({
      connected: await connectedSoftware(core),
      versions: await Promise.all(software.map(async (iri) => [...(await heldVersions(core, iri))].sort())),
    });
    const fromIndex = await read();
    expect(fromIndex.connected).toEqual(
      [
        { iri: software[0], source: 'github' },
        { iri: software[1], source: 'gitlab' },
      ].sort((a, b) => (a.iri! < b.iri! ? -1 : 1)),
    );
    expect(fromIndex.versions[4]).toEqual(['1.0', '1.1', '2.0']);
    core.db.transaction(() => markLineageStale(core.db, core.graph.kind));
    expect(await read()).toEqual(fromIndex);
  });
});
