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
  readonly requestId?: string;
}

/**
 * The write path: build the candidate's quads, validate them (shapes, vocabulary rule, code rules) and, only if
 * nothing is violated, commit them with the audit entry in one transaction. A refusal lists every violation
 * with its JSON field and writes nothing.
 */
export async function writeRecord(core: Core, request: RecordWriteRequest): Promise<Quad[]> {
  const mapped = recordToQuads(request.spec, request.iri, request.candidate, GRAPHS.local, true);
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
  refuseViolations(results);
  await core.graph.commit(
    [
      {
        graph: GRAPHS.local,
        subject: request.iri,
        quads: mapped.quads,
        kind: request.kind ?? request.spec.kind,
      },
    ],
    () =>
      appendAudit(core.db, {
        actor: request.principal.subject,
        actorKind: request.principal.actorKind,
        action: request.action,
        target: request.iri,
        requestId: request.requestId ?? null,
      }),
  );
  return mapped.quads;
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
