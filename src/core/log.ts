/** Severity of a log line. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A structured logger: one JSON object per line on stderr. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const ORDER: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Creates a logger that writes lines at or above `level` to `write` (stderr by default). */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const emit = (at: LogLevel, message: string, fields?: Record<string, unknown>): void => {
    if (ORDER[at] < ORDER[level]) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: at, msg: message, ...fields })}\n`);
  };
  return {
    debug: (message, fields) => emit('debug', message, fields),
    info: (message, fields) => emit('info', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    error: (message, fields) => emit('error', message, fields),
  };
}

/** A logger that drops everything, for commands whose output is the data itself. */
export const silentLogger: Logger = createLogger('error', () => undefined);
