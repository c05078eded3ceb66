import { randomUUID } from 'node:crypto';
import { Flags } from '@oclif/core';
import type { AdvertiseAnswer, TypeJson } from '../../api/index.js';
import { RUN_STATUSES } from '../../core/records/activity-specs.js';
import {
  ARTIFACT_SPEC_KEYS,
  artifactOf,
  buildRun,
  draftFromFlags,
  parseArtifactSpec,
  readAdvertiseFile,
  withFileDigest,
  type ArtifactDraft,
  type ArtifactFlags,
  type RunFlags,
  type TypeResolver,
} from './advertise-input.js';
import {
  describeAdvertisement,
  describeDryRun,
  isTemporaryFailure,
  sendAdvertisement,
  type AdvertiseRole,
} from './advertise.js';
import { withCiToken } from './ci-token.js';
import { spoolCall, type SpooledCall } from './spool.js';
import { ClientCommand } from './client-command.js';
import { ApiError } from './errors.js';
import { AVAILABILITY } from './fields.js';
import { HttpClient, type JsonObject } from './http.js';
import { resolveProfile, type ProfileFlags } from './profile.js';
import { RegistryClient } from './registry.js';

const RUN = 'RUN';
const ARTIFACT = 'ARTIFACT (one, from separate flags)';

/** The flags of `reg advertise produced` and `reg advertise consumed`. */
export const advertiseFlags = {
  file: Flags.string({
    char: 'f',
    description:
      'JSON file (- for standard input): the API\'s artifacts list, or a whole {"run", "artifacts"} body; an artifact\'s "file" member names a local data file to digest',
  }),
  artifact: Flags.string({
    description: `an artifact as name=value pairs separated by commas (repeatable); names: ${ARTIFACT_SPEC_KEYS.join(', ')}`,
    multiple: true,
  }),
  'artifact-iri': Flags.string({
    description: 'an artifact already registered, here or at another registry, by IRI (repeatable)',
    multiple: true,
  }),
  'run-key': Flags.string({
    description: "the run's external key (default: from GitHub Actions or GitLab CI variables)",
    helpGroup: RUN,
  }),
  label: Flags.string({
    description: "the run's label (default: the CI workflow or job name)",
    helpGroup: RUN,
  }),
  status: Flags.string({
    description: "the run's status (a new run without one is recorded as success)",
    options: [...RUN_STATUSES],
    helpGroup: RUN,
  }),
  'started-at': Flags.string({ description: 'when the run started: ISO 8601 or "now"', helpGroup: RUN }),
  'ended-at': Flags.string({ description: 'when the run ended: ISO 8601 or "now"', helpGroup: RUN }),
  title: Flags.string({ description: 'title (default: the data file name)', helpGroup: ARTIFACT }),
  type: Flags.string({
    description: 'artifact type: IRI, or slug of a type minted here',
    helpGroup: ARTIFACT,
  }),
  description: Flags.string({ description: 'description', helpGroup: ARTIFACT }),
  license: Flags.string({
    description: 'licence: SPDX id such as CC-BY-4.0, or an IRI',
    helpGroup: ARTIFACT,
  }),
  'download-url': Flags.string({ description: 'URL the bytes can be downloaded from', helpGroup: ARTIFACT }),
  'access-url': Flags.string({ description: 'URL of a page or service giving access', helpGroup: ARTIFACT }),
  'data-file': Flags.string({
    description: 'local data file: its SHA-256 and byte size are sent, never its bytes',
    helpGroup: ARTIFACT,
  }),
  'media-type': Flags.string({ description: 'media type of the bytes', helpGroup: ARTIFACT }),
  availability: Flags.string({
    description: 'how openly the bytes are available (default public; metadata-only for a file with no URL)',
    options: [...AVAILABILITY],
    helpGroup: ARTIFACT,
  }),
  keyword: Flags.string({ description: 'keyword (repeatable)', multiple: true, helpGroup: ARTIFACT }),
  'derived-from': Flags.string({
    description: 'IRI of an artifact it was derived from, here or elsewhere (repeatable)',
    multiple: true,
    helpGroup: ARTIFACT,
  }),
  key: Flags.string({ description: "the artifact's own external key", helpGroup: ARTIFACT }),
  'version-of': Flags.string({
    description:
      'IRI of an artifact here this one is the next version of (it joins its series and revises it)',
    helpGroup: ARTIFACT,
  }),
  'instance-key': Flags.string({
    description:
      'the instance_key of the deployment to advertise as, when the credential is shared by several deployments (a software token, one identity-provider client for every replica)',
    env: 'REG_INSTANCE_KEY',
  }),
  retries: Flags.integer({
    description: 'retries on network failures, 429 and 5xx, with exponential backoff',
    min: 0,
    max: 10,
    default: 4,
  }),
  spool: Flags.string({
    description:
      'directory to keep the call in when the registry is unreachable or fails (after the retries): the command then exits 0 and reg advertise flush sends it later',
    env: 'REG_SPOOL_DIR',
    exclusive: ['dry-run'],
  }),
  'dry-run': Flags.boolean({
    description:
      'have the registry check and map the call as it would a real one, and print the records it would write (JSON and Turtle); nothing is written',
  }),
};

