import { principal, type Principal } from '../access/principal.js';
import { SCOPES } from '../access/scopes.js';
import { BadRequestError, ConflictError, InternalError } from '../errors.js';
import { REG, SCHEMA } from '../ns.js';
import type { JsonObject } from '../records/mapper.js';
import {
  COMMON_TOPICS,
  FOREIGN_INPUT,
  IDS_EXAMPLES,
  RUNNING_DEPLOYMENTS,
  RUNS_PER_DEPLOYMENT,
  SEED_DEPLOYMENTS,
  SEED_SOFTWARE,
  SEED_TYPES,
  type SeedSoftware,
} from './ids-examples.js';
import {
  deploymentBody,
  inputGraph,
  releaseBody,
  repositoryOf,
  runFailed,
  runOf,
  softwareBody,
  validationReport,
  type TypeIris,
} from './ids-payloads.js';
import type { Core } from '../core.js';
import { advertise, type AdvertiseResult } from '../provenance/advertise.js';
import { createInstance } from '../catalogue/instances.js';
import { createRelease } from '../catalogue/releases.js';
import { createSoftware } from '../catalogue/software.js';
import { createType } from '../catalogue/types.js';
import { recordsLinkingTo, valueOf } from '../stored/stating.js';
import { actOf } from '../stored/write-path.js';

/** The worked examples `reg seed` can load. */
export const SEED_EXAMPLES = [IDS_EXAMPLES] as const;

/** What a seed wrote, in the key order `reg seed` prints. */
export interface SeedResult {
  readonly artifacts: number;
  readonly instances: number;
  readonly runs: number;
  readonly software: number;
  readonly types: number;
}

