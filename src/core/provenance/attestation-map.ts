/**
 * What an in-toto statement says, in the registry's terms: the artifacts it names (each subject's name and
 * DigestSet), and for SLSA provenance the build (builder, build type, parameters, invocation, times) and what the
 * build used (its resolved dependencies).
 */
import { MalformedInputError } from '../errors.js';
import { isObject } from '../records/json.js';
import type { Json, JsonObject } from '../records/mapper.js';

/** The predicate type of SLSA provenance v1. */
export const SLSA_PROVENANCE_V1 = 'https://slsa.dev/provenance/v1';
/** The predicate type of in-toto test results. */
export const TEST_RESULT_V01 = 'https://in-toto.io/attestation/test-result/v0.1';

/** What kind of statement it is: provenance makes a run; the others attach to the artifacts they name. */
export type StatementKind = 'provenance' | 'test-result' | 'sbom';

/** An artifact a statement names: its name or URI and its digests (algorithm → lower-case hex). */
export interface NamedArtifact {
  readonly name: string | undefined;
  readonly uri: string | undefined;
  readonly digest: Readonly<Record<string, string>>;
  /** Where in the statement it was named, for refusals (`subject[0]`). */
  readonly at: string;
}

/** The build an SLSA provenance describes. */
export interface BuildDetails {
  readonly build_type: string;
  readonly builder_id: string;
  readonly invocation_id?: string;
  readonly external_parameters?: Json;
  readonly started_on?: string;
  readonly finished_on?: string;
}

/** A statement read. */
export interface MappedStatement {
  readonly kind: StatementKind;
  readonly predicateType: string;
  readonly subjects: readonly NamedArtifact[];
  readonly build?: BuildDetails;
  readonly dependencies: readonly NamedArtifact[];
}

/** SBOM predicate types: SPDX and CycloneDX, by the prefixes their versions share. */
const SBOM_PREFIXES = ['https://spdx.dev/Document', 'https://cyclonedx.org/bom'];

const refuse = (detail: string, field: string): never => {
  throw new MalformedInputError(`${field}: ${detail}`, {
    errors: [{ field, message: `${field}: ${detail}` }],
  });
};

/** The kind of a predicate type, or undefined for one the registry does not map. */
export function kindOf(predicateType: string): StatementKind | undefined {
  if (predicateType === SLSA_PROVENANCE_V1) return 'provenance';
  if (predicateType === TEST_RESULT_V01) return 'test-result';
  if (SBOM_PREFIXES.some((prefix) => predicateType.startsWith(prefix))) return 'sbom';
  return undefined;
}

/** Reads a statement already known to be an in-toto Statement v1. */
export function mapStatement(statement: JsonObject): MappedStatement {
  const predicateType = typeof statement.predicateType === 'string' ? statement.predicateType : '';
  const kind = kindOf(predicateType);
  if (kind === undefined) {
    return refuse(
      `${predicateType} is not a predicate this registry maps (SLSA provenance v1, in-toto test results, SPDX or CycloneDX SBOMs)`,
      'predicateType',
    );
  }
  const subjects = (statement.subject as Json[]).map((item, index) => {
    const named = descriptor(item, `subject[${index}]`);
    if (named.name === undefined) return refuse('a subject needs a name', `subject[${index}].name`);
    if (Object.keys(named.digest).length === 0)
      return refuse('a subject needs at least one digest', `subject[${index}].digest`);
    return named;
  });
  if (kind !== 'provenance') return { kind, predicateType, subjects, dependencies: [] };
  const predicate = statement.predicate;
  if (!isObject(predicate)) return refuse('an SLSA provenance needs its predicate', 'predicate');
  const definition = isObject(predicate.buildDefinition) ? predicate.buildDefinition : undefined;
  const details = isObject(predicate.runDetails) ? predicate.runDetails : undefined;
  if (definition === undefined)
    return refuse('an SLSA provenance needs its buildDefinition', 'predicate.buildDefinition');
  if (typeof definition.buildType !== 'string' || definition.buildType === '')
    return refuse('must name the type of build', 'predicate.buildDefinition.buildType');
  const builder = details !== undefined && isObject(details.builder) ? details.builder : undefined;
  if (builder === undefined || typeof builder.id !== 'string' || builder.id === '')
    return refuse('must name the builder', 'predicate.runDetails.builder.id');
  const metadata = details !== undefined && isObject(details.metadata) ? details.metadata : {};
  const time = (field: 'startedOn' | 'finishedOn') => {
    const value = metadata[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
      return refuse('must be an RFC 3339 time', `predicate.runDetails.metadata.${field}`);
    return new Date(value).toISOString();
  };
  const started = time('startedOn');
  const finished = time('finishedOn');
  const resolved = definition.resolvedDependencies ?? [];
  if (!Array.isArray(resolved))
    return refuse('must be a list', 'predicate.buildDefinition.resolvedDependencies');
  const build: BuildDetails = {
    build_type: definition.buildType,
    builder_id: builder.id,
    ...(typeof metadata.invocationId === 'string' && metadata.invocationId !== ''
      ? { invocation_id: metadata.invocationId }
      : {}),
    ...(definition.externalParameters === undefined
      ? {}
      : { external_parameters: definition.externalParameters }),
    ...(started === undefined ? {} : { started_on: started }),
    ...(finished === undefined ? {} : { finished_on: finished }),
  };
  const dependencies = resolved.map((item, index) => {
    const at = `predicate.buildDefinition.resolvedDependencies[${index}]`;
    const named = descriptor(item, at);
    if (named.uri === undefined && named.name === undefined)
      return refuse('a dependency needs a uri or a name', at);
    return named;
  });
  return { kind, predicateType, subjects, build, dependencies };
}

/** An in-toto ResourceDescriptor: name, uri and DigestSet (every digest lower-case hex, as the spec writes them). */
function descriptor(item: Json, at: string): NamedArtifact {
  if (!isObject(item)) return refuse('must be an object', at);
  const digest: Record<string, string> = {};
  if (item.digest !== undefined) {
    if (!isObject(item.digest)) return refuse('must map algorithms to hex digests', `${at}.digest`);
    for (const [algorithm, value] of Object.entries(item.digest)) {
      if (typeof value !== 'string' || !/^[0-9a-fA-F]+$/.test(value))
        return refuse('must be a hex digest', `${at}.digest.${algorithm}`);
      digest[algorithm] = value.toLowerCase();
    }
  }
  const text = (value: Json | undefined) =>
    typeof value === 'string' && value.trim() !== '' ? value : undefined;
  return { name: text(item.name), uri: text(item.uri), digest, at };
}
