/**
 * Build attestations in: an in-toto statement (bare, in a DSSE envelope or in a Sigstore bundle) is checked, kept
 * byte for byte and mapped. SLSA provenance becomes a run of the sending deployment that generated the statement's
 * subjects and used its resolved dependencies; test results and SBOMs attach to the artifacts they name.
 */
import { requireActingDeployment } from '../access/acting-deployment.js';
import { isCurator, requireAuthenticated, requireDeploymentScope } from '../access/policy.js';
import { MalformedInputError, NotFoundError, RegError } from '../errors.js';
import { ARTIFACT, RUN } from '../records/activity-specs.js';
import type { JsonObject } from '../records/mapper.js';
import { appendAudit } from '../store/audit.js';
import { findArtifactByKey } from '../store/advertising.js';
import {
  attestationsOfArtifact,
  attestationsOfRun,
  findAttestation,
  keepAttestation,
  type KeptAttestation,
} from '../store/attestations.js';
import { eventDigest } from '../store/openlineage-events.js';
import { iriOf, requireReadable } from '../stored/records.js';
import { commitRecords, type Act } from '../stored/write-path.js';
import type { Core } from '../core.js';
import { advertiseRun, type AdvertisedPart } from './advertise.js';
import { readAttestation } from './attestation-envelope.js';
import { mapStatement, type MappedStatement, type NamedArtifact } from './attestation-map.js';
import { advertisedArtifact, artifactsWithContent, releasesWithImage } from './attestation-match.js';
import { attestationSettings, verifyAttestation, type Verification } from './attestation-verify.js';

/** The answer to an attestation sent, and what a later read of it shows. */
export interface AttestationResult {
  readonly id: string;
  /** Where the attestation is served back as it was sent. */
  readonly href: string;
  readonly kind: string;
  readonly predicate_type: string;
  readonly media_type: string;
  readonly verification: Verification;
  /** The run an SLSA provenance was recorded as, with the build it describes. */
  readonly run?: string;
  readonly build?: JsonObject;
  /** The artifacts the statement's subjects are. */
  readonly artifacts: string[];
  /** The artifacts the build used (its resolved dependencies). */
  readonly used?: string[];
  /** True when this statement was received before: nothing was written. */
  readonly replayed: boolean;
}

/**
 * `POST /api/v1/attestations`: checks the signatures (refusing an unverified attestation with a 422 when the
 * operator requires verification), then maps and keeps the statement in one commit. A statement received before
 * is answered as it was then.
 */
export async function ingestAttestation(core: Core, act: Act, bytes: Buffer): Promise<AttestationResult> {
  requireAuthenticated(act.principal);
  const read = readAttestation(bytes, core.config.maxJsonDepth);
  const mapped = mapStatement(read.statement);
  const id = eventDigest(read.statement);
  const replay = (kept: KeptAttestation): AttestationResult => ({
    ...(kept.answer as AttestationResult),
    replayed: true,
  });
  const known = findAttestation(core.db, id);
  if (known?.body.equals(bytes) === true) return replay(known);
  const settings = attestationSettings(core.config);
  // The same statement under other signatures is checked too: where verification is required, a copy that does
  // not verify is refused rather than answered as the verified one kept before.
  const verification = verifyAttestation(read, settings);
  if (settings.requireVerified && verification.status !== 'verified') {
    const why =
      verification.status === 'failed' ? `verification failed: ${verification.reason}` : verification.reason;
    throw new RegError(
      'attestation-not-verified',
      `this registry accepts verified attestations only, and this one is ${verification.status} (${why})`,
      { extra: { verification } },
    );
  }
  if (known !== undefined) return replay(known);
  const base: Omit<AttestationResult, 'artifacts' | 'replayed'> = {
    id,
    href: `${core.config.baseIri}/api/v1/attestations/${id}`,
    kind: mapped.kind,
    predicate_type: mapped.predicateType,
    media_type: read.mediaType,
    verification,
  };
  const keep = (answer: AttestationResult, subjects: readonly string[]) =>
    keepAttestation(
      core.db,
      {
        id,
        mediaType: read.mediaType,
        body: bytes,
        predicateType: mapped.predicateType,
        kind: mapped.kind,
        run: answer.run ?? null,
        sender: act.principal.subject,
        verification,
        build: answer.build ?? null,
        answer,
        receivedAt: act.now,
      },
      subjects,
    );
  return core.locks.run(`attestation\n${id}`, () => {
    // The same statement sent twice at once: the second finds the first kept once it has the lock.
    const kept = findAttestation(core.db, id);
    if (kept !== undefined) return Promise.resolve(replay(kept));
    return mapped.kind === 'provenance'
      ? ingestProvenance(core, act, mapped, base, keep)
      : ingestAttached(core, act, mapped, base, keep);
  });
}

