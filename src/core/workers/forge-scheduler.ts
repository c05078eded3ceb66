import { ForgePacer, sleep, type PaceGaps, type Sleeper } from '../forge/pacer.js';
import { activeForgeLimit, forgeSyncDueAt } from '../store/forge-cache.js';
import type { Core } from '../core.js';
import {
  connectedSoftware,
  forgeCredential,
  FORGE_SYNC_PRINCIPAL,
  runForgeSync,
} from '../forge/forge-sync.js';

/** Dependencies a test replaces: the clock, the sleeper behind the pacing, and the pacing gaps. */
export interface ForgeSchedulerOptions {
  readonly now?: () => Date;
  readonly sleep?: Sleeper;
  readonly pace?: PaceGaps;
  /** Delay before the first pass after start (default 30 s, so start-up settles first). */
  readonly firstPassMs?: number;
}

/** The scheduler wakes at least hourly (contract: every min(interval, 1 h)), so a due record waits an hour at most. */
const MAX_WAKE_MS = 3_600_000;
/** While the query index loads, look again this soon. */
const NOT_READY_RETRY_MS = 5_000;
const FIRST_PASS_MS = 30_000;

/**
 * The scheduled forge sync: each pass syncs every live software record whose `sync.enabled` is not false and
 * whose next-due time (kept in the operational database, `REG_FORGE_POLL_INTERVAL` after its last run) has
 * passed, one at a time, with requests to each forge paced (2 s apart with a token, 120 s without). A forge that
 * answered with a rate limit is not called again before its reset: its records stay due and are synced on the
 * first pass after it. Stopping aborts the wait or request under way; an aborted run records nothing.
 */
export class ForgeScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;
  private abort = new AbortController();
  private readonly now: () => Date;
  private readonly pacer: ForgePacer;

  constructor(
    private readonly core: Core,
    private readonly options: ForgeSchedulerOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.pacer = new ForgePacer(this.now, options.sleep ?? sleep, options.pace);
  }

  /** Starts passes: the first shortly after start, then every min(`REG_FORGE_POLL_INTERVAL`, 1 h). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.abort = new AbortController();
    this.schedule(this.options.firstPassMs ?? FIRST_PASS_MS);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      let next = Math.min(this.core.config.forgePollIntervalMs, MAX_WAKE_MS);
      this.running = this.tick()
        .then((runs) => {
          if (runs === undefined) next = NOT_READY_RETRY_MS;
        })
        .catch((error: unknown) =>
          this.core.log.error('forge sync pass failed', { error: (error as Error).message }),
        )
        .finally(() => {
          this.running = undefined;
          this.schedule(next);
        });
    }, delayMs);
    this.timer.unref();
  }

  /** Stops passes, aborting the wait or forge request under way, and waits for the pass to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.abort.abort();
    await this.running;
  }

  /**
   * One pass over the due records. Returns the number of runs made, or undefined when the query index is not
   * loaded yet (nothing can be listed).
   */
  async tick(): Promise<number | undefined> {
    const { core } = this;
    if (!core.graph.ready) return undefined;
    const signal = this.abort.signal;
    const due = (await connectedSoftware(core))
      .map((item) => ({ ...item, dueAt: forgeSyncDueAt(core.db, item.iri) }))
      .filter((item) => item.dueAt === undefined || Date.parse(item.dueAt) <= this.now().getTime())
      .sort((a, b) => (a.dueAt ?? '').localeCompare(b.dueAt ?? ''));
    let runs = 0;
    for (const item of due) {
      if (signal.aborted) break;
      const credential = forgeCredential(core, item.source);
      const apiBase = core.config.forgeApis[item.source];
      if (activeForgeLimit(core.db, apiBase, credential.kind, this.now()) !== undefined) continue;
      try {
        const outcome = await runForgeSync(core, item.iri, {
          principal: FORGE_SYNC_PRINCIPAL,
          now: this.now,
          pace: (base, authenticated) => this.pacer.pace(base, authenticated, signal),
          signal,
        });
        runs++;
        if (outcome.status === 'ok')
          core.log.info('forge sync', { software: item.iri, changed: outcome.changed });
        else core.log.warn('forge sync failed', { software: item.iri, error: outcome.error });
      } catch (error) {
        if (signal.aborted) break;
        core.log.warn('forge sync failed', { software: item.iri, error: (error as Error).message });
      }
    }
    return runs;
  }
}
