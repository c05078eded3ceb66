import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';
import { apiOf, artifact, CC_BY, TYPE, type Json } from '../support/api.js';

/*
 * The filter rules of spec §4 Subscriptions rule 2, seen from the outside: one subscriber with a subscription
 * per rule, a fixed sequence of advertisements by other deployments, and the titles each subscription's pull
 * queue then holds.
 */

let core: Core;
let api: ReturnType<typeof apiOf>;

beforeAll(async () => {
  core = await openTestCore({}, true);
  api = apiOf(createApp(core));
});
afterAll(async () => core.close());

const pullAll = async (sid: string, token: string): Promise<Json[]> =>
  (await api.call('GET', `/api/v1/subscriptions/${sid}/deliveries?limit=200`, 200, undefined, token)).items;
const titles = async (sid: string, token: string): Promise<string[]> =>
  (await pullAll(sid, token)).map(
    (item) => `${item.notification.artifact.title as string}${item.role === 'consumed' ? ' (consumed)' : ''}`,
  );

describe('subscription filters', () => {
  it('match by role, type, software, deployment, keyword, licence, availability and text; OR within, AND across', async () => {
    const minted = await api.call('POST', '/api/v1/types', 201, {
      label: 'Matching summary',
      slug: 'matching-summary',
    });
    const a1 = await api.deployment(undefined, 'a1');
    const b = await api.deployment(undefined, 'b');
    const s = await api.deployment(undefined, 'subscriber');
    const filters: Record<string, Json> = {
      all: {},
      own: { exclude_own: false },
      consumed: { roles: ['consumed'] },
      both: { roles: ['produced', 'consumed'] },
      typeOr: { conforms_to: [TYPE, minted.iri] },
      minted: { conforms_to: [minted.iri] },
      typeAndKeyword: { conforms_to: [TYPE], keywords: ['shacl'] },
      software: { software: [a1.software.id] },
      instance: { instance: [b.instance.id] },
      keywordCase: { keywords: ['VALIDATION'] },
      keywordList: { keywords: ['rdf'] },
      license: { license: [CC_BY] },
      metadataOnly: { availability: ['metadata-only'] },
      restricted: { availability: ['restricted', 'embargoed'] },
      q: { q: 'quality' },
      disabled: {},
    };
    const sids: Record<string, string> = {};
    for (const [name, filter] of Object.entries(filters)) {
      const { subscription } = await api.call(
        'POST',
        `/api/v1/instances/${s.instance.id}/subscriptions`,
        201,
        { label: name, filter },
        s.token,
      );
      sids[name] = subscription.id;
    }
    await api.call('PATCH', `/api/v1/subscriptions/${sids.disabled}`, 200, { enabled: false }, s.token);

    const plain = await api.advertise(a1.token, 'produced', 'm-1', [artifact('Plain report')]);
    await api.advertise(a1.token, 'produced', 'm-2', [
      artifact('SHACL report', { keywords: ['shacl'], license: CC_BY }),
    ]);
    await api.advertise(b.token, 'produced', 'm-3', [
      {
        title: 'Minted summary',
        description: 'Data QUALITY figures',
        conforms_to: minted.iri,
        keywords: ['validation'],
        distributions: [
          { availability: 'metadata-only', access_request_url: 'https://data.example.org/ask' },
        ],
      },
    ]);
    await api.advertise(b.token, 'produced', 'm-4', [
      artifact('Restricted report', {
        keywords: ['rdf graph'],
        distributions: [{ download_url: 'https://data.example.org/r.ttl', availability: 'restricted' }],
      }),
    ]);
    await api.advertise(s.token, 'produced', 'm-5', [artifact('Own report')]);
    await api.advertise(b.token, 'consumed', 'm-6', [{ iri: plain.artifacts[0] }]);
    // A deployment of the subscribed software registered after the subscription matches too.
    const a2 = await api.deployment(a1.software, 'a2');
    await api.advertise(a2.token, 'produced', 'm-7', [artifact('Late report')]);
    // A retry claims nothing new and notifies nobody; a refused advertisement writes (and queues) nothing.
    expect((await api.advertise(a1.token, 'produced', 'm-1', [artifact('Plain report')])).created).toBe(
      false,
    );
    await api.call(
      'POST',
      '/api/v1/advertise/produced',
      422,
      {
        run: { external_key: 'm-8' },
        artifacts: [artifact('Refused report', { conforms_to: 'https://example.org/not-a-type' })],
      },
      a1.token,
    );
    await api.call('POST', '/api/v1/artifacts', 201, artifact('Registered report'), a1.token);

    const produced = ['Plain report', 'SHACL report', 'Minted summary', 'Restricted report'];
    const expected: Record<string, string[]> = {
      all: [...produced, 'Late report', 'Registered report'],
      own: [...produced, 'Own report', 'Late report', 'Registered report'],
      consumed: ['Plain report (consumed)'],
      both: [...produced, 'Plain report (consumed)', 'Late report', 'Registered report'],
      typeOr: [...produced, 'Late report', 'Registered report'],
      minted: ['Minted summary'],
      typeAndKeyword: ['SHACL report'],
      software: ['Plain report', 'SHACL report', 'Late report', 'Registered report'],
      instance: ['Minted summary', 'Restricted report'],
      keywordCase: ['Minted summary'],
      keywordList: ['Restricted report'],
      license: ['SHACL report'],
      metadataOnly: ['Minted summary'],
      restricted: ['Restricted report'],
      q: ['Minted summary'],
      disabled: [],
    };
    const seen: Record<string, string[]> = {};
    for (const name of Object.keys(filters)) seen[name] = await titles(sids[name]!, s.token);
    expect(seen).toEqual(expected);

    const [consumed] = await pullAll(sids.consumed!, s.token);
    expect(consumed!.notification).toMatchObject({
      role: 'consumed',
      instance: b.instance.iri,
      software: b.software.iri,
      artifact_iri: plain.artifacts[0],
    });
    const registered = (await pullAll(sids.all!, s.token)).at(-1)!;
    expect(registered).toMatchObject({ run_iri: null, role: 'produced' });
    expect(registered.notification).toMatchObject({
      run: null,
      instance: a1.instance.iri,
      software: a1.software.iri,
    });
    const detail = await api.call('GET', `/api/v1/subscriptions/${sids.all}`, 200, undefined, s.token);
    expect(detail.subscription.last_match_at).toEqual(expect.any(String));
    expect(detail.subscription.unacked_count).toBe(6);
  });

  it('queues nothing for a subscription created after the artifact, and notifies OpenLineage ingests', async () => {
    const producer = await api.deployment(undefined, 'lineage producer');
    const subscriber = await api.deployment(undefined, 'lineage subscriber');
    await api.advertise(producer.token, 'produced', 'before', [artifact('Before the subscription')]);
    const { subscription } = await api.call(
      'POST',
      `/api/v1/instances/${subscriber.instance.id}/subscriptions`,
      201,
      { filter: { roles: ['produced', 'consumed'] } },
      subscriber.token,
    );
    const event = JSON.parse(
      fs.readFileSync(new URL('../fixtures/openlineage/spark-complete.json', import.meta.url), 'utf8'),
    ) as Json;
    event.run.runId = randomUUID();
    const answer = await api.call('POST', '/api/v1/openlineage', 202, event, producer.token);
    const items = await pullAll(subscription.id, subscriber.token);
    expect(items.map((item) => item.artifact_iri).sort()).toEqual(
      [...answer.produced, ...answer.consumed].sort(),
    );
    expect(items.every((item) => item.run_iri === answer.run)).toBe(true);
  });
});
