/**
 * Impact of an artifact or a release: the runs that used it, directly and through what they generated, the
 * artifacts derived from it, the deployments that performed those runs (with their health, their current release
 * and whether they still run the release in question, and what they produced since), and the subscriptions that
 * were notified about the affected artifacts. The walk is lineage's, downwards, with its budgets and cursors.
 */
import type { Principal } from '../access/principal.js';
import type { Core } from '../core.js';
import type { JsonObject } from '../records/mapper.js';
import { idOf } from '../records/ids.js';
import {
  lineageDownFrom,
  lineageOptions,
  type Lineage,
  type LineageEdge,
  type LineageOptions,
  type LineageParams,
} from '../provenance/lineage.js';
import { impactDeployments, type ImpactDeployment } from './impact-deployments.js';
import { notifiedSubscriptions, type NotifiedScope, type NotifiedSubscription } from './impact-notified.js';
import { releaseRuns, runFacts, type RunFacts } from './impact-runs.js';
import { impactSubject, type ImpactSubject } from './impact-subject.js';

/** The deepest impact followed, and the default: six generations. */
export const IMPACT_DEPTH = 6;

/** The query parameters of an impact request. */
export type ImpactParams = Readonly<
  Partial<
    Record<'depth' | 'max_nodes' | 'max_edges' | 'time_budget_ms' | 'as_of' | 'cursor', string | undefined>
  >
>;

/** One run an answer holds: how far it is from the subject (1: it used the subject itself) and who ran it. */
export interface ImpactRun {
  readonly iri: string;
  readonly id: string;
  readonly title?: string;
  readonly depth: number;
  readonly direct: boolean;
  readonly instance?: string;
  readonly release?: string;
  readonly started_at?: string;
  readonly status?: string;
}

/** One artifact an answer holds: the subject (depth 0), or one made from it, directly or further down. */
export interface ImpactArtifact {
  readonly iri: string;
  readonly entity_type: string;
  readonly title?: string;
  readonly depth: number;
  readonly origin: JsonObject;
  readonly unresolved?: true;
}

/** The impact of what `of` names, or one page of it (`partial`, with a `cursor` to the next). */
export interface Impact {
  readonly of: string;
  readonly subject: ImpactSubject;
  readonly depth: number;
  readonly summary: {
    readonly runs: number;
    readonly direct_runs: number;
    readonly artifacts: number;
    readonly deployments: number;
    readonly deployments_still_on_release: number;
    readonly subscriptions: number;
  };
  readonly runs: ImpactRun[];
  readonly artifacts: ImpactArtifact[];
  readonly edges: LineageEdge[];
  readonly deployments: ImpactDeployment[];
  readonly subscriptions: NotifiedSubscription[];
  readonly subscriptions_scope: NotifiedScope;
  readonly partial: boolean;
  readonly truncated: boolean;
  readonly cursor?: string;
  /** The release was used by more runs than one answer follows (half its node budget): ask with a larger one. */
  readonly more_release_runs?: true;
  readonly as_of?: string;
}

/**
 * Reads the parameters of `GET /api/v1/impact`: those of lineage (`max_nodes`, `max_edges`, `time_budget_ms`,
 * `as_of`, `cursor`) with `depth` defaulting to six; the walk always goes down.
 */
export function impactOptions(params: ImpactParams): LineageOptions {
  const given: LineageParams = {};
  for (const [name, value] of Object.entries(params)) if (value !== undefined) given[name as 'depth'] = value;
  const depth = params.depth === undefined || params.depth === '' ? String(IMPACT_DEPTH) : params.depth;
  return lineageOptions({ ...given, depth, direction: 'down', collapse: 'false' });
}

/** Where a node sits: the artifacts named are the subject (0); a release's runs shift the walk one down. */
type DepthOf = (iri: string, depth: number) => number;

/** The runs of a page: a release's own runs first (depth 1), then those the walk met, each once. */
function presentRuns(
  walked: Lineage,
  releaseRuns: Iterable<string>,
  facts: ReadonlyMap<string, RunFacts>,
  depthOf: DepthOf,
): ImpactRun[] {
  const titles = new Map(walked.nodes.map((node) => [node.iri, node.title]));
  const depths = new Map<string, number>([...releaseRuns].map((run) => [run, 1]));
  for (const node of walked.nodes)
    if (node.entity_type === 'run' && !depths.has(node.iri))
      depths.set(node.iri, depthOf(node.iri, node.depth));
  const runs = [...depths].map(([iri, depth]): ImpactRun => {
    const fact = facts.get(iri) ?? {};
    const title = titles.get(iri) ?? fact.label;
    return {
      iri,
      id: idOf(iri),
      ...(title === undefined ? {} : { title }),
      depth,
      direct: depth === 1,
      ...(fact.instance === undefined ? {} : { instance: fact.instance }),
      ...(fact.release === undefined ? {} : { release: fact.release }),
      ...(fact.at === undefined ? {} : { started_at: fact.at }),
      ...(fact.status === undefined ? {} : { status: fact.status }),
    };
  });
  return runs.sort((a, b) => a.depth - b.depth || a.iri.localeCompare(b.iri));
}

