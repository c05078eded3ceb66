/**
 * Health probes of deployments. A deployment with a `health_endpoint` is up when a GET of it answers 2xx; one
 * with only an `endpoint_url` is up when a GET of that answers anything below 500 (something is listening). The
 * outcome is written on the record as registry fields (`health` up or down, `health_detail`, `health_checked_at`)
 * through the write path; a deployment without an endpoint is never probed and reads `unknown`. Private and
 * loopback addresses are probed like any other: deployments are registered by people the registry trusts.
 */
import { principal } from '../access/principal.js';
import { CONNECT_TIMEOUT_MS, HttpNetworkError, httpRequest, HttpTimeoutError } from '../net/http-client.js';
import { DCAT, GRAPHS, REG, XSD } from '../ns.js';
import type { JsonObject } from '../records/mapper.js';
import { INSTANCE } from '../records/specs.js';
import { appendAudit } from '../store/audit.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { FACT } from '../store/lineage/lineage-facts.js';
import { recordVersion } from '../store/health.js';
import type { Core } from '../core.js';
import { readStored } from '../stored/records.js';
import {
  checkRecord,
  commitRecords,
  refuseViolations,
  type RecordWriteRequest,
} from '../stored/write-path.js';

/** Deployments probed per pass, and at once. */
export const HEALTH_PASS = { batch: 20, parallel: 5 } as const;

/** The prober's identity in the audit log. */
const PROBER = principal({
  credential: 'root-token',
  actorKind: 'system',
  subject: 'urn:reg:health-probe',
  displayName: 'health probe',
});

/** A probe's verdict and the sentence explaining it. */
export interface ProbeVerdict {
  readonly health: 'up' | 'down' | 'unknown';
  readonly detail: string;
}

/** Which URL of a deployment is probed, and by which rule. */
export interface ProbeTarget {
  readonly url: string;
  /** `health`: must answer 2xx; `endpoint`: any answer below 500 is up. */
  readonly rule: 'health' | 'endpoint';
}

/** The probe target of a deployment record: its health endpoint, else its endpoint; none without either. */
export function probeTarget(json: JsonObject): ProbeTarget | undefined {
  if (typeof json.health_endpoint === 'string') return { url: json.health_endpoint, rule: 'health' };
  if (typeof json.endpoint_url === 'string') return { url: json.endpoint_url, rule: 'endpoint' };
  return undefined;
}

/** System error codes that mean nothing answered at the endpoint's address. */
const UNREACHABLE = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET'];

