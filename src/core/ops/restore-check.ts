import { GRAPHS, REG } from '../ns.js';
import { detached, parseNQuads, type Quad } from '../store/nquads.js';
import type { Core } from '../core.js';
import { findStrandedCitations, type StrandedReason } from '../vocab/stranded-terms.js';
import { pacer } from '../pacer.js';
import type { ValidationReport } from '../validate/validator.js';

/** Restored records read (one request on the external store) and validated per step. */
const CHECK_BATCH = 500;

/** Records validated together: a group's text stays below the size a validator sends to its single large lane. */
const VALIDATION_GROUP = 100;

/** Batches a load that checks as it writes has under validation at most while it writes on. */
const CHECKS_AHEAD = 2;

/** Stranded records named in a restore's answer; the counts cover the rest. */
const MAX_NAMED = 20;

/** One problem that would refuse an edit of a restored record today. */
export interface StrandedProblem {
  readonly field: string;
  readonly message: string;
}

/** A restored record that today's shapes or vocabulary would refuse on its next edit. */
export interface StrandedRecord {
  readonly record: string;
  readonly problems: readonly StrandedProblem[];
}

/** What the check of restored records found. */
export interface StrandedReport {
  /** Restored records of the registry's own graph that were checked. */
  readonly checked: number;
  /** Records that fail today's shapes or cite a term the registry no longer holds. */
  readonly records: number;
  /** The first of them, by IRI, with what an edit would name. */
  readonly examples: readonly StrandedRecord[];
}

const TOMBSTONED = `<${REG('tombstoned')}> "true"`;

const CITATION_MESSAGES: Readonly<Record<StrandedReason, string>> = {
  retired: 'cites a retired vocabulary term',
  unknown: 'cites a vocabulary term the registry does not hold',
  'wrong-class': 'cites a term of a class the field does not accept',
};

/** A record's text to check. */
export interface RecordText {
  readonly record: string;
  readonly text: string;
}

/**
 * Checks restored records against today's shapes and vocabulary, as an edit would: a backup is never refused,
 * but a record that an edit would now refuse (a shape tightened since the dump, a term retired or gone) is
 * reported as stranded, with the fields an edit would name. Nothing is changed: such a record stays readable.
 * Withdrawn records are left out (they are kept as they were withdrawn). Records are checked a batch at a time,
 * as they are read back or as a load that commits as it goes wrote them; a record checked again (merged again
 * later in the same load) keeps what its last check found.
 */
export class StrandedCheck {
  private readonly problems = new Map<string, StrandedProblem[]>();
  private readonly checked = new Set<string>();

  constructor(private readonly core: Core) {}

  /** How many records were checked so far. */
  get count(): number {
    return this.checked.size;
  }

  /** Each batch's results are taken in the order the batches were given, whatever order they finish in. */
  private last: Promise<void> = Promise.resolve();
  /** Batches given to `checkAside` and not yet heard. */
  private readonly aside: Promise<void>[] = [];

  /** Validates one batch of records' texts. */
  check(records: readonly RecordText[]): Promise<void> {
    const live: RecordText[] = [];
    const withdrawn: RecordText[] = [];
    for (const entry of records) (entry.text.includes(TOMBSTONED) ? withdrawn : live).push(entry);
    const validated = this.validate(live);
    // Heard below, once the batches before it were taken; one that fails before then must not go unheard.
    validated.catch(() => undefined);
    const taken = this.last.then(async () => this.take(withdrawn, live, await validated));
    this.last = taken.catch(() => undefined);
    return taken;
  }

  /**
   * Validates one batch while the caller goes on (a load writes its next batch meanwhile), with at most
   * `CHECKS_AHEAD` batches under way; `report` waits for them all, and a failure is heard by the next call or by
   * `report`.
   */
  async checkAside(records: readonly RecordText[]): Promise<void> {
    const job = this.check(records);
    job.catch(() => undefined);
    this.aside.push(job);
    while (this.aside.length > CHECKS_AHEAD) await this.aside.shift();
  }