/** The parsed advertise flags, connection flags included. */
export interface AdvertiseFlagValues extends ProfileFlags, RunFlags, ArtifactFlags {
  readonly file?: string | undefined;
  readonly artifact?: string[] | undefined;
  readonly 'artifact-iri'?: string[] | undefined;
  readonly 'instance-key'?: string | undefined;
  readonly retries: number;
  readonly spool?: string | undefined;
  readonly 'dry-run'?: boolean | undefined;
}

/** What `reg advertise` returns: the registry's answer, or where the call was spooled when it could not be sent. */
export type AdvertiseOutcome = AdvertiseAnswer | SpooledAnswer;

/** The result of a call the registry could not take, kept in the spool. */
export interface SpooledAnswer {
  readonly spooled: true;
  readonly file: string;
  readonly reason: string;
}

/**
 * The base of `reg advertise produced|consumed`: builds the body from `--file`, `--artifact`, `--artifact-iri`
 * and the separate artifact flags (in that order), with the run from the flags and the CI variables; digests
 * data files locally; sends it with retries; prints one line, or the registry's answer under --json.
 */
export abstract class AdvertiseCommand extends ClientCommand {
  protected async advertise(role: AdvertiseRole, flags: AdvertiseFlagValues): Promise<AdvertiseOutcome> {
    const profile = await withCiToken(await resolveProfile(flags, process.env), process.env);
    const spool = flags.spool;
    // With a spool, a type the registry cannot be asked about now is looked up when the call is flushed.
    const unresolved = new Map<string, string>();
    const body = await advertisementBody(
      flags,
      typeResolver(new RegistryClient(new HttpClient(profile)), spool === undefined ? undefined : unresolved),
    );
    setRunKey(body.run, body.ci, spool !== undefined);
    const keep = (reason: string): SpooledAnswer =>
      this.spooled(spool ?? '', {
        role,
        endpoint: `/api/v1/advertise/${role}`,
        registry: profile.url,
        run_key: String(body.run.external_key),
        ...(flags['instance-key'] === undefined ? {} : { instance_key: flags['instance-key'] }),
        ...(unresolved.size === 0 ? {} : { type_slugs: [...unresolved.keys()] }),
        body: { run: body.run, artifacts: body.artifacts },
        spooled_at: new Date().toISOString(),
        reason,
      });
    const [slug, reason] = [...unresolved][0] ?? [];
    if (slug !== undefined) return keep(`the type ${slug} could not be looked up: ${reason ?? ''}`);
    let result: AdvertiseAnswer;
    try {
      result = await sendAdvertisement(
        profile,
        role,
        { run: body.run, artifacts: body.artifacts },
        {
          retries: flags.retries,
          instanceKey: flags['instance-key'],
          dryRun: flags['dry-run'] === true,
          onRetry: (attempt, delay, why) =>
            note(`${why}; retry ${attempt} of ${flags.retries} in ${(delay / 1000).toFixed(1)} s`),
        },
      );
    } catch (error) {
      if (spool === undefined || !isTemporaryFailure(error)) throw error;
      return keep((error as Error).message);
    }
    this.log(flags['dry-run'] === true ? describeDryRun(role, result) : describeAdvertisement(role, result));
    return result;
  }