type Keep = (answer: AttestationResult, subjects: readonly string[]) => void;

/**
 * SLSA provenance: one run of the sending deployment (found again by the build's invocation id) that generated
 * the subjects and used the resolved dependencies, recorded with the statement in one commit.
 */
async function ingestProvenance(
  core: Core,
  act: Act,
  mapped: MappedStatement,
  base: Omit<AttestationResult, 'artifacts' | 'replayed'>,
  keep: Keep,
): Promise<AttestationResult> {
  const build = mapped.build;
  if (build === undefined) throw new Error('a provenance statement was mapped without its build');
  const instance = await requireActingDeployment(core, act.principal);
  const produced = mapped.subjects.map((subject) => advertisedArtifact(subject, 'subject'));
  const used: JsonObject[] = [];
  for (const dependency of mapped.dependencies) used.push(await usedArtifact(core, dependency));
  const names = mapped.subjects.map((subject) => subject.name ?? '');
  const run: JsonObject = {
    external_key: build.invocation_id ?? `attestation:${base.id}`,
    status: 'success',
    label: `build of ${names[0] ?? ''}${names.length > 1 ? ` and ${names.length - 1} more` : ''}`,
    ...(build.invocation_id === undefined ? {} : { identifier: build.invocation_id }),
    ...(build.started_on === undefined ? {} : { started_at: build.started_on }),
    ...(build.finished_on === undefined ? {} : { ended_at: build.finished_on }),
  };
  const parts: AdvertisedPart[] = [
    ...(used.length > 0 ? [{ role: 'consumed' as const, artifacts: used }] : []),
    { role: 'produced', artifacts: produced },
  ];
  const iriOfSent = (artifact: JsonObject): string => {
    if (typeof artifact.iri === 'string') return artifact.iri;
    const key = artifact.external_key;
    const found = typeof key === 'string' ? findArtifactByKey(core.db, instance, key) : undefined;
    if (found === undefined) throw new Error('an attested artifact was not recorded under its key');
    return found;
  };
  let answer: AttestationResult | undefined;
  await inStatementTerms(mapped, () =>
    advertiseRun(core, act, run, parts, {
      auditAction: 'attestation.ingest',
      // Inside the commit, after the artifacts' keys are written: the statement is kept with what it became.
      inCommit: (runIri) => {
        answer = {
          ...base,
          run: runIri,
          build: { ...build },
          artifacts: produced.map(iriOfSent),
          used: used.map(iriOfSent),
          replayed: false,
        };
        keep(answer, answer.artifacts);
      },
    }),
  );
  if (answer === undefined) throw new Error('the attestation was not kept');
  return answer;
}

/**
 * A dependency as the run used it: the artifact of this registry with its content, else a new artifact carrying
 * its URI and digests (derived from the release whose container image it is, when one is).
 */
