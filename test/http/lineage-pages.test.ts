/**
 * Lineage within budgets: a neighbourhood larger than one answer comes in pages that never pass their budgets
 * and together give the whole lineage; `as_of` answers lineage as it stood; `collapse` shows versions as their
 * dataset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { completeRunEvent } from '../support/openlineage.js';
import { lineageIndexReady, markLineageStale } from '../../src/core/store/lineage/lineage-index.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let token: string;
const root = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const HUB = { namespace: 'postgres://warehouse:5432', name: 'sales.public.orders' };
const READERS = 40;

async function call(method: string, path: string, body?: unknown, bearer = ROOT_TOKEN) {
  const response = await app.request(path, {
    method,
    headers: { ...root, authorization: `Bearer ${bearer}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** A COMPLETE RunEvent of a job reading `inputs` and writing `outputs` at `time`. */
async function run(job: string, time: string, inputs: object[], outputs: object[]) {
  const answer = await call('POST', '/api/v1/lineage', completeRunEvent(job, time, inputs, outputs), token);
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  return answer.body;
}

const idOf = (iri: string) => iri.slice(iri.lastIndexOf('/') + 1);
const lineageOf = async (artifact: string, query: string) =>
  call('GET', `/api/v1/artifacts/${idOf(artifact)}/lineage?${query}`);

let hubVersion: string;
let written: string[];
let before: string;
let loader2: any;

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  const software = await call('POST', '/api/v1/software', { name: 'pipelines' });
  const instance = await call('POST', '/api/v1/instances', {
    software: software.body.id,
    label: 'scheduler',
  });
  token = (await call('POST', `/api/v1/instances/${instance.body.id}/tokens`, {})).body.token;
  const loader = await run('load orders', '2026-04-01T01:00:00Z', [], [HUB]);
  hubVersion = loader.produced[0];
  written = [];
  for (let at = 0; at < READERS; at++) {
    const reader = await run(
      `report ${at}`,
      '2026-04-01T02:00:00Z',
      [HUB],
      [{ namespace: 's3://reports', name: `report-${at}` }],
    );
    expect(reader.consumed).toEqual([hubVersion]);
    written.push(reader.produced[0]);
  }
  // Everything above was recorded before this instant; the second load after it.
  await new Promise((resolve) => setTimeout(resolve, 20));
  before = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 20));
  loader2 = await run('load orders', '2026-04-02T01:00:00Z', [], [HUB]);
});
afterAll(async () => core.close());

