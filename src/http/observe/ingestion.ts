import type { Context } from 'hono';
import type { IngestKind, IngestOutcome, RegistryMetrics } from '../../core/ops/metrics.js';
import type { AppEnv } from '../env.js';

/** The routes that take records in, by template, and what they take. */
const INGESTING: ReadonlyMap<string, IngestKind> = new Map<string, IngestKind>([
  ['POST /api/v1/advertise/produced', 'advertise'],
  ['POST /api/v1/advertise/consumed', 'advertise'],
  ['POST /api/v1/artifacts', 'artifact'],
  ['POST /api/v1/openlineage', 'openlineage'],
  ['POST /api/v1/lineage', 'openlineage'],
  ['POST /api/v1/attestations', 'attestation'],
]);

/** An answer's status as an ingestion outcome: 201 recorded, 200 received before (or a dry run), 4xx refused. */
function outcomeOf(status: number, dryRun: boolean): IngestOutcome {
  if (status >= 500) return 'failed';
  if (status >= 400) return 'refused';
  if (dryRun) return 'dry_run';
  return status === 200 ? 'replayed' : 'accepted';
}

/** One OpenLineage event's answer within a batch, or a single event's answer. */
interface EventAnswer {
  readonly status?: number;
  readonly replayed?: boolean;
}

/**
 * Counts what an ingestion request came to. OpenLineage answers 202 whether an event is new or was received
 * before, so its answer (one event, or a batch with an answer per event) is read for `replayed`.
 */
export async function countIngestion(
  c: Context<AppEnv>,
  route: string,
  metrics: RegistryMetrics,
): Promise<void> {
  const kind = INGESTING.get(`${c.req.method} ${route}`);
  if (kind === undefined) return;
  const status = c.res.status;
  const dryRun = c.req.query('dry_run') === 'true';
  if (kind !== 'openlineage' || (status !== 202 && status !== 207) || dryRun) {
    metrics.ingestions.inc({ kind, outcome: outcomeOf(status, dryRun) });
    return;
  }
  const answer = (await c.res.clone().json()) as EventAnswer & { events?: EventAnswer[] };
  for (const event of answer.events ?? [answer]) {
    const accepted = event.status === undefined || event.status === 202;
    const outcome = accepted ? (event.replayed === true ? 'replayed' : 'accepted') : 'refused';
    metrics.ingestions.inc({ kind, outcome });
  }
}
