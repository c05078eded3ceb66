/** A progress line for long work, shown on stderr only when it is a terminal. */
export interface Progress {
  update(done: number): void;
  finish(): void;
}

/**
 * Starts a progress line; a no-op when stderr is not a terminal, so pipes and CI logs stay clean. The ink
 * renderer is imported only when it is shown, keeping it out of every other command's start-up.
 */
export async function startProgress(label: string, unit: string): Promise<Progress> {
  if (process.stderr.isTTY !== true) return { update: () => undefined, finish: () => undefined };
  const { renderProgress } = await import('./progress-view.js');
  return renderProgress(label, unit);
}