describe('GET /api/v1/artifacts/{id}/lineage, in pages', () => {
  it('answers a large neighbourhood in pages within the budgets, which together give the whole lineage', async () => {
    const whole = await lineageOf(hubVersion, 'direction=down&depth=2&max_nodes=2000');
    expect(whole.status).toBe(200);
    expect(whole.body.partial).toBe(false);
    expect(whole.body.cursor).toBeUndefined();
    // The hub, 40 runs that read it, 40 reports they wrote, and the hub's next version (a revision of it).
    expect(whole.body.nodes).toHaveLength(2 + 2 * READERS);
    for (const report of written) expect(whole.body.nodes.map((node: any) => node.iri)).toContain(report);

    const nodes = new Set<string>();
    const edges = new Set<string>();
    let query = 'direction=down&depth=2&max_nodes=10&max_edges=12';
    let pages = 0;
    for (;;) {
      const page = await lineageOf(hubVersion, query);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      pages++;
      expect(page.body.nodes.length).toBeLessThanOrEqual(10);
      expect(page.body.edges.length).toBeLessThanOrEqual(12);
      for (const node of page.body.nodes) {
        expect(nodes.has(node.iri), `${node.iri} given twice`).toBe(false);
        nodes.add(node.iri);
      }
      for (const edge of page.body.edges) edges.add(`${edge.from} ${edge.predicate} ${edge.to}`);
      if (page.body.cursor === undefined) {
        expect(page.body.partial).toBe(false);
        break;
      }
      expect(page.body.partial).toBe(true);
      query = `direction=down&depth=2&max_nodes=10&max_edges=12&cursor=${page.body.cursor}`;
      expect(pages).toBeLessThan(100);
    }
    expect(pages).toBeGreaterThan(5);
    expect([...nodes].sort()).toEqual(whole.body.nodes.map((node: any) => node.iri).sort());
    expect([...edges].sort()).toEqual(
      whole.body.edges.map((edge: any) => `${edge.from} ${edge.predicate} ${edge.to}`).sort(),
    );
  });

  it('refuses a cursor it did not give, or given for another lineage', async () => {
    const bad = await lineageOf(hubVersion, 'direction=down&cursor=not-a-cursor');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('cursor');
    const first = await lineageOf(hubVersion, 'direction=down&depth=2&max_nodes=5');
    expect(first.body.cursor).toBeDefined();
    const other = await lineageOf(hubVersion, `direction=up&depth=2&max_nodes=5&cursor=${first.body.cursor}`);
    expect(other.status).toBe(400);
  });

  it('stops at its time budget with a cursor rather than failing', async () => {
    const page = await lineageOf(hubVersion, 'direction=down&depth=6&max_nodes=2000&time_budget_ms=1');
    expect(page.status).toBe(200);
    // A budget of 1 ms is spent after the first step at the latest: the rest comes with the cursor.
    if (page.body.partial) expect(page.body.cursor).toBeDefined();
    else expect(page.body.nodes).toHaveLength(2 + 2 * READERS);
  });

  it('answers lineage as the registry had recorded it at as_of', async () => {
    const now = await lineageOf(loader2.produced[0], 'direction=up&depth=1');
    expect(now.body.edges).toContainEqual({
      from: loader2.produced[0],
      to: hubVersion,
      predicate: 'revisionOf',
    });
    const then = await lineageOf(hubVersion, `direction=down&depth=1&as_of=${before}`);
    expect(then.body.as_of).toBe(before);
    expect(then.body.nodes.map((node: any) => node.iri)).not.toContain(loader2.produced[0]);
    const later = await lineageOf(hubVersion, 'direction=down&depth=1');
    expect(later.body.nodes.map((node: any) => node.iri)).toContain(loader2.produced[0]);
    const refused = await lineageOf(hubVersion, 'as_of=last-tuesday');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe('as_of');
  });

  it('collapses versions into their dataset on request', async () => {
    const answer = await lineageOf(loader2.produced[0], 'direction=both&depth=2&collapse=datasets');
    expect(answer.status).toBe(200);
    expect(answer.body.collapsed).toBe(true);
    const datasets = answer.body.nodes.filter((node: any) => node.entity_type === 'dataset');
    const hub = datasets.find((node: any) => node.versions.includes(hubVersion));
    expect(hub).toBeDefined();
    expect(hub.versions).toEqual([hubVersion, loader2.produced[0]].sort());
    expect(hub.title).toBe(HUB.name);
    // The revision between the two versions is inside the dataset, not an edge.
    expect(answer.body.edges.filter((edge: any) => edge.from === edge.to)).toEqual([]);
    expect(
      answer.body.edges.some((edge: any) => edge.predicate === 'revisionOf' && edge.to === hub.iri),
    ).toBe(false);
  });
});

