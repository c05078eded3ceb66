import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { traced } from './tracing.js';

/** Seconds buckets for request and write latencies: a millisecond to half a minute. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Commits sharing one transaction: one to a few hundred. */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/** What an ingestion call came to, as the counters of advertisements, OpenLineage events and attestations say. */
export type IngestOutcome = 'accepted' | 'replayed' | 'refused' | 'dry_run' | 'failed';

/** What an ingestion endpoint takes in. */
export type IngestKind = 'advertise' | 'artifact' | 'openlineage' | 'attestation';

/** How resolving one foreign IRI at a peer went. */
export type ResolutionOutcome = 'resolved' | 'no_peer' | 'failed';

/**
 * The registry's Prometheus metrics, one set per opened store (tests open many in one process, so nothing is
 * kept in prom-client's global registry). Labels take values from short fixed lists or route templates only:
 * never an id, an IRI or text a caller sent.
 */
export class RegistryMetrics {
  /** Where every metric of this set is registered; `/metrics` renders it. */
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'reg_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'reg_http_request_duration_seconds',
    help: 'Time from receiving a request to its answer being ready, by method, route template and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly httpInFlight = new Gauge({
    name: 'reg_http_requests_in_flight',
    help: 'HTTP requests being handled now.',
    registers: [this.registry],
  });
  readonly ingestions = new Counter({
    name: 'reg_ingestions_total',
    help: 'Advertisements, artifact registrations, OpenLineage events and attestations received, by outcome.',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly validation = new Histogram({
    name: 'reg_validation_duration_seconds',
    help: 'Time to validate the records of one ingestion act against the shapes and rules.',
    labelNames: ['kind'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly commit = new Histogram({
    name: 'reg_commit_duration_seconds',
    help: 'Time from asking for a commit to its being durable and in the query index, by graph store.',
    labelNames: ['store'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly commitBatch = new Histogram({
    name: 'reg_commit_batch_size',
    help: 'Commits sharing one transaction (group commit; on the external store, one graph update).',
    buckets: BATCH_BUCKETS,
    registers: [this.registry],
  });
  readonly indexUpdate = new Histogram({
    name: 'reg_index_update_duration_seconds',
    help: 'Time to apply one committed batch to the query index.',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly indexLoad = new Gauge({
    name: 'reg_index_load_seconds',
    help: 'Seconds the query index took to load at start.',
    registers: [this.registry],
  });
  readonly peerResolutions = new Counter({
    name: 'reg_peer_resolutions_total',
    help: 'Foreign IRIs asked of a peer registry, by outcome.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly federatedPeers = new Counter({
    name: 'reg_federated_search_peer_answers_total',
    help: 'Peer answers to federated searches started or relayed here, by status.',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly federatedSearches = new Counter({
    name: 'reg_federated_searches_total',
    help: 'Federated searches handled here, by whether they were answered in full or in part.',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  private runtime = false;

  /** Adds the process and Node runtime metrics (event-loop lag, heap, garbage collection); once per set. */
  collectRuntime(): void {
    if (this.runtime) return;
    this.runtime = true;
    collectDefaultMetrics({ register: this.registry });
    // Gauges named like counters, which Prometheus's linter refuses; the same counts stay, by type, in
    // nodejs_active_handles, nodejs_active_requests and nodejs_active_resources.
    for (const name of [
      'nodejs_active_handles_total',
      'nodejs_active_requests_total',
      'nodejs_active_resources_total',
    ])
      this.registry.removeSingleMetric(name);
  }

  /** Counts a peer resolution by its outcome. */
  resolved(outcome: ResolutionOutcome): void {
    this.peerResolutions.inc({ outcome });
  }

  /** Counts the peers' answers of one federated search and whether it was partial. */
  federated(statuses: readonly { status: string }[], partial: boolean): void {
    for (const { status } of statuses) this.federatedPeers.inc({ status });
    this.federatedSearches.inc({ result: partial ? 'partial' : 'complete' });
  }

  /** Times a commit as its caller sees it (queued, durable and in the index), in a span of its own. */
  timeCommit<T>(store: 'embedded' | 'sparql', run: () => Promise<T>): Promise<T> {
    return timed(this.commit, { store }, 'reg.commit', run);
  }

  /** Times the validation of one ingestion act's records, in a span of its own. */
  timeValidation<T>(kind: IngestKind, run: () => Promise<T>): Promise<T> {
    return timed(this.validation, { kind }, 'reg.validate', run);
  }

  /** Times the update of the query index by one committed batch, in a span of its own. */
  timeIndexUpdate<T>(run: () => Promise<T>): Promise<T> {
    return timed(this.indexUpdate, {}, 'reg.index.update', run);
  }
}

/** Runs `run` in a span named `span`, observing its duration in `histogram` whether it succeeds or throws. */
async function timed<T, L extends string>(
  histogram: Histogram<L>,
  labels: Partial<Record<L, string>>,
  span: string,
  run: () => Promise<T>,
): Promise<T> {
  const end = histogram.startTimer(labels);
  try {
    return await traced(span, run);
  } finally {
    end();
  }
}

/**
 * The metrics of each store owner. Keyed weakly by the object that owns them (a graph store; a core through its
 * graph store), so a closed core's metrics go with it and nothing is shared between cores.
 */
const SETS = new WeakMap<object, RegistryMetrics>();

/** The metrics kept for a graph store (made at first use). */
export function storeMetrics(owner: object): RegistryMetrics {
  let set = SETS.get(owner);
  if (set === undefined) {
    set = new RegistryMetrics();
    SETS.set(owner, set);
  }
  return set;
}

/** The metrics of an opened core: those of its graph store. */
export function coreMetrics(core: { readonly graph: object }): RegistryMetrics {
  return storeMetrics(core.graph);
}
