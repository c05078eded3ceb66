import { RegError, ValidationError, type FieldError } from '../errors.js';
import { GRAPHS, PROV, REG } from '../ns.js';
import { ARTIFACT, ARTIFACT_SERIES } from '../records/activity-specs.js';
import { contentIdentifier, digestBytes, digestOf, spdxAlgorithmIri } from '../records/content-id.js';
import { mintIri } from '../records/ids.js';
import { isObject } from '../records/json.js';
import { isAbsoluteIri, type Json, type JsonObject } from '../records/mapper.js';
import { factory, type Quad } from '../store/nquads.js';
import { normaliseKeywords } from '../vocab/keywords.js';
import type { Core } from '../core.js';
import { acceptedInput, readStored } from '../stored/records.js';
import type { Act, RecordWriteRequest } from '../stored/write-path.js';

/** An artifact ready for the write path: its candidate JSON, registry-computed quads and what it refers to. */
export interface ArtifactCandidate {
  readonly iri: string;
  readonly candidate: JsonObject;
  readonly extraQuads: Quad[];
  /** A version series minted for it (when it named none), to be written as a record of its own. */
  readonly series: string | undefined;
  /** IRIs at other registries it derives from, revises or versions: queued for resolution. */
  readonly foreign: string[];
}

/**
 * The write that creates an artifact series (the dataset its versions share): registry bookkeeping and, for a
 * dataset reported through OpenLineage, its identity; not validated.
 */
export function seriesRequest(act: Act, iri: string, details: JsonObject = {}): RecordWriteRequest {
  return {
    spec: ARTIFACT_SERIES,
    iri,
    candidate: { ...details, created: act.now },
    action: 'artifact-series.create',
    act,
    validate: false,
  };
}

/**
 * An artifact sent as a new version of one the registry holds (`version_of`: that artifact's IRI) joins its
 * series (`is_version_of`) and revises it (`was_revision_of`): the first-class way to say "this is the next
 * version of that". Returns the input without `version_of`; a `version_of` naming no artifact here is a 422.
 */
export async function withVersionOf(core: Core, input: JsonObject, prefix: string): Promise<JsonObject> {
  const named = input.version_of;
  if (named === undefined || named === null) return input;
  const { version_of: _named, ...rest } = input;
  const iri = Array.isArray(named) && named.length === 1 ? named[0] : named;
  const field = `${prefix}version_of`;
  const refuse = (why: string): never => {
    const message = `${field}: ${why}`;
    throw new ValidationError(message, { errors: [{ field, message }] });
  };
  if (typeof iri !== 'string' || !isAbsoluteIri(iri))
    return refuse('must be the IRI of an artifact this registry holds');
  const stored = iri.startsWith(`${core.config.baseIri}/`)
    ? await readStored(core, ARTIFACT, iri)
    : undefined;
  if (stored === undefined) return refuse(`<${iri}> is not an artifact this registry holds`);
  const series = Array.isArray(stored.json.is_version_of) ? stored.json.is_version_of : [];
  const revised = Array.isArray(rest.was_revision_of) ? rest.was_revision_of : [];
  return {
    ...rest,
    ...(series.length > 0 ? { is_version_of: series } : {}),
    was_revision_of: [...new Set([...revised, iri])],
  };
}

/** What the registry, not the payload, says about an artifact. */
export interface ArtifactContext {
  readonly attributedTo: string;
  readonly generatedBy?: string;
  readonly now: string;
  /** Names fields in a payload of several artifacts (`artifacts[2].`). */
  readonly prefix: string;
}

const LINK_FIELDS = ['was_derived_from', 'was_revision_of', 'is_version_of'] as const;

/** The write that creates a built artifact, as advertising, registration and the OpenLineage check submit it. */
export function artifactCreateRequest(iri: string, built: ArtifactCandidate, act: Act): RecordWriteRequest {
  return {
    spec: ARTIFACT,
    iri,
    candidate: built.candidate,
    extraQuads: built.extraQuads,
    action: 'artifact.create',
    act,
  };
}

/**
 * Turns an artifact as a client sends it into the candidate the write path validates: keywords matched to the
 * keyword list, distribution defaults (availability `public`; no download URL when metadata-only), checksums
 * normalised and named (RFC 6920), producer claims as qualified attributions, a version series when none is
 * named, `attributed_to` from the credential. Unusable checksums are refused here with their own problem type.
 */
