import { fileURLToPath } from 'node:url';
import { principal, ROOT_PRINCIPAL } from '../src/core/access/principal.js';
import { readConfig } from '../src/core/config/index.js';
import { openCore } from '../src/core/core.js';
import { silentLogger } from '../src/core/log.js';
import { mintIri } from '../src/core/records/ids.js';
import { ARTIFACT, RUN } from '../src/core/records/activity-specs.js';
import { buildArtifactCandidate } from '../src/core/provenance/artifact-input.js';
import { createInstance } from '../src/core/catalogue/instances.js';
import { createSoftware } from '../src/core/catalogue/software.js';
import { checkRecords, commitRecords } from '../src/core/stored/write-path.js';
import { runTimed } from './children.js';
import { startHttp } from './http-start.js';
import type { Throughput } from './http-load.js';
import { note } from './progress.js';
import { BIN, regEnv } from './reg-cli.js';
import { median } from './stats.js';
import type { Workspace } from './workspace.js';
import { actOf } from '../src/core/stored/write-path.js';

const CHILD = fileURLToPath(new URL('./advertise-child.mjs', import.meta.url));
const TOKEN = 'bench-root-token-0123456789abcdef';
const CLIENTS = 50;

/** Advertising figures: throughput under 50 concurrent clients, and the in-process floor it is compared to. */
export interface AdvertiseResult {
  readonly rps: number;
  readonly failures: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  /** Median of validating a run and one artifact and committing them durably, in-process (ms). */
  readonly floorMs: number;
  readonly baselineRps: number;
}

/** Times the least an advertisement must do: validate its run and artifact, then one durable commit. */
async function measureFloor(dir: string): Promise<number> {
  const config = readConfig(regEnv(dir));
  const core = await openCore(config, silentLogger, { index: true });
  try {
    await core.graph.open();
    const software = await createSoftware(core, actOf(ROOT_PRINCIPAL), { name: 'floor' });
    const instance = (
      await createInstance(core, actOf(ROOT_PRINCIPAL), { software: software.id, label: 'floor' })
    ).iri as string;
    const actor = principal({
      credential: 'local-token',
      actorKind: 'instance-token',
      subject: instance,
      instance,
      scopes: ['advertise:produce'],
    });
    const times: number[] = [];
    for (let i = 0; i < 320; i++) {
      const now = new Date().toISOString();
      const run = mintIri(config.baseIri, RUN.path);
      const artifact = mintIri(config.baseIri, ARTIFACT.path);
      const started = performance.now();
      const runRequest = {
        spec: RUN,
        iri: run,
        candidate: { status: 'success', started_at: now, instance, created: now },
        action: 'advertise.produced',
        act: actOf(actor),
      };
      const built = buildArtifactCandidate(
        core,
        { title: 'floor', conforms_to: 'http://edamontology.org/data_0006', is_version_of: [] },
        artifact,
        {
          attributedTo: instance,
          generatedBy: run,
          now,
          prefix: '',
        },
      );
      const artifactRequest = {
        spec: ARTIFACT,
        iri: artifact,
        candidate: built.candidate,
        action: 'artifact.create',
        act: actOf(actor),
      };
      // As an advertisement does: both records validated in one batch, then one commit.
      const [runCheck, artifactCheck] = await checkRecords(core, [
        { request: runRequest },
        { request: artifactRequest },
      ]);
      if (runCheck === undefined || artifactCheck === undefined) throw new Error('records went unchecked');
      await commitRecords(
        core,
        [
          { request: runRequest, quads: runCheck.quads },
          { request: artifactRequest, quads: artifactCheck.quads },
        ],
        () => undefined,
      );
      if (i >= 20) times.push(performance.now() - started);
    }
    return median(times);
  } finally {
    await core.close();
  }
}

/** Measures advertising over HTTP with 50 concurrent clients, and the in-process floor, in the same run. */
export async function benchAdvertise(
  space: Workspace,
  seconds: number,
  baseline: Throughput,
): Promise<AdvertiseResult> {
  note('advertise: in-process floor (validate run + artifact, one durable commit)');
  const floorMs = await measureFloor(space.freshDir('advertise-floor'));
  note(`advertise: ${CLIENTS} concurrent clients for ${seconds} s`);
  const server = await startHttp(
    process.execPath,
    [BIN, 'serve'],
    regEnv(space.freshDir('advertise-http'), { REG_LOG_LEVEL: 'info' }),
    '/readyz',
  );
  try {
    const load = await advertiseLoad(server.url, seconds);
    return { ...load, floorMs, baselineRps: baseline.rps };
  } finally {
    await server.stop();
  }
}

/** Renders the advertising figures and their targets. */
export function renderAdvertise(result: AdvertiseResult): string {
  const limit = 1000 / result.floorMs;
  const ofLimit = result.rps / limit;
  return [
    'Advertising (50 concurrent CI clients, one artifact each)',
    `  POST /api/v1/advertise/produced        ${Math.round(result.rps).toLocaleString('en')} calls/s (${result.failures} failed), p50 ${result.p50Ms.toFixed(1)} ms, p95 ${result.p95Ms.toFixed(1)} ms`,
    `  ratio to the bare Hono route           ${(result.rps / result.baselineRps).toFixed(3)}×`,
    `  floor: validate run + artifact + commit ${result.floorMs.toFixed(2)} ms → limit ${Math.round(limit).toLocaleString('en')} calls/s; reached ${ofLimit.toFixed(2)}×`,
    '',
    'Advertising targets',
    `  ${result.rps >= 800 ? 'PASS' : 'FAIL'}    at least 800 durable advertise calls/s: ${Math.round(result.rps)}`,
    `  ${ofLimit >= 0.7 ? 'PASS' : 'FAIL'}    at least 0.7x the validation + commit limit: ${ofLimit.toFixed(2)}x`,
  ].join('\n');
}

/** Advertising by 50 concurrent clients, each call one run and one artifact, as throughput and latency. */
export interface AdvertiseLoad {
  readonly rps: number;
  readonly failures: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
}

/**
 * Registers a software with a deployment on the registry at `url` (with the benchmark's root token) and has 50
 * clients advertise as that deployment for `seconds`.
 */
export async function advertiseLoad(url: string, seconds: number): Promise<AdvertiseLoad> {
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) =>
    (await (
      await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
    ).json()) as Record<string, string>;
  const software = await post('/api/v1/software', { name: 'advertiser' });
  const instance = await post('/api/v1/instances', { software: software.id, label: 'ci' });
  const token = (await post(`/api/v1/instances/${instance.id}/tokens`, {})).token ?? '';
  const run = await runTimed(process.execPath, [CHILD, url, token, String(seconds), String(CLIENTS)]);
  if (run.code !== 0) throw new Error(`advertising load failed: ${run.stderr}`);
  const result = JSON.parse(run.stdout) as {
    requests: number;
    failures: number;
    ms: number;
    p50: number;
    p95: number;
  };
  return {
    rps: (result.requests * 1000) / result.ms,
    failures: result.failures,
    p50Ms: result.p50,
    p95Ms: result.p95,
  };
}
