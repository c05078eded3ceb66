import type { Principal } from '../access/principal.js';
import { ValidationError } from '../errors.js';
import { GRAPHS } from '../ns.js';
import { recordToQuads, type JsonObject, type MappedRecord } from '../records/mapper.js';
import type { RecordSpec } from '../records/schema.js';
import { appendAudit } from '../store/audit.js';
import type { RecordWrite } from '../store/graph/types.js';
import { canonicalTextOf, type Quad } from '../store/nquads.js';
import { reportTurtle, type ValidationResult } from '../validate/index.js';
import type { Core } from '../core.js';
import { pacer } from '../pacer.js';
import { checkVocabulary } from '../discovery/vocabulary-rule.js';

/**
 * One act of writing, as every write service receives it: who acts, under which request id (for the audit log),
 * and the instant the act is stamped with (tests move the clock).
 */
export interface Act {
  readonly principal: Principal;
  readonly requestId?: string | undefined;
  readonly now: string;
}

/**
 * The act of `principal` starting now: what a write service receives from a request (with its id, for the
 * audit log), from a command, or from the registry's own work. `at` stands in for the clock.
 */
export function actOf(principal: Principal, requestId?: string, at: Date = new Date()): Act {
  return { principal, requestId, now: at.toISOString() };
}

/** One record write, as every writer submits it. */
export interface RecordWriteRequest {
  readonly spec: RecordSpec;
  readonly iri: string;
  /** The whole record after the change, registry fields included. */
  readonly candidate: JsonObject;
  /** Audit action, e.g. `software.create`. */
  readonly action: string;
  /** Who writes, under which request, and when. */
  readonly act: Act;
  /** Violations found by code rules of the caller (e.g. deployable vs endpoint), reported with the rest. */
  readonly codeRules?: (quads: readonly Quad[]) => Promise<ValidationResult[]> | ValidationResult[];
  /** The kind stored beside the record; defaults to the spec's kind (withdrawn records use `<kind>:withdrawn`). */
  readonly kind?: string;
  /** False only for writes that add registry bookkeeping to stored content, such as a withdrawal. */
  readonly validate?: boolean;
  /** Registry-computed quads added to the record's own (e.g. `prov:actedOnBehalfOf` between producer agents). */
  readonly extraQuads?: readonly Quad[];
}

/** A record whose quads passed validation, ready to commit. */
export interface CheckedRecord {
  readonly request: RecordWriteRequest;
  readonly quads: readonly Quad[];
}

/** The quads of a candidate and every problem found in it. */
export interface CheckOutcome {
  readonly quads: readonly Quad[];
  readonly results: ValidationResult[];
}

/**
 * Builds a candidate's quads and validates them (JSON types, shapes, vocabulary rule, code rules). Returns the
 * quads and every result; nothing is written. `prefix` names the record in a payload of several (`artifacts[2].`).
 */
export async function checkRecord(
  core: Core,
  request: RecordWriteRequest,
  prefix = '',
): Promise<CheckOutcome> {
  const [outcome] = await checkRecords(core, [{ request, prefix }]);
  if (outcome === undefined) throw new Error('no outcome for a checked record');
  return outcome;
}

/**
 * Checks the records of one act together: their shapes are validated in one batch (one round trip to the
 * validation worker), the rest record by record. Outcomes come in the order of `items`.
 */
