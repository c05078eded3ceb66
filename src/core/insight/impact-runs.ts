/**
 * The runs of an impact answer: who performed each, with which release and when, and the runs a release was used
 * by (with what they generated), which start the walk when the question is about a release. Read from the lineage
 * index when it is complete, else from the query index (while the lineage index is being filled).
 */
import { DCT, PROV, REG, RDFS } from '../ns.js';
import { valuesBlock } from '../provenance/runs.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import type { Core } from '../core.js';
import { releaseRunRowsFromIndex, runFactsFromIndex } from './impact-index.js';

/** What an impact answer says of one run beyond its place in the lineage. */
export interface RunFacts {
  readonly instance?: string;
  readonly release?: string;
  /** When it started, or else when the registry recorded it. */
  readonly at?: string;
  readonly status?: string;
  readonly label?: string;
}

/** Runs described per query. */
const BATCH = 500;

/** The deployment, release, start and status of each run: one lookup, or one query per five hundred runs. */
export async function runFacts(core: Core, runs: readonly string[]): Promise<Map<string, RunFacts>> {
  return lineageIndexReady(core.db) ? runFactsFromIndex(core, runs) : runFactsFromQueries(core, runs);
}

async function runFactsFromQueries(core: Core, runs: readonly string[]): Promise<Map<string, RunFacts>> {
  const facts = new Map<string, RunFacts>();
  for (let from = 0; from < runs.length; from += BATCH) {
    const rows = await core.graph.select(
      `SELECT ?run (SAMPLE(?i) AS ?instance) (SAMPLE(?rel) AS ?release) (SAMPLE(?start) AS ?started)
         (SAMPLE(?made) AS ?created) (SAMPLE(?s) AS ?status) (SAMPLE(?l) AS ?label) WHERE {
         GRAPH ?g { ${valuesBlock('run', runs.slice(from, from + BATCH))} ?run a <${PROV('Activity')}> }
         OPTIONAL { GRAPH ?g { ?run <${PROV('wasAssociatedWith')}> ?i } }
         OPTIONAL { GRAPH ?g { ?run <${REG('usedRelease')}> ?rel } }
         OPTIONAL { GRAPH ?g { ?run <${PROV('startedAtTime')}> ?start } }
         OPTIONAL { GRAPH ?g { ?run <${DCT('created')}> ?made } }
         OPTIONAL { GRAPH ?g { ?run <${REG('status')}> ?s } }
         OPTIONAL { GRAPH ?g { ?run <${RDFS('label')}> ?l } }
       } GROUP BY ?run`,
    );
    for (const row of rows) {
      const iri = row.run?.value;
      if (iri === undefined) continue;
      const at = row.started?.value ?? row.created?.value;
      facts.set(iri, {
        ...(row.instance === undefined ? {} : { instance: row.instance.value }),
        ...(row.release === undefined ? {} : { release: row.release.value }),
        ...(at === undefined ? {} : { at }),
        ...(row.status === undefined ? {} : { status: row.status.value }),
        ...(row.label === undefined ? {} : { label: row.label.value }),
      });
    }
  }
  return facts;
}

/** The runs that used a release, and what each generated. */
export interface ReleaseRuns {
  /** Run → the artifacts it generated (possibly none). */
  readonly generated: Map<string, string[]>;
  /** True when the release was used by more runs than were read. */
  readonly more: boolean;
}

/** The runs performed with any of `releases` (at most `limit` run–output pairs), with what they generated. */
export async function releaseRuns(
  core: Core,
  releases: readonly string[],
  limit: number,
): Promise<ReleaseRuns> {
  const generated = new Map<string, string[]>();
  if (releases.length === 0) return { generated, more: false };
  const rows = lineageIndexReady(core.db)
    ? releaseRunRowsFromIndex(core, releases, limit + 1)
    : await releaseRunRowsFromQuery(core, releases, limit + 1);
  for (const row of rows.slice(0, limit)) {
    const outputs = generated.get(row.run) ?? [];
    if (row.a !== null) outputs.push(row.a);
    generated.set(row.run, outputs);
  }
  return { generated, more: rows.length > limit };
}

/** The pairs `releaseRunRowsFromIndex` gives, from the query index, in the same order. */
async function releaseRunRowsFromQuery(
  core: Core,
  releases: readonly string[],
  limit: number,
): Promise<{ run: string; a: string | null }[]> {
  const rows = await core.graph.select(
    `SELECT DISTINCT ?run ?a WHERE {
       GRAPH ?g { ${valuesBlock('rel', releases)} ?run <${REG('usedRelease')}> ?rel }
       OPTIONAL { GRAPH ?g2 { ?a <${PROV('wasGeneratedBy')}> ?run } } }
     ORDER BY STR(?run) COALESCE(STR(?a), "") LIMIT ${limit}`,
  );
  return rows.flatMap((row) =>
    row.run === undefined ? [] : [{ run: row.run.value, a: row.a === undefined ? null : row.a.value }],
  );
}
