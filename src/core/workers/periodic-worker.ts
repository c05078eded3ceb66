import type { Core } from '../core.js';

/**
 * Runs a pass of background work every `intervalMs` (the next pass is timed from the end of the previous one, so
 * passes never overlap), once the query index is loaded. All state lives in the operational database, so a
 * restart loses nothing; `stop()` waits for the pass under way, whose requests are bounded by their timeouts.
 */
export class PeriodicWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(
    private readonly core: Core,
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly pass: (now: Date) => Promise<unknown>,
  ) {}

  /** Starts the timer; the first pass runs one interval from now. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runPass().finally(() => {
        this.running = undefined;
        this.schedule();
      });
    }, this.intervalMs);
    this.timer.unref();
  }

  private async runPass(): Promise<void> {
    if (!this.core.graph.ready) return;
    try {
      const outcome = await this.pass(new Date());
      this.core.log.debug(`${this.name} pass done`, { outcome });
    } catch (error) {
      this.core.log.error(`${this.name} pass failed`, { error: (error as Error).message });
    }
  }

  /** Stops the timer and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
