import { Command } from '@oclif/core';
import { readConfig, type Config } from '../core/config/index.js';
import { Problem } from '../core/errors.js';
import { createLogger, type Logger } from '../core/log.js';
import { exitCodeFor } from './exit-codes.js';

/**
 * The base of every `reg` command: `--json` on all of them, configuration read from the environment exactly as
 * `serve` reads it, and errors printed as one line (or as a JSON object under `--json`) with a documented exit
 * code.
 */
export abstract class RegCommand extends Command {
  static override enableJsonFlag = true;

  /** Reads the effective configuration from the process environment. */
  protected loadConfig(): Config {
    return readConfig(process.env);
  }

  /** A logger for server-side work, writing JSON lines to stderr. */
  protected logger(config: Config): Logger {
    return createLogger(config.logLevel);
  }

  protected override catch(error: Error & { exitCode?: number; oclif?: unknown }): Promise<unknown> {
    // Parsing errors from oclif (unknown flags and the like) keep oclif's own message and exit code 2.
    if (!(error instanceof Problem) && error.oclif !== undefined) return super.catch(error);
    const code = exitCodeFor(error);
    process.exitCode = code;
    if (this.jsonEnabled()) {
      const regError = error instanceof Problem ? error : undefined;
      this.logJson({
        error: {
          code: regError?.code ?? 'internal',
          message: error.message,
          ...(regError !== undefined && regError.errors.length > 0 ? { errors: regError.errors } : {}),
          ...(regError?.extra ?? {}),
          ...(regError !== undefined && regError.hints.length > 0 ? { hints: regError.hints } : {}),
          exit_code: code,
        },
      });
    } else {
      const hints = error instanceof Problem ? error.hints.map((hint) => `\n  hint: ${hint}`).join('') : '';
      process.stderr.write(`reg: ${error.message}${hints}\n`);
    }
    return Promise.resolve();
  }
}
