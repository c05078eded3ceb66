import type { Principal } from '../auth/principal.js';
import { ValidationError } from '../errors.js';
import { GRAPHS } from '../ns.js';
import { recordToQuads, type JsonObject } from '../records/mapper.js';
import type { RecordSpec } from '../records/schema.js';
import { appendAudit } from '../store/audit.js';
import type { Quad } from '../store/nquads.js';
import { reportTurtle, type ValidationResult } from '../validate/index.js';
import type { Core } from '../core.js';
import { checkVocabulary } from './vocabulary-rule.js';

/** One record write, as every writer submits it. */
export interface RecordWriteRequest {
  readonly spec: RecordSpec;
  readonly iri: string;
  /** The whole record after the change, registry fields included. */
  readonly candidate: JsonObject;
  /** Audit action, e.g. `software.create`. */
  readonly action: string;
  readonly principal: Principal;
  /** Violations found by code rules of the caller (e.g. deployable vs endpoint), reported with the rest. */
  readonly codeRules?: (quads: readonly Quad[]) => Promise<ValidationResult[]> | ValidationResult[];
  /** The kind stored beside the record; defaults to the spec's kind (withdrawn records use `<kind>:withdrawn`). */
  readonly kind?: string;
  /** False only for writes that add registry bookkeeping to stored content, such as a withdrawal. */
  readonly validate?: boolean;
  /** Registry-computed quads added to the record's own (e.g. `prov:actedOnBehalfOf` between producer agents). */
  readonly extraQuads?: readonly Quad[];
  readonly requestId?: string | undefined;
}

/** A record whose quads passed validation, ready to commit. */
export interface CheckedRecord {
  readonly request: RecordWriteRequest;
  readonly quads: Quad[];
}

/**
 * Builds a candidate's quads and validates them (JSON types, shapes, vocabulary rule, code rules). Returns the
 * quads and every result; nothing is written. `prefix` names the record in a payload of several (`artifacts[2].`).
 */
export async function checkRecord(
  core: Core,
  request: RecordWriteRequest,
  prefix = '',
): Promise<{ quads: Quad[]; results: ValidationResult[] }> {
  const mapped = recordToQuads(request.spec, request.iri, request.candidate, GRAPHS.local, true);
  mapped.quads.push(...(request.extraQuads ?? []));
  const results: ValidationResult[] = mapped.errors.map((error) => ({
    severity: 'violation',
    field: error.field,
    message: error.message,
    focusNode: request.iri,
    component: 'urn:reg:rule:json-type',
  }));
  if (request.validate !== false) {
    const shapes = await core.reference.validator.validate(mapped.quads, { locate: mapped.locate });
    const shapeResults = core.config.shaclValidateWrites
      ? shapes.results
      : shapes.results.map((result) => ({ ...result, severity: 'warning' as const }));
    results.push(...shapeResults);
    results.push(...(await checkVocabulary(core, mapped.quads, mapped.locate)));
    if (request.codeRules !== undefined) results.push(...(await request.codeRules(mapped.quads)));
  }
  const named =
    prefix === ''
      ? results
      : results.map((result) => ({
          ...result,
          field: prefix + result.field,
          message: prefix + result.message,
        }));
  return { quads: mapped.quads, results: named };
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
  return core.graph.commit(
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
            actor: request.principal.subject,
            actorKind: request.principal.actorKind,
            action: request.action,
            target: request.iri,
            requestId: request.requestId ?? null,
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
export async function writeRecord(core: Core, request: RecordWriteRequest): Promise<Quad[]> {
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
