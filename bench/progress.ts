/** Prints one progress line on stderr, so stdout stays the report. */
export function note(message: string): void {
  process.stderr.write(`  … ${message}\n`);
}

/** Runs `work`, printing "still <label>" every `everyMs` while it lasts. */
export async function withTicker<T>(label: string, work: () => Promise<T>, everyMs = 5000): Promise<T> {
  const started = Date.now();
  const timer = setInterval(() => note(`${label}: ${((Date.now() - started) / 1000).toFixed(0)} s`), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