describe('GET /api/v1/artifacts/{id}/lineage across a level wider than one query', () => {
  const WIDE = 300;
  let wide: Core;
  let wideApp: ReturnType<typeof createApp>;
  let hub: string;
  /** The most frontier artifacts one lineage step looked up in one query. */
  let widest = 0;

  beforeAll(async () => {
    wide = await openTestCore({}, true);
    wideApp = createApp(wide);
    const post = async (path: string, body: unknown, bearer = ROOT_TOKEN) => {
      const response = await wideApp.request(path, {
        method: 'POST',
        headers: { ...root, authorization: `Bearer ${bearer}` },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as any;
      expect([201, 202], JSON.stringify(json)).toContain(response.status);
      return json;
    };
    const software = await post('/api/v1/software', { name: 'fan-out pipelines' });
    const instance = await post('/api/v1/instances', { software: software.id, label: 'fan-out' });
    const deployment = (await post(`/api/v1/instances/${instance.id}/tokens`, {})).token as string;
    hub = (
      await post('/api/v1/lineage', completeRunEvent('load', '2026-05-01T01:00:00Z', [], [HUB]), deployment)
    ).produced[0];
    const events = Array.from({ length: WIDE }, (_, at) =>
      completeRunEvent(
        `reader ${at}`,
        '2026-05-01T02:00:00Z',
        [HUB],
        [{ namespace: 's3://fan', name: `out-${at}` }],
      ),
    );
    const batch = await post('/api/v1/lineage', events, deployment);
    expect(batch.accepted).toBe(WIDE);
    // The walk asks the query index (its lineage index emptied, as in a database from before it), and the real
    // store is watched: every lineage step names its frontier in a VALUES block bound to ?a.
    wide.db.transaction(() => markLineageStale(wide.db, wide.graph.kind));
    const select = wide.graph.select.bind(wide.graph);
    wide.graph.select = async (query: string) => {
      const values = /VALUES \?a \{([^}]*)\}/.exec(query);
      if (values !== null) widest = Math.max(widest, (values[1]!.match(/<[^>]+>/g) ?? []).length);
      return select(query);
    };
  });
  afterAll(async () => wide.close());

  it('reads the level a slice at a time, and the pages still give the whole lineage', async () => {
    const get = async (query: string) => {
      const response = await wideApp.request(`/api/v1/artifacts/${idOf(hub)}/lineage?${query}`, {
        headers: { authorization: `Bearer ${ROOT_TOKEN}` },
      });
      return (await response.json()) as any;
    };
    const whole = await get('direction=down&depth=2&max_nodes=2000');
    expect(whole.partial).toBe(false);
    // The hub, the runs that read it and the artifacts they wrote; the second level (those artifacts) is wider
    // than one query takes, yet each step looked up a bounded slice of it.
    expect(whole.nodes).toHaveLength(1 + 2 * WIDE);
    expect(widest).toBeGreaterThan(0);
    expect(widest).toBeLessThanOrEqual(256);
    const seen = new Set<string>();
    let query = 'direction=down&depth=2&max_nodes=150';
    for (let pages = 0; ; pages++) {
      expect(pages).toBeLessThan(50);
      const page = await get(query);
      for (const node of page.nodes) {
        expect(seen.has(node.iri), `${node.iri} given twice`).toBe(false);
        seen.add(node.iri);
      }
      if (page.cursor === undefined) break;
      query = `direction=down&depth=2&max_nodes=150&cursor=${page.cursor}`;
    }
    expect([...seen].sort()).toEqual(whole.nodes.map((node: any) => node.iri).sort());
  });
});

describe('lineage from the lineage index', () => {
  /** Every answer below, with its cursors left out (a cursor is a fresh random name each time). */
  const answers = async (): Promise<unknown[]> => {
    const out: unknown[] = [];
    for (const [artifact, query] of [
      [hubVersion, 'direction=both&depth=6'],
      [written[3]!, 'direction=up&depth=3'],
      [loader2.produced[0], 'direction=both&depth=2'],
      [hubVersion, `direction=down&depth=2&as_of=${before}`],
      [loader2.produced[0], 'direction=both&depth=3&collapse=datasets'],
    ] as const) {
      const answer = await lineageOf(artifact, query);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      out.push(answer.body);
    }
    // A walk in pages: each page, as given.
    let query = 'direction=down&depth=2&max_nodes=9&max_edges=11';
    for (let pages = 0; pages < 100; pages++) {
      const { body } = await lineageOf(hubVersion, query);
      const { cursor, ...page } = body;
      out.push(page);
      if (cursor === undefined) break;
      query = `direction=down&depth=2&max_nodes=9&max_edges=11&cursor=${cursor}`;
    }
    return out;
  };
  /** Commits something unrelated, so no answer memoised before it is given again. */
  const touch = async () =>
    expect((await call('POST', '/api/v1/software', { name: `touch ${Date.now()}` })).status).toBe(201);

  it('answers exactly as the query index does, and is filled again at the next start when it is emptied', async () => {
    expect(lineageIndexReady(core.db)).toBe(true);
    const fromIndex = await answers();
    expect((fromIndex[0] as any).nodes).toHaveLength(3 + 2 * READERS);

    // Emptied, as in a database from before it: lineage asks the query index, and answers the same.
    core.db.transaction(() => markLineageStale(core.db, core.graph.kind));
    expect(lineageIndexReady(core.db)).toBe(false);
    await touch();
    expect(await answers()).toEqual(fromIndex);

    // The next start fills it from the records (in the background), and lineage reads it again.
    const dataDir = core.config.dataDir;
    await core.close();
    core = await openTestCore({ REG_DATA_DIR: dataDir }, true);
    app = createApp(core);
    for (let waited = 0; !lineageIndexReady(core.db); waited++) {
      expect(waited).toBeLessThan(500);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await answers()).toEqual(fromIndex);
  });

  it('answers before the query index is loaded', async () => {
    const expected = await lineageOf(hubVersion, 'direction=both&depth=6');
    const dataDir = core.config.dataDir;
    await core.close();
    core = await openTestCore({ REG_DATA_DIR: dataDir }, false);
    app = createApp(core);
    expect(core.graph.ready).toBe(false);
    const early = await lineageOf(hubVersion, 'direction=both&depth=6');
    expect(early.status, JSON.stringify(early.body)).toBe(200);
    expect(early.body).toEqual(expected.body);
  });
});
