/**
 * Observed capability: the artifact types a deployment's runs (or the runs of every deployment of a software)
 * actually produced and consumed, with counts and when last seen, set beside the capability declared for it, and
 * the differences flagged both ways. Read from the lineage index in `registry.db` (`observed-index.ts`), so it
 * answers before the query index has loaded; from the query index while the lineage index is being filled.
 */
import { BadRequestError } from '../errors.js';
import { DCT, GRAPHS, PROV, REG } from '../ns.js';
import { INSTANCE, SOFTWARE } from '../records/specs.js';
import { idOf } from '../records/ids.js';
import { describeTerm } from '../discovery/terms.js';
import { valuesBlock } from '../provenance/runs.js';
import { iriOf, requireReadable } from '../stored/records.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import {
  declaredFromIndex,
  releasesFromIndex,
  typeCountsFromIndex,
  type Declaration,
  type TypeCount,
} from './observed-index.js';
import type { Core } from '../core.js';

/** Binds `?when` to the time of the run `?r` in the local graph: its start, else its creation. */
export const RUN_TIME = `OPTIONAL { GRAPH <${GRAPHS.local}> { ?r <${PROV('startedAtTime')}> ?started } }
       OPTIONAL { GRAPH <${GRAPHS.local}> { ?r <${DCT('created')}> ?created } }
       BIND(COALESCE(?started, ?created) AS ?when)`;

/** Days a declared type may go unseen before it is flagged, by default, and at most. */
export const OBSERVED_DAYS = { default: 30, max: 3650 } as const;

/** Which way a run met an artifact type. */
export type CapabilityWay = 'produces' | 'consumes';

/** One artifact type runs met one way: how many artifacts, by how many runs, and when last. */
export interface ObservedType {
  readonly type: string;
  readonly label?: string;
  readonly artifacts: number;
  readonly runs: number;
  readonly last_seen?: string;
}

/** Types by the way they were met. */
export type ByWay<T> = Record<CapabilityWay, T[]>;

/** Declared and observed capability of a software or a deployment, and where they differ. */
export interface ObservedCapability {
  readonly iri: string;
  readonly id: string;
  readonly entity_type: 'software' | 'instance';
  readonly days: number;
  /** Declared types, and the records they were declared on (the record, its release, its software). */
  readonly declared: ByWay<string> & { readonly declared_on: string[] };
  readonly observed: ByWay<ObservedType>;
  /** Types its runs met that no declaration names. */
  readonly observed_undeclared: ByWay<string>;
  /** Declared types its runs have not met in the last `days` days. */
  readonly declared_unobserved: ByWay<string>;
}

/** Reads `days` (default 30, 1–3650); anything but a whole number in range is a 400 naming it. */
export function observedDays(value: string | undefined): number {
  if (value === undefined || value === '') return OBSERVED_DAYS.default;
  const days = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(days >= 1 && days <= OBSERVED_DAYS.max)) {
    const message = `days must be a whole number 1–${OBSERVED_DAYS.max}, got "${value}"`;
    throw new BadRequestError(message, { errors: [{ field: 'days', message }] });
  }
  return days;
}

/** The SPARQL pattern binding `?r` to the runs in scope: a deployment's, or those of every deployment of a software. */
function runsOf(kind: 'software' | 'instance', iri: string): string {
  return kind === 'instance'
    ? `GRAPH <${GRAPHS.local}> { ${valuesBlock('i', [iri])} ?r <${PROV('wasAssociatedWith')}> ?i }`
    : `GRAPH <${GRAPHS.local}> { ${valuesBlock('s', [iri])} ?i <${REG('instanceOf')}> ?s . ?r <${PROV('wasAssociatedWith')}> ?i }`;
}

/** `typeCountsFromIndex` asked of the query index, while the lineage index is not ready. */
async function typeCountsFromQuery(
  core: Core,
  kind: 'software' | 'instance',
  iri: string,
  way: CapabilityWay,
): Promise<TypeCount[]> {
  const link = way === 'produces' ? `?a <${PROV('wasGeneratedBy')}> ?r .` : `?r <${PROV('used')}> ?a .`;
  const artifact =
    way === 'produces'
      ? `GRAPH ?g { ${link} ?a <${DCT('conformsTo')}> ?t }`
      : `GRAPH <${GRAPHS.local}> { ${link} } GRAPH ?g { ?a <${DCT('conformsTo')}> ?t }`;
  const rows = await core.graph.select(
    `SELECT ?t (COUNT(DISTINCT ?a) AS ?n) (COUNT(DISTINCT ?r) AS ?runs) (MAX(?when) AS ?last) WHERE {
       ${runsOf(kind, iri)} ${artifact} ${RUN_TIME}
     } GROUP BY ?t`,
  );
  return rows.flatMap((row) => {
    const type = row.t?.value;
    if (type === undefined) return [];
    const last = row.last?.value ?? null;
    return [{ type, artifacts: Number(row.n?.value ?? 0), runs: Number(row.runs?.value ?? 0), last }];
  });
}

