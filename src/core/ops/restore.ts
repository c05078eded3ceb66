import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { BadRequestError } from '../errors.js';
import { GRAPHS } from '../ns.js';
import { appendAudit } from '../store/audit.js';
import { detached, factory, ownerOf, quadToLine, type Quad } from '../store/nquads.js';
import { parseCatalogue } from '../vocab/catalogue.js';
import type { Core } from '../core.js';
import { countStatements, readNQuadsFile, refuseProblems, type LineProblem } from './restore-reader.js';
import { RestoreScan } from './restore-scan.js';
import { rebuildAdvertisingKeys } from '../provenance/advertising-keys.js';
import { setLineageLookupsAside } from '../store/lineage/lineage-index.js';
import { buildLineageLookups } from '../store/migrations.js';
import { defaultGraphRefusal, kindOfLines } from './restore-sink.js';
import { checkRestoredRecords, StrandedCheck, type StrandedReport } from './restore-check.js';

/** What a restore did. */
export interface RestoreResult {
  /** Quads read from the input. */
  readonly read: number;
  /** Quads that were not in the store before. */
  readonly new: number;
  /** Quads of reference bundle graphs, skipped because the package reloads them at every start. */
  readonly reference: number;
  /** Records created or extended. */
  readonly records: number;
  /**
   * Restored records of the registry's own graph that an edit would refuse today (shapes or vocabulary changed
   * since the dump); they are kept and stay readable.
   */
  readonly stranded: StrandedReport;
}

/**
 * How far a restore is: quads read (`of` the statements the file holds), then written to the store, then
 * restored records checked against today's shapes. The whole file is also checked by a scan running alongside
 * the read, before anything is committed (`restore-scan.ts`).
 */
export type RestoreProgress =
  | { readonly phase: 'read'; readonly quads: number; readonly of?: number }
  | { readonly phase: 'write' }
  | {
      readonly phase: 'check';
      readonly records: number;
      readonly of: number;
    };

/** Quads read between two progress reports. */
const PROGRESS_EVERY = 5_000;

/** Bytes from which a file restored into an all-or-nothing load is scanned alongside (a worker thread's start). */
const SCAN_FROM_BYTES = 8 << 20;

/** Records gathered before they are merged, so that a store which reads by request reads them together. */
const PREFETCH_RUNS = 500;

/** Consecutive lines of one record (its owner) in one graph, as read; `marked` when a record marker began them. */
interface Run {
  readonly graph: string;
  readonly owner: string;
  readonly lines: string[];
  readonly marked: boolean;
}

/**
 * Loads an N-Quads file into a stopped registry, inside one transaction (the external store: through the write
 * path, a batch per commit, none before the whole file was checked): every line a strict parser refuses
 * (malformed, not UTF-8, or holding a string that is not an IRI where an IRI belongs) is named with its number,
 * and nothing is written. Consecutive quads of one record (as `reg dump` writes them) are merged as a group; a
 * record whose quads are scattered is merged once per run, which gives the same result. Blank nodes are replaced
 * by IRIs under the record that refers to them (records never share blank nodes), reference bundle graphs are
 * skipped, and a catalogue entry is taken over only when it matches this package's bundle. Restored records are
 * then checked against today's shapes and vocabulary: a record an edit would refuse is kept and reported as
 * stranded (`stranded`), never refused.
 */
