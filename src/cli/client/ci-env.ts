/** The CI systems whose variables give a run its key. */
export type CiSystem = 'github-actions' | 'gitlab-ci';

/** What a CI job's environment says about the run it is: a stable key, a label and maybe its start. */
export interface CiRunDefaults {
  readonly system: CiSystem;
  /** The run's `external_key`: the same for every call of one job attempt, so they all land on one run. */
  readonly externalKey: string;
  readonly label?: string;
  readonly startedAt?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const value = (env: Env, name: string): string | undefined => {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
};

/** A key segment with its slashes replaced, so a job name cannot add segments to the key. */
const segment = (text: string): string => text.replace(/\//g, '-');

/**
 * The run defaults a CI job's variables give: GitHub Actions (`GITHUB_RUN_ID`, `GITHUB_JOB`,
 * `GITHUB_RUN_ATTEMPT`, label `GITHUB_WORKFLOW`) before GitLab CI (`CI_PIPELINE_ID`, `CI_JOB_ID`, label
 * `CI_JOB_NAME`, start `CI_JOB_STARTED_AT`); undefined outside CI. A retried job attempt is a run of its own.
 */
export function ciRunDefaults(env: Env): CiRunDefaults | undefined {
  const runId = value(env, 'GITHUB_RUN_ID');
  if (runId !== undefined) {
    const job = segment(value(env, 'GITHUB_JOB') ?? 'job');
    const attempt = value(env, 'GITHUB_RUN_ATTEMPT') ?? '1';
    const label = value(env, 'GITHUB_WORKFLOW');
    return {
      system: 'github-actions',
      externalKey: `gh-actions/${segment(runId)}/${job}/attempt-${segment(attempt)}`,
      ...(label === undefined ? {} : { label }),
    };
  }
  const pipeline = value(env, 'CI_PIPELINE_ID');
  const jobId = value(env, 'CI_JOB_ID');
  if (pipeline !== undefined && jobId !== undefined) {
    const label = value(env, 'CI_JOB_NAME');
    const started = value(env, 'CI_JOB_STARTED_AT');
    return {
      system: 'gitlab-ci',
      externalKey: `gitlab/${segment(pipeline)}/${segment(jobId)}`,
      ...(label === undefined ? {} : { label }),
      ...(started !== undefined && !Number.isNaN(Date.parse(started))
        ? { startedAt: new Date(started).toISOString() }
        : {}),
    };
  }
  return undefined;
}
