import { AdvertiseCommand, advertiseFlags } from '../../cli/client/advertise-command.js';
import type { AdvertiseResultJson } from '../../cli/client/advertise.js';

export default class AdvertiseProduced extends AdvertiseCommand {
  static override summary = 'Advertise the artifacts a run of this deployment produced.';
  static override description = `Sends POST /api/v1/advertise/produced with a deployment's credential (a deployment token or workload identity with the advertise:produce scope): the run, created when the registry does not know it yet, and the artifacts it generated. Artifacts come from --file, --artifact (repeatable name=value pairs), --artifact-iri and the separate artifact flags, in that order. A local data file (--data-file, file= or "file" in the JSON) is read here: only its SHA-256 and byte size are sent, never its bytes.

The run key defaults to the CI job's: gh-actions/<GITHUB_RUN_ID>/<GITHUB_JOB>/attempt-<GITHUB_RUN_ATTEMPT> (label GITHUB_WORKFLOW) in GitHub Actions, gitlab/<CI_PIPELINE_ID>/<CI_JOB_ID> (label CI_JOB_NAME, start CI_JOB_STARTED_AT) in GitLab CI. With a key the call is idempotent: repeating it records nothing twice and says "already recorded", and a later call with --status replaces the run's outcome. Without one every call mints a new run (said on standard error). Network failures, 429 and 5xx are retried with backoff (--retries); without a run key only when the registry cannot have acted on the call.

Prints one line (created or already recorded, the run, the artifacts, foreign IRIs queued for resolution), or under --json the registry's answer. A refused payload exits 8 with every field at fault; members the registry ignored are printed as warnings on standard error. A credential shared by several deployments (a software token, one identity-provider client for every replica) names the calling one with --instance-key; without it the registry refuses to guess and lists them (exit 9).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --artifact "title=Validation report,type=shacl-validation-report,url=https://data.example.org/r.ttl,file=report.ttl"',
    '<%= config.bin %> <%= command.id %> --title "Coverage" --type mapping-coverage-report --data-file coverage.json --status success --ended-at now',
    '<%= config.bin %> <%= command.id %> --run-key nightly/2026-11-01 --file artifacts.json --json',
  ];
  static override flags = advertiseFlags;

  async run(): Promise<AdvertiseResultJson> {
    const { flags } = await this.parse(AdvertiseProduced);
    return this.advertise('produced', flags);
  }
}