export async function checkRecords(
  core: Core,
  items: readonly { readonly request: RecordWriteRequest; readonly prefix?: string }[],
): Promise<CheckOutcome[]> {
  const pause = pacer();
  const mapped: (Omit<MappedRecord, 'quads'> & { quads: readonly Quad[] })[] = [];
  for (const { request, prefix } of items) {
    await pause();
    const limits = {
      maxListItems: core.config.maxListItems,
      ...(prefix === undefined ? {} : { path: prefix }),
    };
    const record = recordToQuads(request.spec, request.iri, request.candidate, GRAPHS.local, true, limits);
    record.quads.push(...(request.extraQuads ?? []));
    // Frozen, the quads that are checked are the quads that are committed, and their text is made only once:
    // here, a record at a time between pauses, rather than all at once when they go to the validator.
    const quads = Object.freeze(record.quads);
    canonicalTextOf(quads);
    mapped.push({ ...record, quads });
  }
  const validated = items
    .map((item, position) => ({ item, position }))
    .filter(({ item }) => item.request.validate !== false);
  const reports = await core.reference.validator.validateMany(
    validated.map(({ position }) => {
      const record = mapped[position] as (typeof mapped)[number];
      return { quads: record.quads, options: { locate: record.locate } };
    }),
  );
  const shapeResults = new Map(validated.map(({ position }, at) => [position, reports[at]?.results ?? []]));
  const outcomes: CheckOutcome[] = [];
  for (const [position, { request, prefix = '' }] of items.entries()) {
    await pause();
    const record = mapped[position] as (typeof mapped)[number];
    const results: ValidationResult[] = record.errors.map((error) => ({
      severity: 'violation',
      field: error.field,
      message: error.message,
      focusNode: request.iri,
      component: 'urn:reg:rule:json-type',
    }));
    if (request.validate !== false) {
      const shapes = shapeResults.get(position) ?? [];
      results.push(
        ...(core.config.shaclValidateWrites
          ? shapes
          : shapes.map((result) => ({ ...result, severity: 'warning' as const }))),
      );
      results.push(...(await checkVocabulary(core, record.quads, record.locate)));
      if (request.codeRules !== undefined) results.push(...(await request.codeRules(record.quads)));
    }
    const named =
      prefix === ''
        ? results
        : results.map((result) => ({
            ...result,
            field: prefix + result.field,
            message: prefix + result.message,
          }));
    outcomes.push({ quads: record.quads, results: named });
  }
  return outcomes;
}

/**
 * The one commit of every act: record writes and the operational work of the same act (`ops`, inside the same
 * transaction: audit entries, advertising keys, deliveries to queue) are committed together with the record
 * rows, their search rows and counts, then published to the query index. Records a caller sent arrive here
 * checked, through `commitRecords`; records the registry makes itself (cached peer records, reference data) and
 * acts that write no record arrive as they are. Nothing else calls the store's commit.
 */
export function commitAct<T>(core: Core, writes: readonly RecordWrite[], ops: () => T): Promise<T> {
  return core.graph.commit(writes, ops);
}

/**
 * Commits checked records and the operational work of the same act in one transaction, with one audit entry
 * per record unless `audit` is false (the caller then audits the act itself inside `ops`).
 */
export async function commitRecords<T>(
  core: Core,
  records: readonly CheckedRecord[],
  ops: () => T,
  audit = true,
): Promise<T> {
  return commitAct(
    core,
    records.map(({ request, quads }) => ({
      graph: GRAPHS.local,
      subject: request.iri,
      quads,
      kind: request.kind ?? request.spec.kind,
    })),
    () => {
      if (audit) {
        for (const { request } of records) {
          appendAudit(core.db, {
            actor: request.act.principal.subject,
            actorKind: request.act.principal.actorKind,
            action: request.action,
            target: request.iri,
            requestId: request.act.requestId ?? null,
          });
        }
      }
      return ops();
    },
  );
}

/**
 * The write path: build the candidate's quads, validate them (shapes, vocabulary rule, code rules) and, only if
 * nothing is violated, commit them with the audit entry in one transaction. A refusal lists every violation
 * with its JSON field and writes nothing.
 */
export async function writeRecord(core: Core, request: RecordWriteRequest): Promise<readonly Quad[]> {
  const { quads, results } = await checkRecord(core, request);
  refuseViolations(results);
  await commitRecords(core, [{ request, quads }], () => undefined);
  return quads;
}

/** Throws a 422 listing every violation (with the SHACL report in Turtle) when any result is a violation. */
export function refuseViolations(results: readonly ValidationResult[]): void {
  const violations = results.filter((result) => result.severity === 'violation');
  if (violations.length === 0) return;
  throw new ValidationError(violations.map((violation) => violation.message).join('; '), {
    errors: violations.map((violation) => ({ field: violation.field, message: violation.message })),
    extra: { report: reportTurtle({ conforms: false, results }), report_media_type: 'text/turtle' },
  });
}
