import type { RunJson } from '../../api/index.js';
import { Args, Flags } from '@oclif/core';
import { RUN_STATUSES } from '../../core/records/activity-specs.js';
import { ApiError } from './errors.js';
import type { HttpClient, JsonObject, Query } from './http.js';
import { everyPage, listPath } from './registry.js';
import type { Column } from './table.js';

export type { ArtifactRefJson, RunJson } from '../../api/index.js';

/** The statuses `reg runs list --status` takes: those a run is advertised with, and `unknown` for none. */
export const RUN_STATUS_FILTERS: readonly string[] = [...RUN_STATUSES, 'unknown'];

/** A page of the events a run was recorded from, as `GET /api/v1/runs/{id}/events` answers it. */
export interface RunEventsPage {
  readonly run: string;
  readonly items: readonly RunEventJson[];
  readonly total: number;
  readonly next_cursor?: string;
}

/** One OpenLineage event as the registry kept it, with the event itself as it was received. */
export interface RunEventJson {
  readonly event_type: string;
  readonly event_time?: string;
  readonly received_at: string;
  readonly digest: string;
  readonly event: JsonObject;
}

/**
 * A lookup whose answers, read together, amount to a registry's 404 (nothing matched) or 409 (several records
 * matched where one was asked for): it carries that status, so it exits with the same code, and under --json
 * the candidates go with it.
 */
export class LookupError extends ApiError {
  readonly candidates: readonly RunJson[];

  constructor(status: 404 | 409, code: string, detail: string, candidates: readonly RunJson[] = []) {
    super(status, code, status === 404 ? 'Not found' : 'Conflict', detail, {
      ...(candidates.length > 0
        ? { hints: ['name the run by its id, or narrow the key with --instance'] }
        : {}),
      problem: {
        title: status === 404 ? 'Not found' : 'Conflict',
        status,
        code,
        detail,
        ...(candidates.length > 0 ? { candidates: candidates.map(candidateOf) } : {}),
      },
    });
    this.message = detail;
    this.candidates = candidates;
  }
}

/** What tells one candidate run from another. */
function candidateOf(run: RunJson): JsonObject {
  return {
    id: run.id,
    iri: run.iri,
    external_key: run.external_key,
    status: run.status,
    started_at: run.started_at,
    instance: run.instance,
    instance_label: run.instance_label,
  };
}

/** What an id of the registry may look like; anything else can only be an external key. */
const ID_SHAPE = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/;
const isIri = (ref: string): boolean => /^https?:\/\//.test(ref);

/** Options of a run lookup. */
export interface RunLookup {
  /** Only runs of this deployment (id or IRI) match an external key. */
  readonly instance?: string | undefined;
}

/** The runs whose external key is exactly `key` (the list's `q` also matches labels and parts of keys). */
export async function runsByKey(http: HttpClient, key: string, lookup: RunLookup = {}): Promise<RunJson[]> {
  const page = await listPath<RunJson>(
    http,
    '/api/v1/runs',
    { q: key, instance: lookup.instance, limit: 200 },
    true,
  );
  return page.items.filter((run) => run.external_key === key);
}

/**
 * Reads something of a run named by id, IRI or external key: `read` is asked with the reference itself when it
 * can be an id or an IRI, and, when that finds nothing (404), with the id of the one run whose external key it is.
 * No such run is a 404 LookupError; several (one key used by several deployments) a 409 with the candidates.
 */
export async function readRun<T>(
  http: HttpClient,
  ref: string,
  read: (id: string) => Promise<T>,
  lookup: RunLookup = {},
): Promise<T> {
  // A key may itself look like an id or a URL: only when nothing has that id is it read as a key.
  if (isIri(ref) || ID_SHAPE.test(ref)) {
    try {
      return await read(ref);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
    }
  }
  const matches = await runsByKey(http, ref, lookup);
  const [only] = matches;
  if (only === undefined) {
    const scope = lookup.instance === undefined ? '' : ` of deployment ${lookup.instance}`;
    throw new LookupError(404, 'not-found', `no run${scope} has the id or external key ${ref}`);
  }
  if (matches.length > 1) {
    throw new LookupError(
      409,
      'ambiguous-name',
      `external key ${ref} names ${matches.length} runs (of different deployments)`,
      matches,
    );
  }
  return read(only.id);
}

