import type { JWTPayload } from 'jose';
import type { JsonObject } from '../records/mapper.js';
import { claimText } from './publisher-patterns.js';
import type { Principal, WorkloadSource } from './principal.js';

/** A repository or project path: names of letters, digits, `.`, `_` and `-`, joined by `/`. */
const REPOSITORY_PATH = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)+$/;
const NUMBER = /^[0-9]+$/;

/**
 * What a workload token that matched the trusted publisher `binding` says about the build acting: the claims the
 * binding names with their values, and the run fields its CI system's claims give. GitHub Actions tokens name the
 * `repository`, `ref`, `sha` and the run (`run_id`, `run_attempt`); GitLab CI tokens the `project_path`, `ref`,
 * `sha` and `pipeline_id`. The run's page is on the web host of the issuer.
 */
export function workloadSourceOf(
  issuer: string,
  binding: string,
  matched: Readonly<Record<string, string>>,
  claims: JWTPayload,
): WorkloadSource {
  const text = (name: string): string | undefined => {
    const value = claimText(claims, name);
    return value === undefined || value === '' ? undefined : value;
  };
  const gitlab = text('project_path');
  const repository = gitlab ?? text('repository');
  const run: Record<string, string> = {};
  if (repository !== undefined) run.source_repository = repository;
  const ref = text('ref');
  if (ref !== undefined) run.source_ref = ref;
  const sha = text('sha');
  if (sha !== undefined) run.source_commit = sha;
  const url =
    gitlab === undefined
      ? githubRunUrl(issuer, repository, text('run_id'), text('run_attempt'))
      : gitlabPipelineUrl(issuer, gitlab, text('pipeline_id'));
  if (url !== undefined) run.build_url = url;
  return { binding, claims: { ...matched }, run };
}

/** `https://github.com/<repository>/actions/runs/<id>[/attempts/<n>]`, on the web host of the token's issuer. */
function githubRunUrl(
  issuer: string,
  repository: string | undefined,
  runId: string | undefined,
  attempt: string | undefined,
): string | undefined {
  if (repository === undefined || !REPOSITORY_PATH.test(repository) || runId === undefined) return undefined;
  if (!NUMBER.test(runId)) return undefined;
  const web = githubWebOrigin(issuer);
  if (web === undefined) return undefined;
  const attempts = attempt !== undefined && NUMBER.test(attempt) ? `/attempts/${attempt}` : '';
  return `${web}/${repository}/actions/runs/${runId}${attempts}`;
}

/**
 * The web origin of a GitHub token issuer: `token.actions.githubusercontent.com` serves github.com,
 * `token.actions.<name>.ghe.com` serves `<name>.ghe.com`, and a GitHub Enterprise Server's issuer
 * (`https://<host>/_services/token`) is on its own host.
 */
function githubWebOrigin(issuer: string): string | undefined {
  const url = parsed(issuer);
  if (url === undefined) return undefined;
  const host = url.host.replace(/^token\.actions\./, '');
  return `${url.protocol}//${host === 'githubusercontent.com' ? 'github.com' : host}`;
}

/** `https://<gitlab host>/<project_path>/-/pipelines/<id>`: a GitLab issuer is the instance's own URL. */
function gitlabPipelineUrl(
  issuer: string,
  project: string,
  pipeline: string | undefined,
): string | undefined {
  if (!REPOSITORY_PATH.test(project) || pipeline === undefined || !NUMBER.test(pipeline)) return undefined;
  const url = parsed(issuer);
  if (url === undefined) return undefined;
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  return `${base}/${project}/-/pipelines/${pipeline}`;
}

function parsed(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** The run fields a principal acting through a trusted publisher gives a run it creates (none for others). */
export function workloadRunFields(principal: Principal): JsonObject {
  return principal.workload === null ? {} : { ...principal.workload.run };
}

/**
 * The words an audit entry of a principal acting through a trusted publisher adds: the binding, the claims it
 * matched and the build's page. Empty for any other principal.
 */
export function workloadAuditNote(principal: Principal): string {
  const source = principal.workload;
  if (source === null) return '';
  const claims = Object.entries(source.claims)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ');
  const build = source.run.build_url === undefined ? '' : `; build ${source.run.build_url}`;
  const commit = source.run.source_commit === undefined ? '' : `; commit ${source.run.source_commit}`;
  return `; trusted publisher ${source.binding} (${claims})${commit}${build}`;
}