  /** Writes the call to the spool and says so on standard error (also under --json). */
  private spooled(dir: string, call: Omit<SpooledCall, 'format'>): SpooledAnswer {
    const file = spoolCall(dir, call);
    note(`warning: ${call.reason}; the call was spooled to ${file}: send it with reg advertise flush`);
    this.log(`spooled: ${file}`);
    return { spooled: true, file, reason: call.reason };
  }
}

/** The run and the artifacts of the call, from the flags and the CI variables, with data files digested. */
async function advertisementBody(
  flags: AdvertiseFlagValues,
  resolveType: TypeResolver,
): Promise<{ run: JsonObject; ci: string | undefined; artifacts: JsonObject[] }> {
  const file = flags.file === undefined ? undefined : readAdvertiseFile(flags.file);
  const { run, ci } = buildRun(file?.run, flags, process.env, new Date());
  const drafts: ArtifactDraft[] = [
    ...(flags.artifact ?? []).map(parseArtifactSpec),
    ...(flags['artifact-iri'] ?? []).map((iri) => ({ iri, keywords: [], derivedFrom: [] })),
  ];
  const separate = draftFromFlags(flags);
  if (separate !== undefined) drafts.push(separate);
  const artifacts: JsonObject[] = [
    ...(await Promise.all((file?.artifacts ?? []).map(withFileDigest))),
    ...(await Promise.all(drafts.map((draft) => artifactOf(draft, resolveType)))),
  ];
  return { run, ci, artifacts };
}

/**
 * Says where the run key comes from, on standard error even under --json (a CI log should say when calls cannot
 * be matched up). A call that may be spooled gets a key when it has none: only a key makes a replay record once.
 */
function setRunKey(run: JsonObject, ci: string | undefined, spooling: boolean): void {
  if (spooling && run.external_key === undefined) {
    const key = `spool/${randomUUID()}`;
    run.external_key = key;
    note(`no run key: the call is given the key ${key} so that a spooled copy is recorded once`);
  } else if (run.external_key === undefined) {
    note('no run key (--run-key, or the GitHub Actions / GitLab CI variables): every call mints a new run');
  } else if (ci !== undefined && typeof run.external_key === 'string') {
    note(`run key ${run.external_key} from the ${ci} variables`);
  }
}

function note(text: string): void {
  process.stderr.write(`reg: ${text}\n`);
}

/**
 * Resolves type slugs through `GET /api/v1/types/<slug>`, once per slug; IRIs are kept. With `unresolved`, a
 * slug the registry cannot be asked about now (unreachable, 5xx) is kept as it is and added there, with why.
 */
function typeResolver(registry: RegistryClient, unresolved?: Map<string, string>): TypeResolver {
  const cache = new Map<string, Promise<string>>();
  return (slugOrIri) => {
    if (slugOrIri.includes(':')) return Promise.resolve(slugOrIri);
    let found = cache.get(slugOrIri);
    if (found === undefined) {
      found = registry.get<TypeJson>('types', slugOrIri).then(
        (type) => type.iri,
        (error: unknown) => {
          if (unresolved !== undefined && isTemporaryFailure(error)) {
            unresolved.set(slugOrIri, (error as Error).message);
            return slugOrIri;
          }
          if (!(error instanceof ApiError) || error.status !== 404) throw error;
          throw new ApiError(404, error.code, error.title, `type "${slugOrIri}": ${error.detail}`, {
            hints: ['list the types with reg types list, or give the type by IRI'],
          });
        },
      );
      cache.set(slugOrIri, found);
    }
    return found;
  };
}
