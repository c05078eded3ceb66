import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Collects the warnings of one act: members a request carried that no record defines, which were ignored rather
 * than refused. The act's answer names them, so that a typo stays visible without breaking older clients.
 */
export class WarningCollector {
  private readonly storage = new AsyncLocalStorage<string[]>();

  /** Runs `work` and returns its result with the warnings noted while it ran (each once, in order). */
  async collect<T>(work: () => Promise<T>): Promise<{ result: T; warnings: string[] }> {
    const warnings: string[] = [];
    const result = await this.storage.run(warnings, work);
    return { result, warnings: [...new Set(warnings)] };
  }

  /** Notes warnings for the act in progress; outside `collect` (seed, restore) there is nobody to tell. */
  note(warnings: readonly string[]): void {
    if (warnings.length > 0) this.storage.getStore()?.push(...warnings);
  }
}
