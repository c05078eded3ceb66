import { Gauge, type Registry } from 'prom-client';
import type { Core } from '../core.js';
import { GRAPHS } from '../ns.js';
import { COUNTED_KINDS } from '../records/kind-registry.js';
import { countPeers } from '../store/ops-status.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { coreMetrics } from './metrics.js';

/** Deliveries still to make, by state: waiting for a first attempt, retrying after a failure, given up. */
const QUEUE_STATES = ['pending', 'failed', 'dead'] as const;

/** Gauges read from the stores when `/metrics` is asked, registered once per core. */
const BOUND = new WeakSet<object>();

/**
 * Registers the gauges read at each scrape: the store's size and record counts, the peers, uptime, the readiness
 * of the query index and of the lineage index, the delivery queue and the start-up count of stranded records
 * (their names are part of the contract), and the Node runtime's metrics.
 */
export function bindStatusGauges(core: Core): void {
  if (BOUND.has(core)) return;
  BOUND.add(core);
  // The runtime's metrics start with the first scrape: a core nobody scrapes (a command, a test) keeps no
  // event-loop monitor or garbage-collection observer running.
  coreMetrics(core).collectRuntime();
  const registers = [coreMetrics(core).registry];
  new Gauge({
    name: 'reg_triples',
    help: 'Quads in the graph store, reference bundles included.',
    registers,
    async collect() {
      this.set(await core.graph.countQuads());
    },
  });
  new Gauge({
    name: 'reg_entities',
    help: 'Records of each kind in the registry.',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      const byKind = await core.graph.countByKind(GRAPHS.local);
      for (const [kind, label] of COUNTED_KINDS) this.set({ kind: label }, byKind.get(kind) ?? 0);
    },
  });
  new Gauge({
    name: 'reg_peers',
    help: 'Peer registries configured.',
    registers,
    collect() {
      this.set(countPeers(core.db).configured);
    },
  });
  new Gauge({
    name: 'reg_peers_failing',
    help: 'Peer registries whose last contact failed.',
    registers,
    collect() {
      this.set(countPeers(core.db).failing);
    },
  });
  new Gauge({
    name: 'reg_uptime_seconds',
    help: 'Seconds since this process started serving.',
    registers,
    collect() {
      this.set(Math.floor((Date.now() - core.startedAt.getTime()) / 1000));
    },
  });
  new Gauge({
    name: 'reg_index_ready',
    help: 'Whether the query index is loaded (1) or not (0).',
    registers,
    collect() {
      this.set(core.graph.ready ? 1 : 0);
    },
  });
  new Gauge({
    name: 'reg_lineage_index_ready',
    help: 'Whether the lineage index holds every record (1), or is being filled (0: lineage asks the query index).',
    registers,
    collect() {
      this.set(lineageIndexReady(core.db) ? 1 : 0);
    },
  });
  bindQueueGauges(core, registers);
  bindStrandedGauge(core, registers);
}

/** The webhook delivery queue: depth and the age of the oldest delivery, by state. */
function bindQueueGauges(core: Core, registers: Registry[]): void {
  let rows: { status: string; n: number; oldest: string | null }[] = [];
  new Gauge({
    name: 'reg_delivery_queue_depth',
    help: 'Webhook deliveries not yet made, by state (pending, failed and retrying, dead).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      rows = queueByState(core);
      for (const state of QUEUE_STATES) this.set({ state }, rows.find((row) => row.status === state)?.n ?? 0);
    },
  });
  new Gauge({
    name: 'reg_delivery_queue_oldest_age_seconds',
    help: 'Age of the oldest webhook delivery not yet made, by state (0 when there is none).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const now = Date.now();
      for (const state of QUEUE_STATES) {
        const oldest = rows.find((row) => row.status === state)?.oldest;
        this.set({ state }, oldest == null ? 0 : Math.max(0, (now - Date.parse(oldest)) / 1000));
      }
    },
  });
}

/** Deliveries not made, grouped by state, with the instant the oldest of each was matched. */
function queueByState(core: Core): { status: string; n: number; oldest: string | null }[] {
  return core.db
    .prepare(
      `SELECT status, count(*) AS n, min(matched_at) AS oldest FROM delivery
       WHERE status IN ('pending', 'failed', 'dead') GROUP BY status`,
    )
    .all() as { status: string; n: number; oldest: string | null }[];
}

/** The start-up count of records citing terms an edit would refuse. */
function bindStrandedGauge(core: Core, registers: Registry[]): void {
  new Gauge({
    name: 'reg_stranded_records',
    help: 'Records citing a vocabulary term the registry no longer holds as citable, found at start (named in the start-up log); 0 until that check has run.',
    registers,
    collect() {
      this.set(core.reference.stranded?.records ?? 0);
    },
  });
}
