/**
 * Progress of long work, always on stderr (stdout carries data: `reg dump > file`, `reg backup -o -`). On a
 * terminal a live line: a bar with the done and total, percentage, rate and time left when the total is known, a
 * spinner with the count and rate when it is not, redrawn at most ten times a second. Without a terminal a plain
 * line every few seconds, for logs. Either way a last line says what was done and how long it took. Under
 * `--json` nothing is shown: stderr carries only errors there.
 */

/** A progress line for long work. */
export interface Progress {
  /** Records how far the work is: `done` items, of `total` when it is known (or has become known). */
  update(done: number, total?: number): void;
  /** Ends the line with the summary (what was done; the time taken is added) or, without one, the count. */
  finish(summary?: string): void;
}

/** A progress line that can also end without a summary, when the work failed. */
export interface ProgressLine extends Progress {
  /** Ends the line quietly, removing a live line from the terminal; nothing more after `finish`. */
  stop(): void;
}

/** How a progress line is shown. */
export interface ProgressOptions {
  /** Items expected in all, when known now (`update` can give it later). */
  readonly total?: number | undefined;
  /** The command runs under `--json`: nothing is shown. Without it, `--json` among the arguments says so. */
  readonly json?: boolean;
  /** Without a terminal, print a plain line every few seconds and the summary; otherwise nothing is printed. */
  readonly plain?: boolean;
  /** Nothing is counted (an answer is awaited): only the time waited is shown. */
  readonly waiting?: boolean;
}

/** What a live view draws on a terminal, a frame at a time. */
export interface ProgressFrame {
  readonly label: string;
  /** Done of total between 0 and 1, or undefined when the total is not known (a spinner is drawn). */
  readonly fraction: number | undefined;
  /** The count, rate and time left in words. */
  readonly text: string;
  /** Frames drawn so far, to turn the spinner. */
  readonly tick: number;
}

/** What draws the frames on a terminal. */
export interface ProgressView {
  draw(frame: ProgressFrame): void;
  /** Ends the view: the final line stays, or (undefined) the live line is removed. */
  end(finalLine: string | undefined): void;
}

/** Between plain lines when stderr is not a terminal. */
const PLAIN_EVERY_MS = 5000;
/** Between redraws on a terminal: at most ten a second. */
const DRAW_EVERY_MS = 100;
/** The rate is measured over this much recent time, so that it follows the work as it speeds up or slows. */
const RATE_WINDOW_MS = 5000;

/**
 * Starts a progress line for `label` (the command, `restore`) counting `unit` (`quads`, or `bytes`, shown as
 * kB, MB, GB). With only the label and unit it shows on a terminal alone, as it always has; pass `plain` to
 * also report to a log, and `json` when the command runs under `--json`. The terminal view (ink) is loaded
 * only when it is shown, keeping it out of every other command's start-up.
 */
export async function startProgress(
  label: string,
  unit: string,
  options: ProgressOptions = {},
): Promise<ProgressLine> {
  const json = options.json ?? process.argv.slice(2).includes('--json');
  if (json) return silent();
  if (process.stderr.isTTY === true) {
    const { renderProgress } = await import('./progress-view.js');
    return live(new Tracker(label, unit, options), renderProgress(process.stderr));
  }
  if (options.plain === true)
    return plain(new Tracker(label, unit, options), (line) => process.stderr.write(`${line}\n`));
  return silent();
}

function silent(): ProgressLine {
  return { update: () => undefined, finish: () => undefined, stop: () => undefined };
}

/** Redraws the terminal view on updates and on a timer (the spinner and the elapsed time move on their own). */
function live(tracker: Tracker, view: ProgressView): ProgressLine {
  let tick = 0;
  let drawn = 0;
  let ended = false;
  const draw = (): void => {
    drawn = Date.now();
    view.draw({ label: tracker.label, fraction: tracker.fraction(), text: tracker.describe(), tick: tick++ });
  };
  const timer = setInterval(draw, DRAW_EVERY_MS);
  timer.unref();
  draw();
  const end = (finalLine: string | undefined): void => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    view.end(finalLine);
  };
  return {
    update: (done, total) => {
      tracker.update(done, total);
      if (!ended && Date.now() - drawn >= DRAW_EVERY_MS) draw();
    },
    finish: (summary) => end(tracker.summary(summary)),
    stop: () => end(undefined),
  };
}

