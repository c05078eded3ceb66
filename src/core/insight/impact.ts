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
  type LineageEdge,
  type LineageOptions,
  type LineageParams,
} from '../provenance/lineage.js';
import { impactDeployments, type ImpactDeployment } from './impact-deployments.js';
import { notifiedSubscriptions, type NotifiedScope, type NotifiedSubscription } from './impact-notified.js';
import { releaseRuns, runFacts } from './impact-runs.js';
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

/**
 * `GET /api/v1/impact?of=…`: what `of` (an artifact or release by IRI or id, a content identifier or an image
 * digest) affected. A release's own runs are the first generation. Each page lists the runs and artifacts it adds,
 * the deployments of its runs and the subscriptions notified about its artifacts; the subscriptions shown are
 * those the caller may manage.
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
  const depthOf = (iri: string, depth: number) => (named.has(iri) ? 0 : depth + shift);
  const runIris = [
    ...fromReleases.generated.keys(),
    ...walked.nodes.filter((node) => node.entity_type === 'run').map((node) => node.iri),
  ];
  const facts = await runFacts(core, [...new Set(runIris)]);
  const titles = new Map(walked.nodes.map((node) => [node.iri, node.title]));
  const depths = new Map<string, number>([...fromReleases.generated.keys()].map((run) => [run, 1]));
  for (const node of walked.nodes)
    if (node.entity_type === 'run' && !depths.has(node.iri))
      depths.set(node.iri, depthOf(node.iri, node.depth));
  const runs: ImpactRun[] = [...depths].map(([iri, depth]) => {
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
  const artifacts: ImpactArtifact[] = walked.nodes
    .filter((node) => node.entity_type !== 'run')
    .map((node) => ({
      iri: node.iri,
      entity_type: node.entity_type,
      ...(node.title === undefined ? {} : { title: node.title }),
      depth: depthOf(node.iri, node.depth),
      origin: node.origin,
      ...(node.unresolved === true ? { unresolved: true as const } : {}),
    }));
  const edges: LineageEdge[] = [
    ...[...fromReleases.generated].flatMap(([run, made]) => [
      ...subject.releases
        .filter((release) => facts.get(run)?.release === release)
        .map((release) => ({ from: run, to: release, predicate: 'used' as const })),
      ...made.map((artifact) => ({ from: run, to: artifact, predicate: 'generated' as const })),
    ]),
    ...walked.edges,
  ];
  const deployments = await impactDeployments(core, facts, subject.releases, first);
  const notified = notifiedSubscriptions(
    core,
    principal,
    artifacts.map((artifact) => artifact.iri),
  );
  const partial = walked.partial;
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
    runs: runs.sort((a, b) => a.depth - b.depth || a.iri.localeCompare(b.iri)),
    artifacts: artifacts.sort((a, b) => a.depth - b.depth || a.iri.localeCompare(b.iri)),
    edges,
    deployments,
    subscriptions: notified.subscriptions,
    subscriptions_scope: notified.scope,
    partial,
    truncated: partial,
    ...(walked.cursor === undefined ? {} : { cursor: walked.cursor }),
    ...(fromReleases.more ? { more_release_runs: true as const } : {}),
    ...(options.asOf === undefined ? {} : { as_of: options.asOf }),
  };
}
