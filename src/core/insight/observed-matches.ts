/**
 * Matchmaking on observed capability: which deployments (and their software) actually produced or consumed
 * artifacts of given types, beside or instead of which declared that they do; and, for one artifact, what can
 * consume it and which deployments already did. What runs did is read from the lineage index in `registry.db`
 * (`observed-index.ts`) when it is ready, else from the query index.
 */
import { BadRequestError } from '../errors.js';
import { DCT, GRAPHS, PROV, RDFS, REG, SCHEMA } from '../ns.js';
import { ARTIFACT } from '../records/activity-specs.js';
import { idOf } from '../records/ids.js';
import { valuesBlock } from '../provenance/runs.js';
import { iriOf, originOf, requireReadable } from '../stored/records.js';
import type { Core } from '../core.js';
import type { CapabilityMatch } from '../discovery/capabilities.js';
import { RUN_TIME, type ByWay, type CapabilityWay, type ObservedType } from './observed.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import {
  deploymentCountsFromIndex,
  namesFromIndex,
  useCountsFromIndex,
  type DeploymentCount,
  type UseCount,
} from './observed-index.js';

/** What matchmaking answers from: declarations (the default), what runs did, or both. */
export type MatchBasis = 'declared' | 'observed' | 'both';

const BASES: readonly MatchBasis[] = ['declared', 'observed', 'both'];

/** The most matches returned, as for declared matchmaking. */
const LIMIT = 200;

/** Reads `basis` (default declared); anything else is a 400 naming it. */
export function matchBasis(value: string | undefined): MatchBasis {
  if (value === undefined || value === '') return 'declared';
  if ((BASES as readonly string[]).includes(value)) return value as MatchBasis;
  const message = `basis must be one of ${BASES.join(', ')}, got "${value}"`;
  throw new BadRequestError(message, { errors: [{ field: 'basis', message }] });
}

/** A match found on what runs did: the asked types each way, as observed. */
export interface ObservedMatch {
  readonly iri: string;
  readonly id: string;
  readonly entity_type: 'software' | 'instance';
  readonly name: string;
  readonly software?: string;
  readonly observed: ByWay<ObservedType>;
  readonly origin: Record<string, unknown>;
}

/** One match of a basis-aware answer: found by declaration, by observation, or by both. */
export type BasisMatch =
  | (CapabilityMatch & { readonly basis: MatchBasis; readonly observed?: ByWay<ObservedType> })
  | (ObservedMatch & { readonly basis: MatchBasis });

/** A deployment whose runs used an artifact. */
export interface Consumer {
  readonly instance: string;
  readonly name: string;
  readonly software?: string;
  readonly runs: number;
  readonly last_used_at?: string;
}

/** The answer of `GET /api/v1/capabilities` with `basis` observed or both, or with `artifact`. */
export interface BasisMatches {
  readonly basis: MatchBasis;
  readonly items: BasisMatch[];
  readonly total: number;
  readonly truncated: boolean;
  /** With `artifact`: the artifact, its types (asked as `consumes`) and the deployments that already used it. */
  readonly artifact?: string;
  readonly artifact_types?: string[];
  readonly consumed_by?: Consumer[];
}

interface Observation {
  readonly instance: string;
  readonly software?: string;
  readonly type: ObservedType;
}