/** A line every few seconds while the work runs, and the summary at the end. */
function plain(tracker: Tracker, write: (line: string) => void): ProgressLine {
  let printed = Date.now();
  let ended = false;
  const report = (): void => {
    if (ended || Date.now() - printed < PLAIN_EVERY_MS) return;
    printed = Date.now();
    write(`${tracker.label}: ${tracker.describe()}`);
  };
  const timer = setInterval(report, PLAIN_EVERY_MS / 5);
  timer.unref();
  const end = (finalLine: string | undefined): void => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    if (finalLine !== undefined) write(finalLine);
  };
  return {
    update: (done, total) => {
      tracker.update(done, total);
      report();
    },
    finish: (summary) => end(tracker.summary(summary)),
    stop: () => end(undefined),
  };
}

/** The count, total and recent pace of one piece of work, and how they read. */
class Tracker {
  private done = 0;
  private total: number | undefined;
  private readonly started = Date.now();
  /** Recent (time, done) pairs, oldest first, for the rate. */
  private samples: [number, number][] = [];

  constructor(
    readonly label: string,
    private readonly unit: string,
    private readonly options: ProgressOptions,
  ) {
    this.total = options.total;
    this.samples.push([this.started, 0]);
  }

  update(done: number, total?: number): void {
    const now = Date.now();
    this.done = done;
    if (total !== undefined) this.total = total;
    // One sample a tenth of a second is enough for the rate, and keeps the window short however often work reports.
    const last = this.samples.at(-1);
    if (last !== undefined && now - last[0] < DRAW_EVERY_MS && this.samples.length > 1) last[1] = done;
    else this.samples.push([now, done]);
    while (this.samples.length > 2 && now - (this.samples[1]?.[0] ?? now) >= RATE_WINDOW_MS)
      this.samples.shift();
  }

  fraction(): number | undefined {
    if (this.options.waiting === true || this.total === undefined || this.total <= 0) return undefined;
    return Math.min(1, this.done / this.total);
  }

  /** Items a second over the recent window, once there is anything to measure. */
  private rate(): number | undefined {
    const [first] = this.samples;
    const now = Date.now();
    if (first === undefined || now - first[0] < 500 || this.done <= first[1]) return undefined;
    return ((this.done - first[1]) * 1000) / (now - first[0]);
  }

  /** `120,000 of 1,000,000 quads (12%), 45,000/s, about 20 s left`, as far as each part is known. */
  describe(): string {
    const elapsed = Date.now() - this.started;
    if (this.options.waiting === true) return `${this.unit}, ${formatDuration(elapsed)} so far`;
    const fraction = this.fraction();
    const rate = this.rate();
    const parts: string[] = [];
    if (fraction === undefined || this.total === undefined) {
      parts.push(formatAmount(this.done, this.unit));
    } else {
      const count =
        this.unit === 'bytes'
          ? `${formatBytes(this.done)} of ${formatBytes(this.total)}`
          : `${formatNumber(this.done)} of ${formatAmount(this.total, this.unit)}`;
      parts.push(`${count} (${Math.floor(fraction * 100)}%)`);
    }
    if (rate !== undefined) parts.push(formatRate(rate, this.unit));
    if (fraction !== undefined && this.total !== undefined && rate !== undefined && fraction < 1)
      parts.push(`about ${formatDuration(((this.total - this.done) / rate) * 1000)} left`);
    else parts.push(`${formatDuration(elapsed)} so far`);
    return parts.join(', ');
  }

  /** `restore: 1,000,000 quads in 22 s (45,000/s)`: what was done and how long it took. */
  summary(what: string | undefined): string {
    const elapsed = Date.now() - this.started;
    const done = what ?? (this.options.waiting === true ? 'done' : formatAmount(this.done, this.unit));
    const pace =
      what === undefined && this.options.waiting !== true && elapsed >= 1000 && this.done > 0
        ? ` (${formatRate((this.done * 1000) / elapsed, this.unit)})`
        : '';
    return `${this.label}: ${done} in ${formatDuration(elapsed)}${pace}`;
  }
}

/** `1,234,567`. */
export function formatNumber(n: number): string {
  return Math.round(n).toLocaleString('en');
}

/** `1,234 quads`, or for bytes `1.2 MB`. */
export function formatAmount(n: number, unit: string): string {
  return unit === 'bytes' ? formatBytes(n) : `${formatNumber(n)} ${unit}`;
}

/** Bytes in decimal units: `512 B`, `12.3 kB`, `4.5 MB`, `1.2 GB`. */
export function formatBytes(n: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${units[unit] ?? ''}`;
}

function formatRate(perSecond: number, unit: string): string {
  return unit === 'bytes' ? `${formatBytes(perSecond)}/s` : `${formatNumber(perSecond)}/s`;
}

/** `0.4 s`, `12 s`, `3 min 20 s`, `1 h 5 min`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.floor(seconds - minutes * 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