/** Options of a seed. */
export interface SeedOptions {
  readonly from?: string;
  /** Advertise the example's runs and artifacts too (default true). */
  readonly withRuns?: boolean;
  /** The moment the example is dated from (releases 60 days before it, runs up to 11 days before it). */
  readonly now?: Date;
  /** Called after every write with the writes done and the writes the seed will make in all. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** The seed's own identity: an administrator named `urn:reg:seed`, so seeded records are attributed to it. */
export const SEED_PRINCIPAL: Principal = principal({
  credential: 'root-token',
  actorKind: 'system',
  subject: 'urn:reg:seed',
  displayName: 'reg seed',
  roles: ['admin'],
  scopes: [...SCOPES],
});

/** A registered deployment of the example, with what advertising as it needs. */
interface Deployment {
  readonly iri: string;
  readonly label: string;
  readonly software: SeedSoftware;
  readonly softwareIri: string;
}

/**
 * Loads a worked example (contract §7) into an open core through the normal write path: types, software,
 * releases and deployments as the seed's administrator; runs and artifacts advertised by each deployment with a
 * deployment principal. Refuses (409) when the registry already holds the example, so a second seed never
 * duplicates it. The query index must be open.
 */
export async function seedExample(core: Core, options: SeedOptions = {}): Promise<SeedResult> {
  const from = options.from ?? IDS_EXAMPLES;
  if (from !== IDS_EXAMPLES)
    throw new BadRequestError(`there is no worked example "${from}"; the one example is ${IDS_EXAMPLES}`);
  await refuseSeeded(core);
  const withRuns = options.withRuns ?? true;
  const now = options.now ?? new Date();
  const runs = RUNNING_DEPLOYMENTS * RUNS_PER_DEPLOYMENT;
  // One write per type, software, release and deployment; a consumed call per run, a produced call per success.
  const total =
    SEED_TYPES.length + 2 * SEED_SOFTWARE.length + SEED_DEPLOYMENTS.length + (withRuns ? 2 * runs - 1 : 0);
  let done = 0;
  const step = (): void => options.onProgress?.(++done, total);
  const typeIri = await mintTypes(core, step);
  const deployments = await registerDeployments(core, typeIri, now, step);
  const counts = { runs: new Set<string>(), artifacts: new Set<string>() };
  if (withRuns) {
    for (const [n, deployment] of deployments.slice(0, RUNNING_DEPLOYMENTS).entries()) {
      for (const result of await advertiseRuns(core, n, deployment, typeIri, now, step)) {
        counts.runs.add(result.run);
        for (const iri of result.artifacts)
          if (iri.startsWith(`${core.config.baseIri}/`)) counts.artifacts.add(iri);
      }
    }
  }
  return {
    artifacts: counts.artifacts.size,
    instances: deployments.length,
    runs: counts.runs.size,
    software: SEED_SOFTWARE.length,
    types: SEED_TYPES.length,
  };
}

/** A text member of a record a service returned (its `iri` or `id`). */
function textOf(record: JsonObject, field: 'iri' | 'id'): string {
  const value = record[field];
  if (typeof value !== 'string') throw new InternalError(`a seeded record came back without its ${field}`);
  return value;
}

/**
 * Refuses a second seed: the example's software already registered (and not withdrawn) means it was seeded. The
 * software is found by its repository (from the lineage index when it is complete), and read whole.
 */
async function refuseSeeded(core: Core): Promise<void> {
  for (const spec of SEED_SOFTWARE) {
    for (const { iri, about } of await recordsLinkingTo(core, SCHEMA('codeRepository'), repositoryOf(spec), [
      REG('Software'),
    ])) {
      const name = valueOf(about, iri, SCHEMA('name'));
      if (name === undefined) continue;
      throw new ConflictError(
        `the registry already holds the ${IDS_EXAMPLES} example (software ${name} at ${iri}); seeding it again would duplicate it`,
        { hints: ['seed a fresh data directory, or withdraw the seeded software first'] },
      );
    }
  }
}

/** Mints the example's types at `{base}/type/<slug>`; returns their IRIs by slug. */
async function mintTypes(core: Core, step: () => void): Promise<TypeIris> {
  const types = new Map<string, string>();
  for (const type of SEED_TYPES) {
    const created = await createType(core, actOf(SEED_PRINCIPAL), {
      slug: type.slug,
      label: type.label,
      definition: type.definition,
      default_media_type: type.mediaType,
    });
    types.set(type.slug, textOf(created, 'iri'));
    step();
  }
  return (slug) => {
    const iri = types.get(slug);
    if (iri === undefined) throw new InternalError(`the seed cites the type ${slug}, which it does not mint`);
    return iri;
  };
}

/** Research topics by preferred label, looked up among the bundled research topics. */
function topicIris(core: Core, labels: readonly string[]): string[] {
  const topics = core.reference.index.termsOfClass(REG('ResearchTopic'), { includeRetired: false });
  return labels.map((label) => {
    const term = topics.find((candidate) => candidate.label?.toLowerCase() === label.toLowerCase());
    if (term === undefined)
      throw new InternalError(`the bundled vocabulary holds no research topic "${label}"`);
    return term.iri;
  });
}

/** Registers each software and its release, then the deployments of them, in the example's order. */
async function registerDeployments(
  core: Core,
  typeIri: TypeIris,
  now: Date,
  step: () => void,
): Promise<Deployment[]> {
  const software = new Map<string, { iri: string; release: string; spec: SeedSoftware }>();
  for (const spec of SEED_SOFTWARE) {
    const topics = topicIris(core, [...COMMON_TOPICS, ...spec.topics]);
    const record = await createSoftware(core, actOf(SEED_PRINCIPAL), softwareBody(spec, topics, typeIri));
    step();
    const release = await createRelease(
      core,
      actOf(SEED_PRINCIPAL),
      textOf(record, 'id'),
      releaseBody(spec, now),
    );
    step();
    software.set(spec.name, { iri: textOf(record, 'iri'), release: textOf(release, 'iri'), spec });
  }
  const deployments: Deployment[] = [];
  for (const deployment of SEED_DEPLOYMENTS) {
    const owner = software.get(deployment.software);
    if (owner === undefined)
      throw new InternalError(`seed deployment of unknown software ${deployment.software}`);
    const body = deploymentBody(deployment, owner.iri, owner.release);
    const record = await createInstance(core, actOf(SEED_PRINCIPAL), body);
    const iri = textOf(record, 'iri');
    deployments.push({ iri, label: deployment.label, software: owner.spec, softwareIri: owner.iri });
    step();
  }
  return deployments;
}

/** The deployment's own credential, as a deployment token would resolve it. */
function deploymentPrincipal(deployment: Deployment): Principal {
  return principal({
    credential: 'local-token',
    actorKind: 'instance-token',
    subject: deployment.iri,
    displayName: deployment.label,
    scopes: ['advertise:produce', 'advertise:consume'],
    instance: deployment.iri,
    software: deployment.softwareIri,
  });
}

/**
 * The runs of deployment `n` (0-based), advertised as that deployment: run i consumes the foreign input (i = 0)
 * or a local input graph, and, unless it failed, produces a validation report derived from that input.
 */
async function advertiseRuns(
  core: Core,
  n: number,
  deployment: Deployment,
  typeIri: TypeIris,
  now: Date,
  step: () => void,
): Promise<AdvertiseResult[]> {
  const caller = deploymentPrincipal(deployment);
  const results: AdvertiseResult[] = [];
  for (let i = 0; i < RUNS_PER_DEPLOYMENT; i++) {
    const run = runOf(n, i, now);
    const input = i === 0 ? { iri: FOREIGN_INPUT } : inputGraph(`${n + 1}-${i + 1}`, typeIri);
    const consumed = await advertise(core, actOf(caller), 'consumed', { run, artifacts: [input] });
    results.push(consumed);
    step();
    if (runFailed(n, i)) continue;
    const report = validationReport(
      n,
      i,
      consumed.artifacts[0] ?? FOREIGN_INPUT,
      deployment.software,
      typeIri,
    );
    results.push(await advertise(core, actOf(caller), 'produced', { run, artifacts: [report] }));
    step();
  }
  return results;
}