/**
 * The types the runs of a deployment (or of every deployment of a software) met one way, with counts and the
 * newest run's time: from the lineage index when it is ready (so before the query index has loaded), else from
 * the query index.
 */
export async function observedTypes(
  core: Core,
  kind: 'software' | 'instance',
  iri: string,
  way: CapabilityWay,
): Promise<ObservedType[]> {
  const counts = lineageIndexReady(core.db)
    ? typeCountsFromIndex(core.db, kind, iri, way)
    : await typeCountsFromQuery(core, kind, iri, way);
  const types: ObservedType[] = [];
  for (const count of counts) {
    const label = (await describeTerm(core, count.type)).label;
    types.push({
      type: count.type,
      ...(label === undefined ? {} : { label }),
      artifacts: count.artifacts,
      runs: count.runs,
      ...(count.last === null ? {} : { last_seen: count.last }),
    });
  }
  return types.sort((a, b) => b.artifacts - a.artifacts || a.type.localeCompare(b.type));
}

/** `declaredFromIndex` asked of the query index, while the lineage index is not ready. */
async function declaredFromQuery(core: Core, records: readonly string[]): Promise<Declaration[]> {
  const rows = await core.graph.select(
    `SELECT DISTINCT ?x ?way ?t WHERE { GRAPH ?g { ${valuesBlock('x', records)} ?x <${REG('hasCapability')}> ?c .
       { ?c <${REG('produces')}> ?t BIND("produces" AS ?way) } UNION { ?c <${REG('consumes')}> ?t BIND("consumes" AS ?way) } } }`,
  );
  return rows.flatMap((row) => {
    const [record, way, type] = [row.x?.value, row.way?.value, row.t?.value];
    if (record === undefined || type === undefined) return [];
    return [{ record, way: way === 'produces' ? 'produces' : 'consumes', type }];
  });
}

/** The types declared on `records` (a deployment, its release and its software; or a software and its releases). */
async function declaredOn(core: Core, records: readonly string[]): Promise<ObservedCapability['declared']> {
  const rows = lineageIndexReady(core.db)
    ? declaredFromIndex(core.db, records)
    : await declaredFromQuery(core, records);
  const produces = new Set<string>();
  const consumes = new Set<string>();
  const on = new Set<string>();
  for (const row of rows) {
    on.add(row.record);
    (row.way === 'produces' ? produces : consumes).add(row.type);
  }
  return { produces: [...produces].sort(), consumes: [...consumes].sort(), declared_on: [...on].sort() };
}

/** The most releases of a software whose declarations are read. */
const RELEASES = 1000;

/** The releases of a software. */
async function releasesOf(core: Core, software: string): Promise<string[]> {
  if (lineageIndexReady(core.db)) return releasesFromIndex(core.db, software, RELEASES);
  const rows = await core.graph.select(
    `SELECT DISTINCT ?rel WHERE { GRAPH <${GRAPHS.local}> { ?rel <${DCT('isVersionOf')}> <${software}> ;
       a <${REG('Release')}> } } LIMIT ${RELEASES}`,
  );
  return rows.flatMap((row) => (row.rel === undefined ? [] : [row.rel.value]));
}

/**
 * `GET /api/v1/software/{id}/observed-capability` and `GET /api/v1/instances/{id}/observed-capability`: what the
 * runs did beside what was declared. A deployment's declaration is its own with its release's and its software's;
 * a software's is its own with its releases'. Types are compared as IRIs.
 */
export async function observedCapability(
  core: Core,
  kind: 'software' | 'instance',
  id: string,
  days: number,
): Promise<ObservedCapability> {
  const iri = iriOf(core, kind, id);
  const stored = await requireReadable(core, kind === 'instance' ? INSTANCE : SOFTWARE, iri);
  const related =
    kind === 'instance'
      ? [stored.json.release, stored.json.software].filter((x): x is string => typeof x === 'string')
      : await releasesOf(core, iri);
  const declared = await declaredOn(core, [iri, ...related]);
  const observed = {
    produces: await observedTypes(core, kind, iri, 'produces'),
    consumes: await observedTypes(core, kind, iri, 'consumes'),
  };
  const since = new Date(Date.now() - days * 86_400_000).toISOString();
  const differences = (way: CapabilityWay) => {
    const seen = new Map(observed[way].map((type) => [type.type, type]));
    return {
      undeclared: observed[way].map((type) => type.type).filter((type) => !declared[way].includes(type)),
      unobserved: declared[way].filter((type) => {
        const last = seen.get(type)?.last_seen;
        return last === undefined || Date.parse(last) < Date.parse(since);
      }),
    };
  };
  const produces = differences('produces');
  const consumes = differences('consumes');
  return {
    iri,
    id: idOf(iri),
    entity_type: kind,
    days,
    declared,
    observed,
    observed_undeclared: { produces: produces.undeclared, consumes: consumes.undeclared },
    declared_unobserved: { produces: produces.unobserved, consumes: consumes.unobserved },
  };
}
