import {
  AdvertiseCommand,
  advertiseFlags,
  type AdvertiseOutcome,
} from '../../cli/client/advertise-command.js';

export default class AdvertiseProduced extends AdvertiseCommand {
  static override summary = 'Advertise the artifacts a run of this deployment produced.';
  static override description = `Sends POST /api/v1/advertise/produced with a deployment's credential (a deployment token or workload identity with the advertise:produce scope): the run, created when the registry does not know it yet, and the artifacts it generated. Artifacts come from --file, --artifact (repeatable name=value pairs), --artifact-iri and the separate artifact flags, in that order. A local data file (--data-file, file= or "file" in the JSON) is read here: only its SHA-256 and byte size are sent, never its bytes.

The run key defaults to the CI job's: gh-actions/<GITHUB_RUN_ID>/<GITHUB_JOB>/attempt-<GITHUB_RUN_ATTEMPT> (label GITHUB_WORKFLOW) in GitHub Actions, gitlab/<CI_PIPELINE_ID>/<CI_JOB_ID> (label CI_JOB_NAME, start CI_JOB_STARTED_AT) in GitLab CI. With a key the call is idempotent: repeating it records nothing twice and says "already recorded", and a later call with --status replaces the run's outcome. Without one every call mints a new run (said on standard error). Network failures, 429 and 5xx are retried with backoff (--retries); without a run key only when the registry cannot have acted on the call.

Prints one line (created or already recorded, the run, the artifacts, foreign IRIs queued for resolution), or under --json the registry's answer. A refused payload exits 8 with every field at fault; members the registry ignored are printed as warnings on standard error. A credential shared by several deployments (a software token, one identity-provider client for every replica) names the calling one with --instance-key; without it the registry refuses to guess and lists them (exit 9).

In GitHub Actions and GitLab CI no stored token is needed: with no --token, --token-file, REG_TOKEN, REG_TOKEN_FILE or profile token, the job's OIDC identity token is used, asked of GitHub's token endpoint (ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN, present when the workflow has "permissions: id-token: write") with the registry's base IRI as audience, or read from the GitLab CI variable an id_tokens: entry sets (REG_ID_TOKEN_VAR names it; default REG_ID_TOKEN). Standard error says which token is used, never the token. A token that cannot be had exits 14.

With --spool <dir> (or REG_SPOOL_DIR) a call the registry cannot take now (unreachable, 5xx or 429 after the retries) is written to that directory durably, with its endpoint, body and run key, and the command exits 0 with a warning on standard error (under --json {"spooled": true, "file", "reason"}); reg advertise flush sends the spooled calls later. A refusal (4xx) is never spooled. A spooled call needs a run key to be recorded once: without one, a key is made up for it.

With --dry-run the registry checks and maps the call exactly as it would a real one, the credential's rights included, and answers what it would write, without writing anything: the records as JSON (under --json, in dry_run.records) and as Turtle (printed after the summary line; dry_run.turtle). A refused payload exits 8 as a real call would.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --artifact "title=Validation report,type=shacl-validation-report,url=https://data.example.org/r.ttl,file=report.ttl"',
    '<%= config.bin %> <%= command.id %> --title "Coverage" --type mapping-coverage-report --data-file coverage.json --status success --ended-at now',
    '<%= config.bin %> <%= command.id %> --run-key nightly/2026-11-01 --file artifacts.json --json',
    '<%= config.bin %> <%= command.id %> --file artifacts.json --spool .reg-spool',
    '<%= config.bin %> <%= command.id %> --file artifacts.json --dry-run',
  ];
  static override flags = advertiseFlags;

  async run(): Promise<AdvertiseOutcome> {
    const { flags } = await this.parse(AdvertiseProduced);
    return this.advertise('produced', flags);
  }
}