/** GETs the target once (redirects are answers, never followed; the body is not read) and judges the answer. */
export async function probe(
  target: ProbeTarget,
  timeoutMs: number,
  userAgent: string,
): Promise<ProbeVerdict> {
  if (!/^https?:\/\//i.test(target.url))
    return { health: 'unknown', detail: 'not probed: only http(s) endpoints are probed' };
  let status: number;
  try {
    const response = await httpRequest(target.url, {
      headers: { 'user-agent': userAgent, accept: '*/*' },
      addresses: 'any',
      timeoutMs,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      maxBytes: 0,
      read: () => false,
    });
    status = response.status;
  } catch (error) {
    if (error instanceof HttpTimeoutError) return { health: 'down', detail: 'did not answer in time' };
    const code = error instanceof HttpNetworkError ? error.code : undefined;
    return {
      health: 'down',
      detail: code !== undefined && UNREACHABLE.includes(code) ? 'could not connect' : 'request failed',
    };
  }
  if (target.rule === 'health') {
    return status >= 200 && status < 300
      ? { health: 'up', detail: `responded ${status}` }
      : {
          health: 'down',
          detail: `health endpoint responded ${status}, and a health endpoint must answer 2xx`,
        };
  }
  if (status >= 500) return { health: 'down', detail: `responded ${status}, a server error` };
  if (status >= 400)
    return { health: 'up', detail: `responded ${status} at the endpoint root — listening, so counted as up` };
  return { health: 'up', detail: `responded ${status}` };
}

/** An SQL condition that the deployment `r` has an endpoint to probe, in the lineage index. */
const HAS_ENDPOINT = `EXISTS (SELECT 1 FROM lineage_node e WHERE e.iri = r.subject AND e.graph = r.graph
  AND e.p IN (${FACT.healthEndpoint}, ${FACT.endpoint}))`;
/** The live deployments of this registry, from the table of records, with when each was last probed. */
const deployments = (core: Core): string => `FROM ${core.graph.recordTables.records} r
  LEFT JOIN lineage_node c ON c.iri = r.subject AND c.graph = r.graph AND c.p = ${FACT.healthCheckedAt}
  WHERE r.kind = 'instance' AND r.graph = ?`;

/** Deployments with an endpoint whose last probe is older than `cutoff` (never-probed ones first). */
async function dueForProbe(core: Core, cutoff: string, limit: number): Promise<string[]> {
  if (lineageIndexReady(core.db))
    return core.db
      .prepare(
        `SELECT r.subject ${deployments(core)} AND ${HAS_ENDPOINT} AND (c.value IS NULL OR c.value < ?)
         ORDER BY c.value, r.subject LIMIT ?`,
      )
      .pluck()
      .all(GRAPHS.local, cutoff, limit) as string[];
  const rows = await core.graph.select(
    `SELECT ?s ?checked WHERE {
       GRAPH <${GRAPHS.local}> { ?s a <${REG('Instance')}> . FILTER NOT EXISTS { ?s <${REG('tombstoned')}> true }
         OPTIONAL { ?s <${REG('healthEndpoint')}> ?he } OPTIONAL { ?s <${DCAT('endpointURL')}> ?ep }
         OPTIONAL { ?s <${REG('healthCheckedAt')}> ?checked } }
       FILTER((BOUND(?he) || BOUND(?ep)) && (!BOUND(?checked) || ?checked < "${cutoff}"^^<${XSD('dateTime')}>)) }
     ORDER BY ?checked STR(?s) LIMIT ${limit}`,
  );
  return rows.map((row) => row.s?.value ?? '').filter((iri) => iri !== '');
}

/** Deployments probed before whose endpoints are gone: their old verdict no longer means anything. */
async function probedWithoutEndpoint(core: Core, limit: number): Promise<string[]> {
  if (lineageIndexReady(core.db))
    return core.db
      .prepare(
        `SELECT r.subject ${deployments(core)} AND c.value IS NOT NULL AND NOT ${HAS_ENDPOINT}
         ORDER BY r.subject LIMIT ?`,
      )
      .pluck()
      .all(GRAPHS.local, limit) as string[];
  const rows = await core.graph.select(
    `SELECT ?s WHERE { GRAPH <${GRAPHS.local}> { ?s a <${REG('Instance')}> ; <${REG('healthCheckedAt')}> ?checked .
       FILTER NOT EXISTS { ?s <${REG('tombstoned')}> true } FILTER NOT EXISTS { ?s <${REG('healthEndpoint')}> ?he }
       FILTER NOT EXISTS { ?s <${DCAT('endpointURL')}> ?ep } } } ORDER BY STR(?s) LIMIT ${limit}`,
  );
  return rows.map((row) => row.s?.value ?? '').filter((iri) => iri !== '');
}

/** A record changed between the probe's read and its write; it is probed again on the next pass. */
class ChangedMeanwhile extends Error {}

/**
 * Writes a verdict on a deployment, unless the record changed since `read` (an edit is never overwritten with an
 * older copy). Audited only when the health value changes, so the log records transitions, not every probe.
 */
async function writeVerdict(
  core: Core,
  iri: string,
  verdict: ProbeVerdict,
  at: string,
  target?: ProbeTarget,
) {
  const version = recordVersion(core.db, GRAPHS.local, iri);
  const stored = await readStored(core, INSTANCE, iri);
  if (stored === undefined || stored.tombstoned) return false;
  const current = probeTarget(stored.json);
  if (current?.url !== target?.url || current?.rule !== target?.rule) return false;
  const { health: _h, health_detail: _d, health_checked_at: _c, ...rest } = stored.json;
  const candidate: JsonObject =
    target === undefined
      ? { ...rest, health: verdict.health, health_detail: verdict.detail }
      : { ...rest, health: verdict.health, health_detail: verdict.detail, health_checked_at: at };
  const request: RecordWriteRequest = {
    spec: INSTANCE,
    iri,
    candidate,
    action: 'instance.health',
    act: { principal: PROBER, now: at },
    validate: false,
  };
  const { quads, results } = await checkRecord(core, request);
  refuseViolations(results);
  const before = typeof stored.json.health === 'string' ? stored.json.health : 'unknown';
  try {
    await commitRecords(
      core,
      [{ request, quads }],
      () => {
        // The embedded store numbers record versions; an external one keeps no such row, and is not checked.
        const now = recordVersion(core.db, GRAPHS.local, iri);
        if (version !== undefined && now !== version && now !== version + 1) throw new ChangedMeanwhile();
        if (before !== verdict.health)
          appendAudit(core.db, {
            actor: PROBER.subject,
            actorKind: PROBER.actorKind,
            action: 'instance.health',
            target: iri,
            detail: `${before} → ${verdict.health}: ${verdict.detail}`,
          });
      },
      false,
    );
  } catch (error) {
    if (error instanceof ChangedMeanwhile) return false;
    throw error;
  }
  return true;
}

/** What one probing pass did. */
export interface ProbePass {
  readonly probed: number;
  readonly up: number;
  readonly down: number;
  /** Deployments whose endpoints were removed, set back to `unknown`. */
  readonly cleared: number;
}

/**
 * One probing pass: probes the deployments whose last probe is older than `REG_HEALTH_CHECK_INTERVAL` (at most
 * 20, five at a time, each within `REG_HEALTH_CHECK_TIMEOUT`) and writes each verdict. Exported for tests, which
 * call it with their own clock instead of waiting for the timer.
 */
export async function probeDue(core: Core, now: Date = new Date()): Promise<ProbePass> {
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - core.config.healthCheckIntervalMs).toISOString();
  const due = await dueForProbe(core, cutoff, HEALTH_PASS.batch);
  const verdicts: ProbeVerdict[] = [];
  for (let start = 0; start < due.length; start += HEALTH_PASS.parallel) {
    const slice = due.slice(start, start + HEALTH_PASS.parallel);
    const done = await Promise.all(
      slice.map(async (iri) => {
        const stored = await readStored(core, INSTANCE, iri);
        const target = stored === undefined ? undefined : probeTarget(stored.json);
        if (target === undefined) return undefined;
        const verdict = await probe(target, core.config.healthCheckTimeoutMs, `reg/${core.version}`);
        return (await writeVerdict(core, iri, verdict, at, target)) ? verdict : undefined;
      }),
    );
    verdicts.push(...done.filter((verdict): verdict is ProbeVerdict => verdict !== undefined));
  }
  let cleared = 0;
  for (const iri of await probedWithoutEndpoint(core, HEALTH_PASS.batch)) {
    const verdict: ProbeVerdict = {
      health: 'unknown',
      detail: 'not probed: no endpoint_url or health_endpoint',
    };
    if (await writeVerdict(core, iri, verdict, at)) cleared++;
  }
  return {
    probed: verdicts.length,
    up: verdicts.filter((verdict) => verdict.health === 'up').length,
    down: verdicts.filter((verdict) => verdict.health === 'down').length,
    cleared,
  };
}
