/**
 * The request bodies of the `ids-examples` worked example, built from its data: software, releases,
 * deployments, and each run's advertisements. Pure functions: the seed service sends them through the write path.
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../records/mapper.js';
import {
  ARTIFACT_LICENSE,
  CONTACT,
  DATA_HOST,
  FAILED_RUN,
  PUBLISHER,
  REPOSITORY_OWNER,
  RUN_SECONDS,
  RUNS_PER_DEPLOYMENT,
  SOFTWARE_LICENSE,
  type SeedDeployment,
  type SeedSoftware,
} from './ids-examples.js';

/** The IRI of a type the seed minted, by slug. */
export type TypeIris = (slug: string) => string;

const DAY_MS = 86_400_000;
const spdx = (id: string): string => `https://spdx.org/licenses/${id}`;

/** The repository of a seeded software (also its home page). */
export function repositoryOf(spec: SeedSoftware): string {
  return `${REPOSITORY_OWNER}/${spec.name}`;
}

/** The software record, with its topics already looked up and its capability as type IRIs. */
export function softwareBody(spec: SeedSoftware, topics: readonly string[], typeIri: TypeIris): JsonObject {
  const repository = repositoryOf(spec);
  return {
    name: spec.name,
    tagline: spec.tagline,
    description: spec.description,
    homepage: repository,
    code_repository: repository,
    documentation: `${repository}#readme`,
    download_url: `${repository}/releases`,
    license: spdx(SOFTWARE_LICENSE),
    kinds: [spec.kind],
    maturity: 'active',
    deployable: true,
    keywords: [...spec.keywords],
    topics: [...topics],
    publisher: { ...PUBLISHER },
    contact: { ...CONTACT },
    capability: { produces: spec.produces.map(typeIri), consumes: spec.consumes.map(typeIri) },
  };
}

/** The software's one release, published 60 days before `now`. */
export function releaseBody(spec: SeedSoftware, now: Date): JsonObject {
  const image = `ghcr.io/maastrichtu-ids/${spec.name}:${spec.version}`;
  return {
    version: spec.version,
    date_published: new Date(now.getTime() - 60 * DAY_MS).toISOString().slice(0, 10),
    container_image: image,
    install_command: `docker pull ${image}`,
    changelog: `${repositoryOf(spec)}/releases`,
  };
}

/** A deployment of the software at `software`, running its release, operated by the publisher. */
export function deploymentBody(deployment: SeedDeployment, software: string, release: string): JsonObject {
  return {
    label: deployment.label,
    description: deployment.description,
    software,
    release,
    operator: { ...PUBLISHER },
    availability: 'restricted',
    jurisdiction: 'NL',
    allowed_scopes: ['advertise:produce', 'advertise:consume'],
    ...(deployment.endpoint === undefined
      ? {}
      : { endpoint_url: deployment.endpoint, endpoint_description: `${deployment.endpoint}/openapi.json` }),
    ...(deployment.oidcClientId === undefined ? {} : { oidc_client_id: deployment.oidcClientId }),
  };
}

/** Whether run `i` (0-based) of deployment `n` (0-based) is the example's failed run. */
export function runFailed(n: number, i: number): boolean {
  return n === FAILED_RUN.deployment && i === FAILED_RUN.run;
}

/** Run `i` of deployment `n`: its key, label, outcome and times (started 4i + n days and 2 hours before `now`). */
export function runOf(n: number, i: number, now: Date): JsonObject {
  const started = now.getTime() - (4 * i + n) * DAY_MS - 2 * 3_600_000;
  return {
    external_key: `gh-actions/${12345 + 7 * n}${i}/attempt-1`,
    label: `validate-batch-${i + 1}`,
    status: runFailed(n, i) ? 'failed' : 'success',
    started_at: new Date(started).toISOString(),
    ended_at: new Date(started + (RUN_SECONDS[i] ?? 60) * 1000).toISOString(),
  };
}

/** The local input graph `n-i` (1-based), kept behind an API key. */
export function inputGraph(batch: string, typeIri: TypeIris): JsonObject {
  return {
    title: `input graph ${batch}`,
    description: `The RDF graph validated in batch ${batch}.`,
    conforms_to: typeIri('rdf-graph'),
    license: spdx(ARTIFACT_LICENSE),
    keywords: ['rdf'],
    distributions: [
      {
        access_url: `${DATA_HOST}/graphs/${batch}`,
        media_type: 'text/turtle',
        availability: 'restricted',
        access_protocol: 'https',
        auth_method: 'apikey',
      },
    ],
  };
}

/**
 * The validation report of run `i` of deployment `n`, derived from the run's input. Batches 1 and 2 can be
 * downloaded (with an API key) and carry a size and checksum; batch 3 is metadata-only.
 */
export function validationReport(
  n: number,
  i: number,
  input: string,
  software: SeedSoftware,
  typeIri: TypeIris,
): JsonObject {
  const title = `Validation report — batch ${i + 1} at deployment ${n + 1}`;
  const batch = `${n + 1}-${i + 1}`;
  const distribution: JsonObject =
    i === RUNS_PER_DEPLOYMENT - 1
      ? {
          media_type: 'text/turtle',
          availability: 'metadata-only',
          access_request_url: `${DATA_HOST}/access-requests?report=${batch}`,
        }
      : {
          access_url: `${DATA_HOST}/reports/${batch}`,
          download_url: `${DATA_HOST}/reports/${batch}.ttl`,
          media_type: 'text/turtle',
          byte_size: 2_100_000 + 4_096 * (3 * n + i),
          checksum: { algorithm: 'sha-256', value: createHash('sha256').update(title).digest('hex') },
          availability: 'restricted',
          access_protocol: 'https',
          auth_method: 'apikey',
        };
  return {
    title,
    description: `SHACL validation report of input ${i === 0 ? `<${input}>` : `graph ${batch}`}.`,
    conforms_to: typeIri('shacl-validation-report'),
    license: spdx(ARTIFACT_LICENSE),
    keywords: ['shacl', 'validation'],
    was_derived_from: [input],
    produced_by: { name: software.name, version: software.version, homepage: repositoryOf(software) },
    distributions: [distribution],
  };
}