/** One run with what it used and generated. */
export function getRun(http: HttpClient, id: string): Promise<RunJson> {
  return http.request<RunJson>('GET', `/api/v1/runs/${encodeURIComponent(id)}`);
}

/** One page of the events a run was recorded from, or every page with `all`. */
export async function runEvents(
  http: HttpClient,
  id: string,
  query: Query,
  all = false,
): Promise<RunEventsPage> {
  const path = `/api/v1/runs/${encodeURIComponent(id)}/events`;
  const read = (cursor?: string) =>
    http.request<RunEventsPage>('GET', path, { query: cursor === undefined ? query : { ...query, cursor } });
  const first = await read();
  if (!all) return first;
  const { last, items } = await everyPage<RunEventJson, RunEventsPage, string>(first, read);
  return { run: last.run, items, total: Math.max(last.total, items.length) };
}

/** The last segment of an IRI: enough to tell records apart in a table. */
export const tailOf = (iri: string | undefined): string | undefined =>
  iri === undefined ? undefined : iri.replace(/[/#]+$/, '').replace(/^.*[/#]/, '');

/** The name a table gives a run: its label, else its external key, else its identifier. */
const titleOf = (run: RunJson): string | undefined => run.label ?? run.external_key ?? run.identifier;

/** Columns of `reg runs list` and of the candidates of an ambiguous key. */
export const RUN_COLUMNS: readonly Column<RunJson>[] = [
  { header: 'TITLE', value: titleOf, min: 16 },
  { header: 'KEY', value: (run) => (run.label === undefined ? undefined : run.external_key), min: 8 },
  { header: 'STATUS', value: (run) => run.status },
  { header: 'STARTED', value: (run) => run.started_at, min: 10 },
  { header: 'ENDED', value: (run) => run.ended_at, min: 10 },
  { header: 'DEPLOYMENT', value: (run) => run.instance_label ?? tailOf(run.instance), min: 10 },
  { header: 'ID', value: (run) => run.id, min: 36 },
];

/** The job an event names, as `namespace/name`. */
function jobOf(event: JsonObject): string | undefined {
  const job = event.job as { namespace?: unknown; name?: unknown } | undefined;
  if (typeof job?.name !== 'string') return undefined;
  return typeof job.namespace === 'string' ? `${job.namespace}/${job.name}` : job.name;
}

/** How many datasets an event lists under `member`. */
const countOf = (event: JsonObject, member: string): string => {
  const list = event[member];
  return Array.isArray(list) ? String(list.length) : '0';
};

/** Columns of `reg runs events`. */
export const RUN_EVENT_COLUMNS: readonly Column<RunEventJson>[] = [
  { header: 'TIME', value: (row) => row.event_time, min: 20 },
  {
    header: 'TYPE',
    value: (row) => (typeof row.event.eventType === 'string' ? row.event.eventType : row.event_type),
  },
  { header: 'JOB', value: (row) => jobOf(row.event), min: 12 },
  { header: 'INPUTS', value: (row) => countOf(row.event, 'inputs') },
  { header: 'OUTPUTS', value: (row) => countOf(row.event, 'outputs') },
  { header: 'RECEIVED', value: (row) => row.received_at, min: 20 },
  { header: 'DIGEST', value: (row) => row.digest, min: 16 },
];

/** The argument of the commands that name one run. */
export const runArgs = {
  run: Args.string({ description: 'run id, IRI or external key', required: true }),
};

/** The flag that narrows an external key to one deployment's runs. */
export const runLookupFlags = {
  instance: Flags.string({
    description: 'look an external key up among the runs of this deployment only (id or IRI)',
    aliases: ['deployment'],
  }),
};