async function usedArtifact(core: Core, dependency: NamedArtifact): Promise<JsonObject> {
  const [known] = await artifactsWithContent(core, dependency);
  if (known !== undefined) return { iri: known };
  const artifact = advertisedArtifact(dependency, 'dependency');
  const releases = await releasesWithImage(core, dependency);
  return releases.length > 0 ? { ...artifact, was_derived_from: releases } : artifact;
}

/**
 * A test result or an SBOM: kept and listed on every artifact of this registry with the content of one of its
 * subjects; a subject naming no such artifact is a 422. Needs a curator or a deployment that may advertise.
 */
async function ingestAttached(
  core: Core,
  act: Act,
  mapped: MappedStatement,
  base: Omit<AttestationResult, 'artifacts' | 'replayed'>,
  keep: Keep,
): Promise<AttestationResult> {
  if (!isCurator(act.principal)) requireDeploymentScope(act.principal, 'advertise:produce');
  const artifacts: string[] = [];
  for (const subject of mapped.subjects) {
    const found = await artifactsWithContent(core, subject);
    if (found.length === 0) {
      const message = `${subject.at}: ${subject.name ?? 'the subject'} names no artifact this registry holds (by its digests)`;
      throw new MalformedInputError(message, { errors: [{ field: `${subject.at}.digest`, message }] });
    }
    artifacts.push(...found);
  }
  const answer: AttestationResult = { ...base, artifacts: [...new Set(artifacts)], replayed: false };
  await commitRecords(core, [], () => {
    keep(answer, answer.artifacts);
    appendAudit(core.db, {
      actor: act.principal.subject,
      actorKind: act.principal.actorKind,
      action: 'attestation.ingest',
      target: answer.artifacts[0] ?? base.href,
      detail: `${mapped.kind}: ${answer.artifacts.length} artifact(s)`,
      requestId: act.requestId ?? null,
    });
  });
  return answer;
}

/** Runs `work`, naming the statement's dependencies and subjects where a refusal names `artifacts[i]`. */
async function inStatementTerms<T>(mapped: MappedStatement, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof RegError)) throw error;
    const order = [...mapped.dependencies, ...mapped.subjects];
    const rename = (text: string): string =>
      text.replace(/artifacts\[(\d+)\]/g, (whole, index: string) => order[Number(index)]?.at ?? whole);
    throw new RegError(error.code, rename(error.detail), {
      errors: error.errors.map((item) => ({ field: rename(item.field), message: rename(item.message) })),
      hints: error.hints,
      extra: error.extra,
      cause: error,
    });
  }
}

/** An attestation as it was sent: its bytes and media type. */
export function attestationBytes(core: Core, id: string): { body: Buffer; mediaType: string } {
  const kept = findAttestation(core.db, id);
  if (kept === undefined) throw new NotFoundError(`no attestation has the id ${id}`);
  return { body: kept.body, mediaType: kept.mediaType };
}

/** One kept attestation as lists show it. */
function listed(kept: KeptAttestation): JsonObject {
  const { replayed: _replayed, ...answer } = kept.answer as AttestationResult;
  return { ...(answer as unknown as JsonObject), received_at: kept.receivedAt, sender: kept.sender };
}

/** `GET /api/v1/runs/{id}/attestations`: the attestations a run was recorded from, oldest first. */
export async function runAttestations(core: Core, id: string): Promise<JsonObject> {
  const iri = iriOf(core, 'run', id);
  await requireReadable(core, RUN, iri);
  const items = attestationsOfRun(core.db, iri).map(listed);
  return { run: iri, items, total: items.length };
}

/** `GET /api/v1/artifacts/{id}/attestations`: the attestations whose subject the artifact is, oldest first. */
export async function artifactAttestations(core: Core, id: string): Promise<JsonObject> {
  const iri = iriOf(core, 'artifact', id);
  await requireReadable(core, ARTIFACT, iri);
  const items = attestationsOfArtifact(core.db, iri).map(listed);
  return { artifact: iri, items, total: items.length };
}
