import { Hono, type Context } from 'hono';
import {
  datasetEvents,
  ingestOpenLineage,
  ingestOpenLineageBatch,
  isBatch,
  jobEvents,
  runEvents,
} from '../../core/provenance/openlineage.js';
import { exportOpenLineage, runAsOpenLineage } from '../../core/provenance/openlineage-export.js';
import type { AppEnv } from '../env.js';
import type { Mounts } from '../mounts.js';
import { readJson } from '../body.js';
import { problemBody } from '../problem.js';

/**
 * OpenLineage in: one event (RunEvent, DatasetEvent or JobEvent) or a JSON array of them per request, plain or
 * gzip-compressed, at `/api/v1/openlineage` and at `/api/v1/lineage`, the path the OpenLineage clients' HTTP
 * transport posts to by default. A single event is answered 202 or with its problem; a batch 202 when every
 * event was accepted, else 207 with each event's own answer (a refused event writes nothing, the others stand).
 * OpenLineage out: `GET /api/v1/runs/{id}/openlineage` (one run's events) and `GET /api/v1/openlineage/export`
 * (every run, NDJSON); `GET /api/v1/runs/{id}/events` lists the events a run was recorded from.
 */
export function openLineageRoutes(): Mounts {
  const ingest = async (c: Context<AppEnv>) => {
    // A batch is ingested event by event, each in a commit of its own beside other requests' commits, so it does
    // not hold the serving thread as one large write does: only a single large event takes a large write's turn.
    const body = await readJson(c, { oneLargeWrite: (value) => !isBatch(value) });
    const core = c.get('core');
    if (!isBatch(body)) return c.json(await ingestOpenLineage(core, c.get('act'), body), 202);
    const answers = await ingestOpenLineageBatch(core, c.get('act'), body);
    const events = answers.map((answer) =>
      'result' in answer
        ? { index: answer.index, status: answer.status, ...answer.result }
        : {
            index: answer.index,
            status: answer.status,
            problem: problemBody(answer.problem, c.get('requestId')),
          },
    );
    const accepted = answers.filter((answer) => answer.status === 202).length;
    return c.json(
      { accepted, refused: answers.length - accepted, events },
      accepted === answers.length ? 202 : 207,
    );
  };
  const openlineage = new Hono<AppEnv>();
  openlineage.post('/', ingest);
  // OpenLineage out: every run as RunEvents, one per line, read as they are written.
  openlineage.get('/export', (c) => {
    const lines = exportOpenLineage(c.get('core'), c.get('principal'));
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await lines.next();
        if (next.done === true) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await lines.return(undefined);
      },
    });
    return c.body(body, 200, { 'content-type': 'application/x-ndjson; charset=utf-8' });
  });
  const lineage = new Hono<AppEnv>();
  lineage.post('/', ingest);
  const events = new Hono<AppEnv>();
  events.get('/:id/openlineage', async (c) =>
    c.json(await runAsOpenLineage(c.get('core'), c.req.param('id'))),
  );
  events.get('/:id/events', async (c) =>
    c.json(
      await runEvents(c.get('core'), c.req.param('id'), {
        limit: c.req.query('limit'),
        cursor: c.req.query('cursor'),
      }),
    ),
  );
  const page = (c: Context<AppEnv>) => ({ limit: c.req.query('limit'), cursor: c.req.query('cursor') });
  const datasets = new Hono<AppEnv>();
  datasets.get('/:id/events', async (c) =>
    c.json(await datasetEvents(c.get('core'), c.req.param('id'), page(c))),
  );
  const jobs = new Hono<AppEnv>();
  jobs.get('/:id/job-events', async (c) =>
    c.json(await jobEvents(c.get('core'), c.req.param('id'), page(c))),
  );
  return [
    ['/api/v1/artifacts', datasets],
    ['/api/v1/instances', jobs],
    ['/api/v1/openlineage', openlineage],
    ['/api/v1/lineage', lineage],
    ['/api/v1/runs', events],
  ];
}