  /** Sends the records to the validator in groups, each in a turn of its own, so worker threads share them. */
  private async validate(live: readonly RecordText[]): Promise<ValidationReport[]> {
    const groups: Promise<ValidationReport[]>[] = [];
    for (let at = 0; at < live.length; at += VALIDATION_GROUP) {
      if (at > 0) await new Promise((resolve) => setImmediate(resolve));
      const group = live.slice(at, at + VALIDATION_GROUP);
      const validated = this.core.reference.validator.validateMany(
        group.map(({ text }) => ({ quads: parsedWhenRead(text), nquads: text })),
      );
      // Heard below with the others; one that fails before then must not go unheard.
      validated.catch(() => undefined);
      groups.push(validated);
    }
    return (await Promise.all(groups)).flat();
  }

  /**
   * Takes a batch's results: what the last check of each record found replaces what earlier ones found, and a
   * record withdrawn since is no longer counted as checked.
   */
  private take(
    withdrawn: readonly RecordText[],
    live: readonly RecordText[],
    reports: readonly ValidationReport[],
  ): void {
    for (const entry of withdrawn) {
      this.problems.delete(entry.record);
      this.checked.delete(entry.record);
    }
    for (const entry of live) this.problems.delete(entry.record);
    for (const [position, report] of reports.entries()) {
      const record = live[position]?.record;
      if (record === undefined) continue;
      this.checked.add(detached(record));
      for (const result of report.results) {
        if (result.severity === 'violation')
          this.note(record, { field: result.field, message: result.message });
      }
    }
  }

  /** What was found, with the records of `subjects` that cite a term the registry no longer holds. */
  async report(subjects: ReadonlySet<string>): Promise<StrandedReport> {
    for (const job of this.aside.splice(0)) await job;
    for (const citation of await findStrandedCitations(this.core)) {
      if (!subjects.has(citation.record)) continue;
      const replaced =
        citation.replacedBy.length > 0 ? ` (replaced by ${citation.replacedBy.join(', ')})` : '';
      this.note(citation.record, {
        field: citation.fields.join(', '),
        message: `${citation.fields.join(', ')} ${CITATION_MESSAGES[citation.reason]}: ${citation.term}${replaced}`,
      });
    }
    const examples = [...this.problems.keys()]
      .sort()
      .slice(0, MAX_NAMED)
      .map((record) => ({ record, problems: this.problems.get(record) ?? [] }));
    return { checked: this.checked.size, records: this.problems.size, examples };
  }

  private note(record: string, problem: StrandedProblem): void {
    this.problems.set(detached(record), [...(this.problems.get(record) ?? []), problem]);
  }
}

/**
 * Checks restored records (`subjects`) with a `StrandedCheck`: `checkedAsWritten` when the load checked them as
 * it wrote them, else one that reads them back from the store a batch at a time. `onProgress` gets the records
 * checked.
 */
export async function checkRestoredRecords(
  core: Core,
  subjects: ReadonlySet<string>,
  onProgress: (checked: number) => void | Promise<void> = () => undefined,
  checkedAsWritten?: StrandedCheck,
): Promise<StrandedReport> {
  if (subjects.size === 0) return { checked: 0, records: 0, examples: [] };
  if (!core.graph.ready) await core.graph.open();
  if (checkedAsWritten !== undefined) {
    const report = await checkedAsWritten.report(subjects);
    await onProgress(checkedAsWritten.count);
    return report;
  }
  const check = new StrandedCheck(core);
  const pause = pacer();
  const ordered = [...subjects].sort();
  let validating: Promise<void> = Promise.resolve();
  for (let at = 0; at < ordered.length; at += CHECK_BATCH) {
    await pause();
    // Read together: one request per batch on the external store, not one per record.
    const slice = ordered.slice(at, at + CHECK_BATCH);
    const texts = await core.graph.readRecords(GRAPHS.local, slice);
    const batch = slice.flatMap((record) => {
      const text = texts.get(record);
      return text === undefined ? [] : [{ record, text }];
    });
    // The batch before was validated (in a worker thread, when the registry runs them) while this one was read.
    await validating;
    await onProgress(check.count);
    validating = check.check(batch);
    // Heard by the next await of it; a failed read before then must not leave it unheard.
    validating.catch(() => undefined);
  }
  await validating;
  await onProgress(check.count);
  return check.report(subjects);
}

/** Quads parsed from `text` only when iterated: a validator in worker threads is sent the text itself. */
function parsedWhenRead(text: string): Iterable<Quad> {
  return { [Symbol.iterator]: () => parseNQuads(text)[Symbol.iterator]() };
}
