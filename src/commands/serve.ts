import { openCore } from '../core/core.js';
import { firstAdminToken, hasAdminToken } from '../core/access/admin-token.js';
import { ForgeScheduler } from '../core/workers/forge-scheduler.js';
import { startFederationWorkers } from '../core/workers/federation-workers.js';
import { WebhookWorker } from '../core/workers/webhook-worker.js';
import { startServer } from '../http/server.js';
import { stopTracing } from '../http/observe/tracing.js';
import { RegCommand } from '../cli/base-command.js';

/** The result of a serve run, printed under --json when the server stops. */
export interface ServeResult {
  readonly url: string;
  readonly stopped_by: string;
}

export default class Serve extends RegCommand {
  static override summary = 'Serve the HTTP API, SPARQL endpoint and web page.';
  static override description = `Opens the data directory (taking its single-writer lock), loads the reference bundles and the query index, and serves until SIGTERM or SIGINT, then finishes requests in flight and exits 0.

/healthz answers as soon as the port is bound; /readyz once the query index is loaded.

A registry that was never administered (no administrator token created, no API token issued) and has no REG_ROOT_TOKEN creates an administrator token at start and shows it once on stderr, with the commands that use it; only its hash is kept. A lost one is replaced by setting REG_ROOT_TOKEN.

Browsers get the web page (built into the package, or the one in REG_STATIC_DIR) at the record IRIs and at every path outside the API; other clients keep content negotiation. AI agents find the MCP server at /mcp (its OAuth protected-resource metadata at /.well-known/oauth-protected-resource/mcp) and a guide at /llms.txt.

Requests are rate limited per class (read, write, sparql, federated, mcp, outbound) and caller: a verified principal, else the client address (REG_RATE_LIMIT_<CLASS>, REG_RATE_LIMIT_<CLASS>_ANONYMOUS, REG_RATE_LIMITS=off; administrators and probes are never limited). Pages of any origin may read anonymously; only the origins in REG_CORS_ORIGINS may call with a credential or write.

Unless REG_SUBSCRIPTION_WEBHOOKS is false, it also runs the webhook delivery worker, which stops (after the attempts under way) before the server does. The scheduled sync of software records connected to a code forge runs too (each record every REG_FORGE_POLL_INTERVAL, requests to a forge paced 2 s apart with a token and 120 s without); it stops at once on shutdown.

The health prober probes the endpoints of deployments every REG_HEALTH_CHECK_INTERVAL and, unless REG_PEER_RESOLVE_ENABLED is false, the peer resolver fetches queued foreign IRIs from the peers that hold them every REG_PEER_RESOLVE_TICK; both finish the pass under way on shutdown.

Once the index is loaded it logs, as one warning per record and term, every record that cites a vocabulary term the registry does not hold (retired, dropped from every bundle, or of a class the field does not accept), with the JSON field; nothing is changed, and an edit of such a record is refused until the term is replaced. /metrics reports the count as reg_stranded_records.

Every REG_* setting is read from the environment; see reg-config(1).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    'REG_BASE_IRI=https://registry.example.org REG_DATA_DIR=/data <%= config.bin %> <%= command.id %>',
    'REG_LISTEN=0.0.0.0:8080 REG_BASE_IRI=https://registry.example.org REG_LOG_LEVEL=debug <%= config.bin %> <%= command.id %>',
  ];

  async run(): Promise<ServeResult> {
    await this.parse(Serve);
    // Listened for from the first moment: a stop requested while the data directory and index are still opening
    // (a container stopped right after it started) shuts the registry down as soon as it is up, instead of
    // killing it with the default handler midway through opening.
    const stopped = new Promise<string>((resolve) => {
      process.once('SIGTERM', () => resolve('SIGTERM'));
      process.once('SIGINT', () => resolve('SIGINT'));
    });
    const config = this.loadConfig();
    const log = this.logger(config);
    for (const name of config.unknownVariables) log.warn('unknown setting ignored', { variable: name });
    const core = await openCore(config, log, { index: true, validationWorkers: 1 });
    const adminToken = firstAdminToken(core);
    const server = await startServer(core);
    if (adminToken !== undefined) showAdminToken(adminToken, server.url);
    else if (config.secrets.rootToken === undefined && !hasAdminToken(core))
      log.warn(
        'no one can administer this registry: set REG_ROOT_TOKEN (16 or more random characters, e.g. openssl rand -hex 32) and restart',
      );
    const webhooks = config.subscriptions.webhooks ? new WebhookWorker(core) : undefined;
    webhooks?.start();
    const forgeSync = new ForgeScheduler(core);
    forgeSync.start();
    const federation = startFederationWorkers(core);
    const signal = await stopped;
    log.info('shutting down', { signal });
    await webhooks?.stop();
    await forgeSync.stop();
    await federation.stop();
    await server.close();
    // The spans of the last moments are sent before the process ends (nothing to do when tracing is off).
    await stopTracing();
    log.info('stopped');
    return { url: server.url, stopped_by: signal };
  }
}

/**
 * Shows the administrator token a new registry created, once, on standard error beside the log (it is not a
 * log entry, so log pipelines that parse JSON lines skip it), with the commands that use it.
 */
function showAdminToken(token: string, url: string): void {
  process.stderr.write(
    [
      '',
      'This new registry has no REG_ROOT_TOKEN, so it created an administrator token. It is shown this once and',
      'only its hash is kept; store it now (a lost one is replaced by setting REG_ROOT_TOKEN):',
      '',
      `  ${token}`,
      '',
      'Use it with the reg client or any HTTP client:',
      `  export REG_URL=${url} REG_TOKEN=${token}`,
      '  reg whoami',
      `  curl -H "Authorization: Bearer $REG_TOKEN" ${url}/api/v1/whoami`,
      '',
      '',
    ].join('\n'),
  );
}