export async function restoreNQuads(
  core: Core,
  file: string,
  progress?: (progress: RestoreProgress) => void | Promise<void>,
  options: { readonly check?: boolean } = {},
): Promise<RestoreResult> {
  if (!fs.existsSync(file)) throw new BadRequestError(`cannot read ${file}: no such file`);
  const bundleGraphs = new Map(core.reference.bundles.map((bundle) => [bundle.graph, bundle]));
  // The statements are counted (a quick pass over the bytes) only for someone watching the progress.
  const of = progress === undefined ? undefined : await countStatements(file);
  const onProgress = async (report: RestoreProgress): Promise<void> => {
    await progress?.(of === undefined || !('quads' in report) ? report : { ...report, of });
  };
  // The whole file is checked by a scan alongside the restore's read, which then takes the batches the scan
  // found canonical without parsing them. A store that commits as it goes commits nothing before the scan
  // passes, so a bad line writes nothing; an all-or-nothing load (which reads every line as strictly itself)
  // is scanned only when the file is large enough to gain from it, and is given up when the scan fails.
  const large = fs.statSync(file).size >= SCAN_FROM_BYTES;
  const sink = core.graph.bulkLoad(kindOfLines);
  let scan: RestoreScan | undefined;
  try {
    scan =
      sink.atomic && !large
        ? undefined
        : new RestoreScan(file, core.graph.keepsDefaultGraph ? undefined : defaultGraphRefusal);
  } catch (error) {
    sink.abort();
    throw error;
  }
  if (scan !== undefined) sink.holdCommits?.(scan.verdict);
  // A store that commits as it goes has the records checked against today's shapes as each commit wrote them,
  // rather than read back afterwards (a round trip per batch on an external store).
  const checkedAsWritten = !sink.atomic && options.check !== false ? new StrandedCheck(core) : undefined;
  if (checkedAsWritten !== undefined)
    sink.onCommit = (records) =>
      checkedAsWritten.checkAside(
        records
          .filter((record) => record.graph === GRAPHS.local)
          .map((record) => ({ record: record.subject, text: record.text })),
      );
  const now = new Date().toISOString();
  const totals = { read: 0, new: 0, reference: 0, records: 0 };
  const restored = new Set<string>();
  const merge = async (
    graph: string,
    owner: string,
    lines: readonly string[],
    replace = false,
  ): Promise<void> => {
    const added = await sink.merge({ graph, subject: owner, lines, replace });
    totals.new += added;
    if (added > 0) totals.records++;
    if (added > 0 && graph === GRAPHS.local) restored.add(detached(owner));
  };
  // `<x#frag>` belongs to record `<x>` only when there is such a record; otherwise (an adopted term such as
  // `vocab#Thing`) each subject is a record of its own, as the write path stored it.
  const mergeRun = async (
    graph: string,
    owner: string,
    lines: readonly string[],
    marked = false,
  ): Promise<void> => {
    if (marked || lines.some((line) => line.startsWith(`<${owner}> `)) || (await sink.exists(graph, owner))) {
      await merge(graph, owner, lines);
      return;
    }
    const bySubject = new Map<string, string[]>();
    for (const line of lines) {
      const subject = line.slice(1, line.indexOf('> '));
      bySubject.set(subject, [...(bySubject.get(subject) ?? []), line]);
    }
    for (const [subject, group] of bySubject) await merge(graph, subject, group);
  };
  // Runs wait here in groups, so a store that reads records by request reads each group's together first.
  const queued: Run[] = [];
  const drain = async (): Promise<void> => {
    if (sink.prefetch !== undefined) {
      await sink.prefetch(
        queued.flatMap(({ graph, owner, lines, marked }) => [
          { graph, subject: owner },
          ...(marked ? [] : lines.map((line) => ({ graph, subject: line.slice(1, line.indexOf('> ')) }))),
        ]),
      );
    }
    for (const run of queued.splice(0)) await mergeRun(run.graph, run.owner, run.lines, run.marked);
  };
  const queue = async (run: Run) => {
    queued.push(run);
    if (queued.length >= PREFETCH_RUNS) await drain();
  };
  const blankQuads: Quad[] = [];
  const catalogue = new Map<string, string[]>();
  let run: Run | undefined;
  // Into a nearly empty lineage index, its lookups are built once the load ends rather than kept row by row.
  const lookupsAside = setLineageLookupsAside(core.db);
  try {
    // Inside a marked record (a full dump), quads of its graph belong to it whatever their subject.
    let marked: { subject: string; graph: string } | undefined;
    const problems: LineProblem[] = [];
    for await (const item of readNQuadsFile(file, problems, scan?.plain)) {
      // After a bad line nothing more is merged; the rest is read to name every bad line.
      if (problems.length > 0) continue;
      if ('marker' in item) {
        if (run !== undefined) await queue(run);
        run = undefined;
        marked = item.marker;
        continue;
      }
      if (++totals.read % PROGRESS_EVERY === 0) await onProgress({ phase: 'read', quads: totals.read });
      const graph = 'quad' in item ? item.quad.graph.value : item.statement.graph;
      if (bundleGraphs.has(graph)) {
        totals.reference++;
        continue;
      }
      if ('quad' in item && hasBlankNode(item.quad)) {
        blankQuads.push(item.quad);
        continue;
      }
      const line = 'quad' in item ? quadToLine(item.quad) : item.statement.line;
      const subject = 'quad' in item ? item.quad.subject.value : item.statement.subject;
      const inMarked = marked !== undefined && marked.graph === graph;
      const owner = inMarked && marked !== undefined ? marked.subject : ownerOf(subject);
      if (graph === GRAPHS.catalogue) {
        catalogue.set(owner, [...(catalogue.get(owner) ?? []), line]);
        continue;
      }
      if (run === undefined || run.graph !== graph || run.owner !== owner) {
        if (run !== undefined) await queue(run);
        run = { graph, owner, lines: [], marked: inMarked };
      }
      run.lines.push(line);
    }
    // The scan's refusal names every bad line (and a quad the store cannot hold) before anything is written.
    await scan?.verdict;
    refuseProblems(file, problems);
    if (run !== undefined) await queue(run);
    await drain();
    const skolemised = new Map<string, string[]>();
    for (const quad of skolemise(blankQuads, core.config.baseIri)) {
      const key = `${quad.graph.value}\n${ownerOf(quad.subject.value)}`;
      skolemised.set(key, [...(skolemised.get(key) ?? []), quadToLine(quad)]);
    }
    for (const [key, lines] of skolemised) {
      const [graph = '', owner = ''] = key.split('\n');
      await mergeRun(graph, owner, lines);
    }
    for (const [owner, lines] of catalogue) {
      if (catalogueMatches(owner, lines, bundleGraphs.get(owner)?.digest))
        await merge(GRAPHS.catalogue, owner, lines, true);
    }
    await onProgress({ phase: 'read', quads: totals.read });
    await onProgress({ phase: 'write' });
    await sink.finish(() => {
      appendAudit(core.db, {
        actor: null,
        actorKind: 'system',
        action: 'restore',
        target: null,
        detail: `${totals.new} new of ${totals.read} quads from ${file}`,
        at: now,
      });
    }, totals.new > 0);
  } catch (error) {
    scan?.stop();
    sink.abort();
    throw error;
  } finally {
    if (lookupsAside) buildLineageLookups(core.db);
  }
  if (!core.graph.ready) await core.graph.open();
  // The restored records are checked (validated in a worker thread when the registry runs them) while the
  // lineage index is refilled from them.
  const checking =
    options.check === false
      ? Promise.resolve({ checked: 0, records: 0, examples: [] })
      : checkRestoredRecords(
          core,
          restored,
          (records) => onProgress({ phase: 'check', records, of: restored.size }),
          checkedAsWritten,
        );
  checking.catch(() => undefined);
  // The restored records carry their keys and claims: rebuilding the rows from them keeps advertising
  // idempotent, so a job retried after the restore finds its run instead of minting a second one. They are
  // read from the lineage index once it is filled, so a restore never loads the query index for them.
  if (totals.new > 0) {
    await core.graph.lineageFilled();
    await rebuildAdvertisingKeys(core);
  }
  return { ...totals, stranded: await checking };
}

