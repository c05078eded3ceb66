/**
 * The deployments an impact answer involves: those that performed its runs, and for a release those that run it
 * now; each with its health and current release, whether it still runs the release in question, and what it has
 * produced since it first used what the question is about. Read from the lineage index when it is complete, else
 * from the query index.
 */
import { DCT, PROV, REG, XSD } from '../ns.js';
import { getInstance } from '../catalogue/instances.js';
import { NotFoundError } from '../errors.js';
import { valuesBlock } from '../provenance/runs.js';
import { idOf } from '../records/ids.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import type { Core } from '../core.js';
import { releaseStays, type ReleaseStay } from './impact-history.js';
import { producedSinceFromIndex, runningNowFromIndex } from './impact-index.js';
import type { RunFacts } from './impact-runs.js';

/** Artifacts listed per deployment under `produced_since` (the count covers them all). */
export const PRODUCED_SINCE_SHOWN = 10;

/** One deployment an impact answer involves. */
export interface ImpactDeployment {
  readonly iri: string;
  readonly id: string;
  readonly label?: string;
  readonly software?: string;
  readonly software_name?: string;
  readonly health: string;
  readonly health_checked_at?: string;
  /** The release it runs now, and that release's version. */
  readonly release?: string;
  readonly release_version?: string;
  /** The releases its runs in this answer were performed with (for a release question: that release). */
  readonly releases_involved: string[];
  /**
   * Whether it still runs a release in question: the release asked about, or a release its runs in this answer
   * used. Absent when no release is known on either side.
   */
  readonly still_on_release?: boolean;
  /** Its runs in this answer, and the earliest of them (when it first used what the question is about). */
  readonly runs: number;
  readonly first_used_at?: string;
  readonly last_run_at?: string;
  /**
   * Artifacts its runs generated since `first_used_at`; for a deployment with no run in the answer, since it moved
   * onto the release (or ever, when its history does not say).
   */
  readonly produced_since: { readonly count: number; readonly artifacts: string[] };
  /** For a release question, from the deployment's history: when it last moved onto the release, and off it. */
  readonly on_release_since?: string;
  readonly left_release_at?: string;
  readonly tombstoned?: true;
}

interface Involvement {
  readonly runs: string[];
  readonly releases: Set<string>;
  first?: string;
}