/** `deploymentCountsFromIndex` asked of the query index, while the lineage index is not ready. */
async function countsFromQuery(
  core: Core,
  types: readonly string[],
  way: CapabilityWay,
  limit: number,
): Promise<DeploymentCount[]> {
  const met =
    way === 'produces'
      ? `GRAPH ?g { ${valuesBlock('t', types)} ?a <${DCT('conformsTo')}> ?t . ?a <${PROV('wasGeneratedBy')}> ?r }`
      : `GRAPH ?g { ${valuesBlock('t', types)} ?a <${DCT('conformsTo')}> ?t } GRAPH <${GRAPHS.local}> { ?r <${PROV('used')}> ?a }`;
  const rows = await core.graph.select(
    `SELECT ?i ?t (SAMPLE(?s) AS ?sw) (COUNT(DISTINCT ?a) AS ?n) (COUNT(DISTINCT ?r) AS ?runs) (MAX(?when) AS ?last)
     WHERE { ${met} GRAPH <${GRAPHS.local}> { ?r <${PROV('wasAssociatedWith')}> ?i
         FILTER NOT EXISTS { ?i <${REG('tombstoned')}> true } }
       OPTIONAL { GRAPH <${GRAPHS.local}> { ?i <${REG('instanceOf')}> ?s } }
       ${RUN_TIME} } GROUP BY ?i ?t LIMIT ${limit}`,
  );
  return rows.flatMap((row) => {
    const [instance, type] = [row.i?.value, row.t?.value];
    if (instance === undefined || type === undefined) return [];
    const [artifacts, runs] = [Number(row.n?.value ?? 0), Number(row.runs?.value ?? 0)];
    return [
      { instance, type, software: row.sw?.value ?? null, artifacts, runs, last: row.last?.value ?? null },
    ];
  });
}

/**
 * Per deployment, what its runs met of `types` one way: from the lineage index when it is ready (so before the
 * query index has loaded), else from the query index; by deployment, then in the order the types were asked.
 */
async function observations(
  core: Core,
  types: readonly string[],
  way: CapabilityWay,
): Promise<Observation[]> {
  if (types.length === 0) return [];
  const limit = LIMIT * types.length * 4;
  const counts = lineageIndexReady(core.db)
    ? deploymentCountsFromIndex(core.db, types, way, limit)
    : await countsFromQuery(core, types, way, limit);
  return counts
    .map((count) => ({
      instance: count.instance,
      ...(count.software === null ? {} : { software: count.software }),
      type: {
        type: count.type,
        artifacts: count.artifacts,
        runs: count.runs,
        ...(count.last === null ? {} : { last_seen: count.last }),
      },
    }))
    .sort((a, b) =>
      a.instance === b.instance
        ? types.indexOf(a.type.type) - types.indexOf(b.type.type)
        : a.instance < b.instance
          ? -1
          : 1,
    );
}

/** Adds one observation of a type to what a record met, summing a software's deployments. */
function add(
  into: Map<string, ByWay<ObservedType>>,
  iri: string,
  way: CapabilityWay,
  seen: ObservedType,
): void {
  const met = into.get(iri) ?? { produces: [], consumes: [] };
  into.set(iri, met);
  const held = met[way].findIndex((type) => type.type === seen.type);
  if (held < 0) {
    met[way].push(seen);
    return;
  }
  const before = met[way][held]!;
  const last = [before.last_seen, seen.last_seen]
    .filter((t) => t !== undefined)
    .sort()
    .pop();
  met[way][held] = {
    type: seen.type,
    artifacts: before.artifacts + seen.artifacts,
    runs: before.runs + seen.runs,
    ...(last === undefined ? {} : { last_seen: last }),
  };
}

/** Names of deployments (label) and software (name): from the lineage index when it is ready, else in one query. */
async function namesOf(core: Core, iris: readonly string[]): Promise<Map<string, string>> {
  if (iris.length === 0) return new Map();
  if (lineageIndexReady(core.db)) return namesFromIndex(core.db, iris);
  const names = new Map<string, string>();
  const rows = await core.graph.select(
    `SELECT ?x (SAMPLE(?n) AS ?name) WHERE { GRAPH <${GRAPHS.local}> { ${valuesBlock('x', iris)}
       ?x <${SCHEMA('name')}>|<${RDFS('label')}> ?n } } GROUP BY ?x`,
  );
  for (const row of rows)
    if (row.x !== undefined && row.name !== undefined) names.set(row.x.value, row.name.value);
  return names;
}