/** The artifacts of a page (the subject and what was made from it), nearest first. */
function presentArtifacts(walked: Lineage, depthOf: DepthOf): ImpactArtifact[] {
  return walked.nodes
    .filter((node) => node.entity_type !== 'run')
    .map((node) => ({
      iri: node.iri,
      entity_type: node.entity_type,
      ...(node.title === undefined ? {} : { title: node.title }),
      depth: depthOf(node.iri, node.depth),
      origin: node.origin,
      ...(node.unresolved === true ? { unresolved: true as const } : {}),
    }))
    .sort((a, b) => a.depth - b.depth || a.iri.localeCompare(b.iri));
}

/** The edges from a release's runs: each used the release and generated its outputs. */
function releaseEdges(
  releases: readonly string[],
  generated: ReadonlyMap<string, string[]>,
  facts: ReadonlyMap<string, RunFacts>,
): LineageEdge[] {
  return [...generated].flatMap(([run, made]) => [
    ...releases
      .filter((release) => facts.get(run)?.release === release)
      .map((release) => ({ from: run, to: release, predicate: 'used' as const })),
    ...made.map((artifact) => ({ from: run, to: artifact, predicate: 'generated' as const })),
  ]);
}

/**
 * `GET /api/v1/impact?of=…`: what `of` (an artifact or release by IRI or id, a content identifier or an image
 * digest) affected. A release's own runs are the first generation. Each page lists the runs and artifacts it adds,
 * the deployments of its runs and the subscriptions notified about its artifacts; the subscriptions shown are
 * those the caller may manage. The budgets bound the walk; describing what it met comes after.
 */
export async function impact(
  core: Core,
  principal: Principal,
  of: string | undefined,
  options: LineageOptions,
): Promise<Impact> {
  const subject = await impactSubject(core, of);
  const key = `impact ${JSON.stringify([subject.artifacts, subject.releases])}`;
  const shift = subject.releases.length > 0 ? 1 : 0;
  const first = options.cursor === undefined;
  const fromReleases = first
    ? await releaseRuns(core, subject.releases, Math.max(1, Math.floor(options.maxNodes / 2)))
    : { generated: new Map<string, string[]>(), more: false };
  const outputs = [...fromReleases.generated.values()].flat();
  const roots = [...new Set([...subject.artifacts, ...outputs])].sort();
  const walked = await lineageDownFrom(core, key, roots, { ...options, depth: options.depth - shift });
  const named = new Set(subject.artifacts);
  const depthOf: DepthOf = (iri, depth) => (named.has(iri) ? 0 : depth + shift);
  const walkedRuns = walked.nodes.filter((node) => node.entity_type === 'run').map((node) => node.iri);
  const facts = await runFacts(core, [...new Set([...fromReleases.generated.keys(), ...walkedRuns])]);
  const runs = presentRuns(walked, fromReleases.generated.keys(), facts, depthOf);
  const artifacts = presentArtifacts(walked, depthOf);
  const deployments = await impactDeployments(core, facts, subject.releases, first);
  const notified = notifiedSubscriptions(
    core,
    principal,
    artifacts.map((artifact) => artifact.iri),
  );
  return {
    of: of ?? '',
    subject,
    depth: options.depth,
    summary: {
      runs: runs.length,
      direct_runs: runs.filter((run) => run.direct).length,
      artifacts: artifacts.length,
      deployments: deployments.length,
      deployments_still_on_release: deployments.filter((d) => d.still_on_release === true).length,
      subscriptions: notified.subscriptions.length,
    },
    runs,
    artifacts,
    edges: [...releaseEdges(subject.releases, fromReleases.generated, facts), ...walked.edges],
    deployments,
    subscriptions: notified.subscriptions,
    subscriptions_scope: notified.scope,
    partial: walked.partial,
    truncated: walked.partial,
    ...(walked.cursor === undefined ? {} : { cursor: walked.cursor }),
    ...(fromReleases.more ? { more_release_runs: true as const } : {}),
    ...(options.asOf === undefined ? {} : { as_of: options.asOf }),
  };
}
