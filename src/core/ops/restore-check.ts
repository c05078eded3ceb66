import { GRAPHS, REG } from '../ns.js';
import { parseNQuads } from '../store/nquads.js';
import type { Core } from '../core.js';
import { findStrandedCitations, type StrandedReason } from '../discovery/stranded-terms.js';
import { pacer } from '../pacer.js';

/** Restored records read (one request on the external store) and validated per step. */
const CHECK_BATCH = 500;

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

/**
 * Checks restored records against today's shapes and vocabulary, as an edit would: a backup is never refused,
 * but a record that an edit would now refuse (a shape tightened since the dump, a term retired or gone) is
 * reported as stranded, with the fields an edit would name. Nothing is changed: such a record stays readable.
 * Withdrawn records are left out (they are kept as they were withdrawn). `onProgress` gets the records checked.
 */
export async function checkRestoredRecords(
  core: Core,
  subjects: ReadonlySet<string>,
  onProgress: (checked: number) => void | Promise<void> = () => undefined,
): Promise<StrandedReport> {
  if (subjects.size === 0) return { checked: 0, records: 0, examples: [] };
  if (!core.graph.ready) await core.graph.open();
  const problems = new Map<string, StrandedProblem[]>();
  const note = (record: string, problem: StrandedProblem): void => {
    problems.set(record, [...(problems.get(record) ?? []), problem]);
  };
  const pause = pacer();
  const ordered = [...subjects].sort();
  let checked = 0;
  for (let at = 0; at < ordered.length; at += CHECK_BATCH) {
    await pause();
    const batch: { record: string; text: string }[] = [];
    // Read together: one request per batch on the external store, not one per record.
    const slice = ordered.slice(at, at + CHECK_BATCH);
    const texts = await core.graph.readRecords(GRAPHS.local, slice);
    for (const record of slice) {
      const text = texts.get(record);
      if (text !== undefined && !text.includes(TOMBSTONED)) batch.push({ record, text });
    }
    const reports = await core.reference.validator.validateMany(
      batch.map(({ text }) => ({ quads: parseNQuads(text) })),
    );
    for (const [position, report] of reports.entries()) {
      const record = batch[position]?.record;
      if (record === undefined) continue;
      for (const result of report.results) {
        if (result.severity === 'violation') note(record, { field: result.field, message: result.message });
      }
    }
    checked += batch.length;
    await onProgress(checked);
  }
  for (const citation of await findStrandedCitations(core)) {
    if (!subjects.has(citation.record)) continue;
    const replaced = citation.replacedBy.length > 0 ? ` (replaced by ${citation.replacedBy.join(', ')})` : '';
    note(citation.record, {
      field: citation.fields.join(', '),
      message: `${citation.fields.join(', ')} ${CITATION_MESSAGES[citation.reason]}: ${citation.term}${replaced}`,
    });
  }
  const examples = [...problems.keys()]
    .sort()
    .slice(0, MAX_NAMED)
    .map((record) => ({ record, problems: problems.get(record) ?? [] }));
  return { checked, records: problems.size, examples };
}
