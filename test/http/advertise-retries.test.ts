/**
 * An advertisement made again changes nothing: not after a plain retry (no rewrite of the run, no audit row)
 * and not after the registry was dumped and restored elsewhere (the keys and claims come back from the records).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { restoreNQuads } from '../../src/core/ops/restore.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, tempDir } from '../helpers.js';
import { apiOf, TYPE, type Json } from '../support/api.js';

const opened: Core[] = [];
afterEach(async () => {
  for (const core of opened.splice(0)) await core.close();
});

async function registry(dataDir = tempDir()) {
  const core = await openTestCore({ REG_DATA_DIR: dataDir }, true);
  opened.push(core);
  return { core, dataDir, api: apiOf(createApp(core)) };
}

const body = (input: string) => ({
  run: {
    external_key: 'gh-actions/777/validate/attempt-1',
    status: 'success',
    started_at: '2026-11-01T10:00:00Z',
    ended_at: '2026-11-01T10:05:00Z',
    label: 'validate',
  },
  artifacts: [
    {
      title: 'validation report',
      conforms_to: TYPE,
      distributions: [{ download_url: 'https://d.example.org/r' }],
    },
    { iri: input },
  ],
});

it('changes nothing on an exact retry: same answer, no rewrite of the run, no audit row', async () => {
  const { api } = await registry();
  const { token } = await api.deployment();
  const input = (await api.call('POST', '/api/v1/artifacts', 201, { title: 'input', conforms_to: TYPE })).iri;
  const first = await api.call('POST', '/api/v1/advertise/consumed', 201, body(input), token);
  const runId = String(first.run).split('/').pop();
  const before = await api.call('GET', `/api/v1/runs/${runId}`, 200);
  const audit = (await api.call('GET', '/api/v1/audit?limit=1000', 200)).items as Json[];
  const again = await api.call('POST', '/api/v1/advertise/consumed', 200, body(input), token);
  expect(again).toEqual({ ...first, created: false });
  expect((await api.call('GET', `/api/v1/runs/${runId}`, 200)).modified).toBe(before.modified);
  expect(((await api.call('GET', '/api/v1/audit?limit=1000', 200)).items as Json[]).length).toBe(
    audit.length,
  );
});

it('finds the run and artifacts again after a dump is restored into another data directory', async () => {
  const source = await registry();
  const { token, instance } = await source.api.deployment();
  const input = (
    await source.api.call('POST', '/api/v1/artifacts', 201, { title: 'input', conforms_to: TYPE })
  ).iri;
  // A produced advertisement of new artifacts only: they record the run that generated them.
  const made = { ...body(input), artifacts: body(input).artifacts.slice(0, 1) };
  const produced = await source.api.call('POST', '/api/v1/advertise/produced', 201, made, token);
  const consumed = await source.api.call('POST', '/api/v1/advertise/consumed', 201, body(input), token);
  const chunks: string[] = [];
  for await (const chunk of source.core.graph.dump()) chunks.push(chunk);
  const file = path.join(tempDir(), 'dump.nq');
  fs.writeFileSync(file, chunks.join(''));

  const target = tempDir();
  const stopped = await openTestCore({ REG_DATA_DIR: target });
  await restoreNQuads(stopped, file);
  await stopped.close();
  const restored = await registry(target);
  // The deployment's token lives in the operational database, which a dump does not carry: mint one again.
  const minted = await restored.api.call('POST', `/api/v1/instances/${instance.id}/tokens`, 201, {
    scopes: ['advertise:produce', 'advertise:consume'],
  });
  const retried = await restored.api.call('POST', '/api/v1/advertise/produced', 200, made, minted.token);
  expect(retried).toEqual({ ...produced, created: false });
  expect(
    await restored.api.call('POST', '/api/v1/advertise/consumed', 200, body(input), minted.token),
  ).toEqual({
    ...consumed,
    created: false,
  });
  const runs = await restored.api.call('GET', `/api/v1/runs?instance=${instance.id}`, 200);
  expect(runs.items.map((run: Json) => run.iri)).toEqual([produced.run]);
});
