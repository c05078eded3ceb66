import { probeDue } from '../catalogue/health-probe.js';
import { resolveDue } from '../federation/peer-resolver.js';
import type { Core } from '../core.js';
import { PeriodicWorker } from './periodic-worker.js';

/** The longest wait between two health passes; each pass probes the deployments whose interval has passed. */
const HEALTH_TICK_MAX_MS = 30_000;

/** Background workers started together and stopped together. */
export interface RunningWorkers {
  stop(): Promise<void>;
}

/**
 * Starts the peer resolver (every `REG_PEER_RESOLVE_TICK`, unless `REG_PEER_RESOLVE_ENABLED` is false) and the
 * deployment health prober (passes at most 30 s apart, each probing those last probed more than
 * `REG_HEALTH_CHECK_INTERVAL` ago).
 */
export function startFederationWorkers(core: Core): RunningWorkers {
  const workers: PeriodicWorker[] = [];
  if (core.config.peers.resolveEnabled)
    workers.push(
      new PeriodicWorker(core, 'peer resolution', core.config.peers.resolveTickMs, (now) =>
        resolveDue(core, now),
      ),
    );
  workers.push(
    new PeriodicWorker(
      core,
      'health probing',
      Math.min(core.config.healthCheckIntervalMs, HEALTH_TICK_MAX_MS),
      (now) => probeDue(core, now),
    ),
  );
  for (const worker of workers) worker.start();
  return {
    stop: async () => {
      await Promise.all(workers.map((worker) => worker.stop()));
    },
  };
}