export function buildArtifactCandidate(
  core: Core,
  input: JsonObject,
  iri: string,
  context: ArtifactContext,
): ArtifactCandidate {
  const base = core.config.baseIri;
  const json: JsonObject = acceptedInput(core, ARTIFACT, input, {
    path: context.prefix,
    agents: ['produced_by', 'produced_by_user'],
  });
  const keywords = json.keywords;
  const registry: JsonObject = {
    attributed_to: [context.attributedTo],
    created: context.now,
    modified: context.now,
  };
  if (Array.isArray(keywords) && keywords.every((value): value is string => typeof value === 'string')) {
    const matched = normaliseKeywords(keywords, base);
    json.keywords = matched.labels;
    registry.themes = matched.concepts;
  }
  if (Array.isArray(json.distributions)) {
    json.distributions = json.distributions.map((item, index) =>
      distribution(item, `${context.prefix}distributions[${index}]`),
    );
  }
  const extraQuads: Quad[] = [];
  const agents: Partial<Record<'system' | 'user', string>> = {};
  for (const [field, role, fragment, kind, key] of [
    ['produced_by', 'producingSystem', 'producingSystemAgent', 'software', 'system'],
    ['produced_by_user', 'producingUser', 'producingUserAgent', 'person', 'user'],
  ] as const) {
    const claim = json[field];
    if (!isObject(claim)) continue;
    const agent: JsonObject = { kind, ...claim };
    json[field] = { agent, role: REG(role) };
    agents[key] =
      typeof agent.identifier === 'string' && isAbsoluteIri(agent.identifier)
        ? agent.identifier
        : `${iri}#${fragment}`;
  }
  if (agents.system !== undefined && agents.user !== undefined) {
    const node = (iri: string) => factory.namedNode(iri);
    // In the record's own graph, like every other quad of the record.
    extraQuads.push(
      factory.quad(node(agents.system), node(PROV('actedOnBehalfOf')), node(agents.user), node(GRAPHS.local)),
    );
  }
  let series: string | undefined;
  if (json.is_version_of === undefined || json.is_version_of === null) {
    series = mintIri(base, 'artifact-series');
    json.is_version_of = [series];
  }
  if (context.generatedBy !== undefined) registry.was_generated_by = context.generatedBy;
  const foreign = LINK_FIELDS.flatMap((field) => (Array.isArray(json[field]) ? json[field] : [])).filter(
    (value): value is string =>
      typeof value === 'string' && isAbsoluteIri(value) && !value.startsWith(`${base}/`),
  );
  const candidate: JsonObject = { issued: context.now, ...json, ...registry };
  return { iri, candidate, extraQuads, series, foreign: [...new Set(foreign)] };
}

function distribution(item: Json, at: string): Json {
  if (!isObject(item)) return item;
  const out: JsonObject = { availability: 'public', ...item };
  if (out.availability === 'metadata-only') delete out.download_url;
  const checksum = out.checksum;
  if (isObject(checksum)) {
    const { iri, hex, identifier } = normaliseChecksum(checksum, `${at}.checksum`);
    out.checksum = { algorithm: iri, value: hex };
    // A registry-written field: set after the caller's input was stripped of such fields.
    if (identifier !== undefined) out.content_identifier = identifier;
  }
  return out;
}

/** The refusal of an unusable checksum, with the algorithms that yield a content identifier. */
export function invalidChecksum(field: string, detail: string, expectedHex?: number): RegError {
  const errors: FieldError[] = [{ field, message: `${field}: ${detail}` }];
  return new RegError('invalid-checksum', `${field}: ${detail}`, {
    errors,
    extra: {
      field: field.endsWith('.algorithm') ? 'algorithm' : 'value',
      algorithms: ['sha-256', 'sha-384', 'sha-512'],
      ...(expectedHex === undefined ? {} : { expected_hex_characters: expectedHex }),
    },
  });
}

/** Checks a checksum and returns its SPDX algorithm IRI, lower-case hex value and content identifier. */
export function normaliseChecksum(
  checksum: JsonObject,
  at: string,
): { iri: string; hex: string; identifier: string | undefined } {
  const algorithm = typeof checksum.algorithm === 'string' ? checksum.algorithm : '';
  const iri = spdxAlgorithmIri(algorithm);
  const bytes = digestBytes(algorithm);
  if (iri === undefined || bytes === undefined) {
    throw invalidChecksum(
      `${at}.algorithm`,
      `"${algorithm}" is not a checksum algorithm this registry knows; use sha-256`,
    );
  }
  const value = typeof checksum.value === 'string' ? checksum.value.trim() : '';
  const digest = digestOf(value);
  if (digest === undefined || digest.length !== bytes) {
    throw invalidChecksum(
      `${at}.value`,
      `is not a ${algorithm} digest (${bytes * 2} hex characters)`,
      bytes * 2,
    );
  }
  return { iri, hex: digest.toString('hex'), identifier: contentIdentifier(algorithm, digest) };
}
