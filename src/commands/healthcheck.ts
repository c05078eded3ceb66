import { Flags } from '@oclif/core';
import { UnavailableError } from '../core/errors.js';
import { localUrl } from '../cli/local-registry.js';
import { RegCommand } from '../cli/base-command.js';

/** What the health check saw, printed under --json. */
export interface HealthcheckResult {
  readonly url: string;
  readonly status: number;
  readonly ready: boolean;
}

export default class Healthcheck extends RegCommand {
  static override summary = "Exit 0 when the local registry's /readyz answers ready.";
  static override description = `Asks /readyz of the registry this environment serves (REG_LISTEN, with 0.0.0.0 read as 127.0.0.1) or of --url, and exits 0 only when it answers 200 with status "ready"; otherwise exits 6. Meant for container health checks, so it needs no other setting.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --url http://127.0.0.1:8080 --json',
  ];
  static override flags = {
    url: Flags.string({ description: 'base URL of the registry to check' }),
    timeout: Flags.integer({ description: 'seconds to wait for an answer', default: 5, min: 1, max: 300 }),
  };

  async run(): Promise<HealthcheckResult> {
    const { flags } = await this.parse(Healthcheck);
    const base = (flags.url ?? localUrl(process.env.REG_LISTEN)).replace(/\/+$/, '');
    const url = `${base}/readyz`;
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(flags.timeout * 1000) });
    } catch (error) {
      throw new UnavailableError(
        `${url} did not answer: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`,
      );
    }
    const body = (await response.json().catch(() => ({}))) as { status?: unknown; detail?: unknown };
    const ready = response.status === 200 && body.status === 'ready';
    if (!ready) {
      throw new UnavailableError(
        `${url} answered ${response.status}${typeof body.detail === 'string' ? `: ${body.detail}` : ''}`,
      );
    }
    this.log(`ready (${url})`);
    return { url, status: response.status, ready };
  }
}