function hasBlankNode(quad: Quad): boolean {
  return [quad.subject, quad.object, quad.graph].some((term) => term.termType === 'BlankNode');
}

/** Replaces blank nodes by IRIs: a fragment of the record that refers to them, else a well-known genid IRI. */
function skolemise(quads: readonly Quad[], baseIri: string): Quad[] {
  const referrer = new Map<string, string>();
  for (const quad of quads) {
    if (quad.object.termType === 'BlankNode' && quad.subject.termType !== 'BlankNode') {
      referrer.set(quad.object.value, ownerOf(quad.subject.value));
    }
  }
  const named = new Map<string, string>();
  const nameOf = (label: string): string => {
    let iri = named.get(label);
    if (iri === undefined) {
      const hash = createHash('sha256').update(label).digest('hex').slice(0, 16);
      const owner = referrer.get(label);
      iri = owner === undefined ? `${baseIri}/.well-known/genid/${hash}` : `${owner}#genid-${hash}`;
      named.set(label, iri);
    }
    return iri;
  };
  const term = <T extends Quad['subject'] | Quad['object'] | Quad['graph']>(value: T): T =>
    (value.termType === 'BlankNode' ? factory.namedNode(nameOf(value.value)) : value) as T;
  return quads.map((quad) =>
    factory.quad(term(quad.subject), quad.predicate, term(quad.object), term(quad.graph)),
  );
}

function catalogueMatches(graph: string, lines: readonly string[], digest: string | undefined): boolean {
  return digest !== undefined && parseCatalogue(`${lines.join('\n')}\n`).get(graph)?.digest === digest;
}
