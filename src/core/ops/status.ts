import { UnavailableError } from '../errors.js';
import { GRAPHS } from '../ns.js';
import { countPeers, pingOps } from '../store/ops-status.js';
import type { Principal } from '../access/principal.js';
import type { Core } from '../core.js';
import { wellKnownPeers } from '../federation/peers.js';
import { COUNTED_KINDS } from '../records/kind-registry.js';
import { coreMetrics } from './metrics.js';
import { bindStatusGauges } from './metrics-status.js';

/** Record kinds reported by metrics and counts, with their plural label (declared with each kind). */
export { COUNTED_KINDS };

/** Readiness: the graph store answers a query and the operational database answers a trivial one. */
export async function checkReadiness(core: Core): Promise<{ status: 'ready'; triples: number }> {
  if (!core.graph.ready) {
    throw new UnavailableError(`graph store not ready: ${core.graph.notReadyReason}`);
  }
  try {
    pingOps(core.db);
  } catch (error) {
    throw new UnavailableError(`operational database not usable: ${(error as Error).message}`);
  }
  try {
    await core.graph.ping();
  } catch (error) {
    throw new UnavailableError(`graph store not ready: ${(error as Error).message}`);
  }
  return { status: 'ready', triples: await core.graph.countQuads() };
}

/** The registry's own records of each counted kind, by plural label (withdrawn ones are not counted). */
async function recordCounts(core: Core): Promise<Record<string, number>> {
  const byKind = await core.graph.countByKind(GRAPHS.local);
  return Object.fromEntries(COUNTED_KINDS.map(([kind, label]) => [label, byKind.get(kind) ?? 0]));
}

/** Whether identity-provider tokens are accepted at all, and whether people can sign in with one. */
function oidcSwitches(core: Core): { enabled: boolean; humanSignin: boolean } {
  const { oidc } = core.config;
  return {
    enabled: oidc.issuer !== undefined || oidc.workloadIssuers.length > 0,
    humanSignin: oidc.issuer !== undefined && oidc.clientId !== undefined,
  };
}

/**
 * Prometheus text exposition of the registry's metrics: the gauges read from the stores at each scrape and the
 * counters and histograms the registry keeps as it works (see `RegistryMetrics`).
 */
export async function renderMetrics(core: Core): Promise<string> {
  bindStatusGauges(core);
  return coreMetrics(core).registry.metrics();
}

/** The registry's title, as its description and its announcements to peers give it. */
export function registryTitle(core: Core): string {
  return core.config.operator === undefined ? 'reg registry' : `reg registry of ${core.config.operator}`;
}

/** The registry's public self-description served at /.well-known/reg-registry. */
export function describeRegistry(core: Core): Record<string, unknown> {
  const { config } = core;
  const base = config.baseIri;
  const issuers = [config.oidc.issuer, ...config.oidc.workloadIssuers].filter(
    (iri): iri is string => iri !== undefined,
  );
  const oidc = oidcSwitches(core);
  return {
    '@context': {
      dcat: 'http://www.w3.org/ns/dcat#',
      dct: 'http://purl.org/dc/terms/',
      title: 'dct:title',
      operator: 'dct:publisher',
    },
    '@id': base,
    '@type': 'dcat:Catalog',
    title: registryTitle(core),
    operator: config.operator ?? null,
    base_iri: base,
    previous_base_iris: config.previousBaseIris,
    software: 'reg',
    software_version: core.version,
    public_read: config.publicRead,
    sparql_public: config.sparqlPublic,
    sparql_url: `${base}/sparql`,
    api_base: `${base}/api/v1`,
    capabilities: ['sparql', 'dump', 'audit', 'federation'],
    auth: {
      anonymous_read: config.publicRead,
      api_tokens: true,
      oidc: {
        enabled: oidc.enabled,
        issuer: config.oidc.issuer ?? null,
        client_id: config.oidc.clientId ?? null,
        human_signin: oidc.humanSignin,
        workload_issuers: issuers,
        audience: config.oidc.audience,
      },
    },
    // Active peers only: suggestions and dismissed registries are nobody else's business.
    peers: wellKnownPeers(core),
  };
}

/**
 * `GET /api/v1/registry`: what the registry is and how much it holds. Anyone may ask; on a private registry
 * (REG_PUBLIC_READ=false) the figures are left out for callers without a credential.
 */
export async function summariseRegistry(core: Core, principal: Principal): Promise<Record<string, unknown>> {
  const { config } = core;
  const oidc = oidcSwitches(core);
  const about = {
    '@context': { dcat: 'http://www.w3.org/ns/dcat#', dct: 'http://purl.org/dc/terms/', title: 'dct:title' },
    '@id': config.baseIri,
    '@type': 'dcat:Catalog',
    title: registryTitle(core),
    operator: config.operator ?? null,
    base_iri: config.baseIri,
    software_version: core.version,
    started_at: core.startedAt.toISOString(),
    oidc_enabled: oidc.enabled,
    human_signin: oidc.humanSignin,
  };
  if (!config.publicRead && !principal.authenticated) return about;
  return {
    ...about,
    counts: await recordCounts(core),
    peer_count: countPeers(core.db).configured,
    triples: await core.graph.countQuads(),
    stranded_citations: strandedSummary(core),
  };
}

/**
 * What the start-up check of cited vocabulary terms found: records (and record-term pairs) an edit would refuse
 * until the term is replaced, named one by one in the start-up log; null while the check has not run.
 */
function strandedSummary(core: Core): Record<string, unknown> | null {
  const tally = core.reference.stranded;
  if (tally === undefined) return null;
  return { records: tally.records, citations: tally.citations, checked_at: tally.checkedAt };
}
