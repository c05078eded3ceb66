import type { RestoreProgress } from '../core/ops/restore.js';
import { startProgress, type ProgressLine, type ProgressOptions } from './progress.js';

/** What a restore shows, one line per step: the file read, written, then checked. */
export class RestoreSteps {
  private current: { step: RestoreProgress['phase']; line: ProgressLine } | undefined;

  constructor(private readonly shown: ProgressOptions) {}

  async show(progress: RestoreProgress): Promise<void> {
    switch (progress.phase) {
      case 'read':
        return (await this.step('read', 'quads read', progress.of)).update(progress.quads, progress.of);
      case 'write':
        await this.step('write', 'writing to the store', undefined);
        return;
      case 'check':
        return (await this.step('check', "records checked against today's shapes", progress.of)).update(
          progress.records,
          progress.of,
        );
    }
  }

  /** The line of `step`, started when the step begins; the step before it ends with its summary. */
  private async step(
    step: RestoreProgress['phase'],
    unit: string,
    total: number | undefined,
  ): Promise<ProgressLine> {
    if (this.current?.step === step) return this.current.line;
    this.end();
    const waiting = step === 'write';
    const line = await startProgress('restore', unit, { ...this.shown, total, waiting });
    this.current = { step, line };
    return line;
  }

  /** Ends the current step with its summary. */
  end(): void {
    this.current?.line.finish(this.current.step === 'write' ? 'written to the store' : undefined);
    this.current = undefined;
  }

  /** Ends the current step quietly (the restore failed). */
  stop(): void {
    this.current?.line.stop();
    this.current = undefined;
  }
}