/**
 * Deployments, and software across their deployments, whose runs met every type asked each way, software first;
 * at most two hundred.
 */
export async function observedMatches(
  core: Core,
  produces: string[],
  consumes: string[],
): Promise<ObservedMatch[]> {
  const met = new Map<string, ByWay<ObservedType>>();
  const softwareOf = new Map<string, string>();
  for (const [way, types] of [
    ['produces', produces],
    ['consumes', consumes],
  ] as const)
    for (const seen of await observations(core, types, way)) {
      add(met, seen.instance, way, seen.type);
      if (seen.software !== undefined) {
        softwareOf.set(seen.instance, seen.software);
        add(met, seen.software, way, seen.type);
      }
    }
  const software = new Set(softwareOf.values());
  const complete = [...met].filter(
    ([, ways]) =>
      produces.every((t) => ways.produces.some((o) => o.type === t)) &&
      consumes.every((t) => ways.consumes.some((o) => o.type === t)),
  );
  const names = await namesOf(
    core,
    complete.map(([iri]) => iri),
  );
  return complete
    .map(([iri, observed]): ObservedMatch => {
      const owner = softwareOf.get(iri);
      return {
        iri,
        id: idOf(iri),
        entity_type: software.has(iri) ? 'software' : 'instance',
        name: names.get(iri) ?? idOf(iri),
        ...(owner === undefined || software.has(iri) ? {} : { software: owner }),
        observed,
        origin: originOf(GRAPHS.local),
      };
    })
    .sort((a, b) =>
      a.entity_type === b.entity_type ? a.iri.localeCompare(b.iri) : a.entity_type === 'software' ? -1 : 1,
    )
    .slice(0, LIMIT + 1);
}

/** `useCountsFromIndex` asked of the query index, while the lineage index is not ready. */
async function useCountsFromQuery(core: Core, artifact: string): Promise<UseCount[]> {
  const rows = await core.graph.select(
    `SELECT ?i (SAMPLE(?s) AS ?sw) (COUNT(DISTINCT ?r) AS ?runs) (MAX(?when) AS ?last) WHERE {
       GRAPH <${GRAPHS.local}> { ${valuesBlock('a', [artifact])} ?r <${PROV('used')}> ?a . ?r <${PROV('wasAssociatedWith')}> ?i }
       OPTIONAL { GRAPH <${GRAPHS.local}> { ?i <${REG('instanceOf')}> ?s } }
       ${RUN_TIME} } GROUP BY ?i LIMIT ${LIMIT}`,
  );
  return rows.flatMap((row) => {
    const instance = row.i?.value;
    if (instance === undefined) return [];
    const runs = Number(row.runs?.value ?? 0);
    return [{ instance, software: row.sw?.value ?? null, runs, last: row.last?.value ?? null }];
  });
}

/**
 * An artifact's types and the deployments whose runs used it: from the lineage index when it is ready (so before
 * the query index has loaded), else from the query index.
 */
export async function artifactUse(
  core: Core,
  id: string,
): Promise<{ iri: string; types: string[]; consumers: Consumer[] }> {
  const iri = iriOf(core, 'artifact', id);
  const stored = await requireReadable(core, ARTIFACT, iri);
  const type = stored.json.conforms_to;
  const uses = lineageIndexReady(core.db)
    ? useCountsFromIndex(core.db, iri, LIMIT)
    : await useCountsFromQuery(core, iri);
  const names = await namesOf(
    core,
    uses.map((use) => use.instance),
  );
  const consumers = uses.map((use): Consumer => ({
    instance: use.instance,
    name: names.get(use.instance) ?? idOf(use.instance),
    ...(use.software === null ? {} : { software: use.software }),
    runs: use.runs,
    ...(use.last === null ? {} : { last_used_at: use.last }),
  }));
  return {
    iri,
    types: typeof type === 'string' ? [type] : [],
    consumers: consumers.sort((a, b) => a.instance.localeCompare(b.instance)),
  };
}
