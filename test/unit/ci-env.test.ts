import { describe, expect, it } from 'vitest';
import { buildRun, parseArtifactSpec } from '../../src/cli/client/advertise-input.js';
import { ciRunDefaults } from '../../src/cli/client/ci-env.js';

const NOW = new Date('2026-11-01T12:00:00.000Z');

describe('run defaults from CI variables', () => {
  it('keys a GitHub Actions job by run id, job and attempt, labelled by the workflow', () => {
    expect(
      ciRunDefaults({
        GITHUB_ACTIONS: 'true',
        GITHUB_RUN_ID: '9876543210',
        GITHUB_RUN_ATTEMPT: '2',
        GITHUB_JOB: 'validate',
        GITHUB_WORKFLOW: 'Nightly validation',
      }),
    ).toEqual({
      system: 'github-actions',
      externalKey: 'gh-actions/9876543210/validate/attempt-2',
      label: 'Nightly validation',
    });
  });

  it('counts a GitHub job without an attempt number as attempt 1, and keeps slashes out of segments', () => {
    expect(ciRunDefaults({ GITHUB_RUN_ID: '42', GITHUB_JOB: 'build/test' })).toEqual({
      system: 'github-actions',
      externalKey: 'gh-actions/42/build-test/attempt-1',
    });
  });

  it('keys a GitLab CI job by pipeline and job id, with its name and start time', () => {
    expect(
      ciRunDefaults({
        GITLAB_CI: 'true',
        CI_PIPELINE_ID: '1001',
        CI_JOB_ID: '5005',
        CI_JOB_NAME: 'shacl:validate',
        CI_JOB_STARTED_AT: '2026-11-01T10:00:00Z',
      }),
    ).toEqual({
      system: 'gitlab-ci',
      externalKey: 'gitlab/1001/5005',
      label: 'shacl:validate',
      startedAt: '2026-11-01T10:00:00.000Z',
    });
  });

  it('needs both GitLab ids, ignores a malformed start time and prefers GitHub when both are set', () => {
    expect(ciRunDefaults({ CI_PIPELINE_ID: '1001' })).toBeUndefined();
    expect(ciRunDefaults({ CI_PIPELINE_ID: '1', CI_JOB_ID: '2', CI_JOB_STARTED_AT: 'soon' })).toEqual({
      system: 'gitlab-ci',
      externalKey: 'gitlab/1/2',
    });
    expect(
      ciRunDefaults({ GITHUB_RUN_ID: '7', GITHUB_JOB: 'j', CI_PIPELINE_ID: '1', CI_JOB_ID: '2' })?.system,
    ).toBe('github-actions');
  });

  it('gives nothing outside CI, or when the variables are empty', () => {
    expect(ciRunDefaults({})).toBeUndefined();
    expect(ciRunDefaults({ GITHUB_RUN_ID: ' ', CI_PIPELINE_ID: '', CI_JOB_ID: '' })).toBeUndefined();
  });
});

describe('the run an advertisement sends', () => {
  const github = { GITHUB_RUN_ID: '11', GITHUB_JOB: 'build', GITHUB_WORKFLOW: 'CI' };

  it('takes key and label from CI when neither the flags nor the file give them', () => {
    expect(buildRun(undefined, { status: 'success' }, github, NOW)).toEqual({
      run: { external_key: 'gh-actions/11/build/attempt-1', label: 'CI', status: 'success' },
      ci: 'github-actions',
    });
  });

  it('lets the flags override the file, and a given key turn the CI defaults off', () => {
    const { run, ci } = buildRun(
      { external_key: 'from-file', label: 'file label', status: 'running' },
      { 'run-key': 'from-flag', 'ended-at': 'now' },
      github,
      NOW,
    );
    expect(run).toEqual({
      external_key: 'from-flag',
      label: 'file label',
      status: 'running',
      ended_at: '2026-11-01T12:00:00.000Z',
    });
    expect(ci).toBeUndefined();
    expect(buildRun({ external_key: 'from-file' }, {}, github, NOW).run).toEqual({
      external_key: 'from-file',
    });
  });

  it('has no key outside CI without --run-key, and refuses timestamps that are not ISO 8601', () => {
    expect(buildRun(undefined, { 'started-at': '2026-11-01T10:00:00+02:00' }, {}, NOW)).toEqual({
      run: { started_at: '2026-11-01T08:00:00.000Z' },
      ci: undefined,
    });
    expect(() => buildRun(undefined, { 'started-at': 'yesterday' }, {}, NOW)).toThrow(/ISO 8601/);
  });
});

describe('--artifact name=value pairs', () => {
  it('reads known names, repeats keyword and derived-from, and keeps commas inside values', () => {
    expect(
      parseArtifactSpec(
        'title=Report, batch 1,type=shacl-validation-report,url=https://x.example/r.ttl,keyword=a,keyword=b,file=r.ttl',
      ),
    ).toEqual({
      title: 'Report, batch 1',
      type: 'shacl-validation-report',
      downloadUrl: 'https://x.example/r.ttl',
      file: 'r.ttl',
      keywords: ['a', 'b'],
      derivedFrom: [],
    });
  });

  it('refuses unknown names and a name given twice', () => {
    expect(() => parseArtifactSpec('title=a,colour=blue')).toThrow(/known name/);
    expect(() => parseArtifactSpec('title=a,title=b')).toThrow(/twice/);
  });
});
