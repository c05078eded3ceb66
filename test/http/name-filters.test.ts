import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';
import { apiOf, type Json } from '../support/api.js';

let core: Core;
let api: ReturnType<typeof apiOf>;

beforeAll(async () => {
  core = await openTestCore({}, true);
  api = apiOf(createApp(core));
});
afterAll(async () => core.close());

const ids = (list: Json): string[] => (list.items as Json[]).map((item) => item.id as string).sort();

describe('exact name filters of the lists', () => {
  it('finds software by its whole name only, case and all', async () => {
    const exact = await api.call('POST', '/api/v1/software', 201, { name: 'name-filter tool' });
    await api.call('POST', '/api/v1/software', 201, { name: 'name-filter tool plus' });
    await api.call('POST', '/api/v1/software', 201, { name: 'Name-Filter Tool' });
    const found = await api.call('GET', '/api/v1/software?name=name-filter%20tool', 200);
    expect(ids(found)).toEqual([exact.id]);
    expect(found.total).toBe(1);
    expect((await api.call('GET', '/api/v1/software?name=name-filter', 200)).total).toBe(0);
    // The contains search still finds all three.
    expect((await api.call('GET', '/api/v1/software?q=name-filter%20tool', 200)).total).toBe(3);
  });

  it('finds deployments by their whole label, every deployment of that label', async () => {
    const sw = await api.call('POST', '/api/v1/software', 201, { name: 'label-filter software' });
    const first = await api.call('POST', '/api/v1/instances', 201, {
      software: sw.iri,
      label: 'label filter node',
    });
    const second = await api.call('POST', '/api/v1/instances', 201, {
      software: sw.iri,
      label: 'label filter node',
    });
    await api.call('POST', '/api/v1/instances', 201, { software: sw.iri, label: 'label filter node 2' });
    const found = await api.call('GET', '/api/v1/instances?label=label%20filter%20node', 200);
    expect(ids(found)).toEqual([first.id, second.id].sort());
    await api.call('DELETE', `/api/v1/instances/${second.id}`, 204);
    expect(ids(await api.call('GET', '/api/v1/instances?label=label%20filter%20node', 200))).toEqual([
      first.id,
    ]);
  });
});