/** What a deployment's stored record says, or nothing for a deployment this registry does not hold. */
async function recordOf(core: Core, iri: string): Promise<Record<string, unknown>> {
  try {
    return await getInstance(core, iri);
  } catch (error) {
    if (error instanceof NotFoundError) return {};
    throw error;
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** How many artifacts the deployment's runs generated since `since`, and the newest few of them. */
async function producedSince(
  core: Core,
  instance: string,
  since: string | undefined,
): Promise<ImpactDeployment['produced_since']> {
  if (lineageIndexReady(core.db)) return producedSinceFromIndex(core, instance, since, PRODUCED_SINCE_SHOWN);
  const after = since === undefined ? '' : `FILTER(?c >= ${JSON.stringify(since)}^^<${XSD('dateTime')}>)`;
  const where = `GRAPH ?g { ${valuesBlock('i', [instance])} ?r <${PROV('wasAssociatedWith')}> ?i }
    GRAPH ?g2 { ?a <${PROV('wasGeneratedBy')}> ?r . ?a <${DCT('created')}> ?c ${after}
      FILTER NOT EXISTS { ?a <${REG('tombstoned')}> true } }`;
  const [counted] = await core.graph.select(`SELECT (COUNT(DISTINCT ?a) AS ?n) WHERE { ${where} }`);
  const count = Number(counted?.n?.value ?? 0);
  if (count === 0) return { count, artifacts: [] };
  const newest = await core.graph.select(
    `SELECT ?a (MAX(?c) AS ?at) WHERE { ${where} } GROUP BY ?a ORDER BY DESC(?at) STR(?a)
     LIMIT ${PRODUCED_SINCE_SHOWN}`,
  );
  return { count, artifacts: newest.flatMap((row) => (row.a === undefined ? [] : [row.a.value])) };
}

/** Deployments running a release read at most. */
const MOST_RUNNING = 1000;

/** The deployments running any of `releases` now, in IRI order. */
async function runningNow(core: Core, releases: readonly string[]): Promise<string[]> {
  if (releases.length === 0) return [];
  if (lineageIndexReady(core.db)) return runningNowFromIndex(core, releases, MOST_RUNNING);
  const rows = await core.graph.select(
    `SELECT DISTINCT ?i WHERE { GRAPH ?g { ${valuesBlock('rel', releases)} ?i <${REG('runsRelease')}> ?rel
       FILTER NOT EXISTS { ?i <${REG('tombstoned')}> true } } } ORDER BY STR(?i) LIMIT ${MOST_RUNNING}`,
  );
  return rows.flatMap((row) => (row.i === undefined ? [] : [row.i.value]));
}

/** The deployments that performed `runs`, each with its runs among them, their releases and the earliest. */
function involvement(runs: ReadonlyMap<string, RunFacts>): Map<string, Involvement> {
  const involved = new Map<string, Involvement>();
  for (const [run, facts] of runs) {
    if (facts.instance === undefined) continue;
    const entry = involved.get(facts.instance) ?? { runs: [], releases: new Set<string>() };
    involved.set(facts.instance, entry);
    entry.runs.push(run);
    if (facts.release !== undefined) entry.releases.add(facts.release);
    if (facts.at !== undefined && (entry.first === undefined || facts.at < entry.first))
      entry.first = facts.at;
  }
  return involved;
}

/** One deployment as an impact answer shows it, from its record and its part in the answer. */
async function present(
  core: Core,
  iri: string,
  entry: Involvement,
  asked: ReadonlySet<string>,
  stay: ReleaseStay | undefined,
): Promise<ImpactDeployment> {
  const record = await recordOf(core, iri);
  const release = text(record.release);
  const inQuestion = asked.size > 0 ? asked : entry.releases;
  const onIt = release !== undefined && inQuestion.has(release);
  return {
    iri,
    id: idOf(iri),
    ...optional('label', text(record.label)),
    ...optional('software', text(record.software)),
    ...optional('software_name', text(record.software_name)),
    health: text(record.health) ?? 'unknown',
    ...optional('health_checked_at', text(record.health_checked_at)),
    ...optional('release', release),
    ...optional('release_version', text(record.release_version)),
    releases_involved: [...inQuestion].sort(),
    ...(inQuestion.size === 0 ? {} : { still_on_release: onIt }),
    runs: entry.runs.length,
    ...optional('first_used_at', entry.first),
    ...optional('last_run_at', text(record.last_run_at)),
    produced_since: await producedSince(core, iri, entry.first ?? stay?.since),
    ...optional('on_release_since', stay?.since),
    ...optional('left_release_at', onIt ? undefined : stay?.left_at),
    ...(record.tombstoned === true ? { tombstoned: true as const } : {}),
  };
}

/**
 * The deployments that performed `runs`, earliest first use first. `releases` are the releases asked about; for
 * an artifact question it is empty and a deployment's own runs say which release used the artifact. With
 * `withRunning` (the first page of an answer) those that run one of `releases` now, or ran one as their history
 * records, are added.
 */
export async function impactDeployments(
  core: Core,
  runs: ReadonlyMap<string, RunFacts>,
  releases: readonly string[],
  withRunning: boolean,
): Promise<ImpactDeployment[]> {
  const involved = involvement(runs);
  const stays = releaseStays(core, releases);
  if (withRunning)
    for (const iri of [...(await runningNow(core, releases)), ...stays.keys()])
      if (!involved.has(iri)) involved.set(iri, { runs: [], releases: new Set() });
  const asked = new Set(releases);
  const deployments: ImpactDeployment[] = [];
  for (const [iri, entry] of involved)
    deployments.push(await present(core, iri, entry, asked, stays.get(iri)));
  return deployments.sort(
    (a, b) => (a.first_used_at ?? '').localeCompare(b.first_used_at ?? '') || a.iri.localeCompare(b.iri),
  );
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
