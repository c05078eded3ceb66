import { Hono } from 'hono';
import type { Core } from '../core/core.js';
import { getArtifact } from '../core/provenance/artifact-view.js';
import { getInstance } from '../core/catalogue/instances.js';
import { getRelease } from '../core/catalogue/releases.js';
import { getRun } from '../core/provenance/runs.js';
import { getSoftware } from '../core/catalogue/software.js';
import { getType } from '../core/catalogue/types.js';
import { MethodNotAllowedError, NotFoundError } from '../core/errors.js';
import { openApiDocument } from './openapi.js';
import { allowedMethods } from './allowed-methods.js';
import type { AppEnv } from './env.js';
import { LargeWriteTurns } from './large-writes.js';
import { mount } from './mounts.js';
import { observeRequests } from './observe/observe.js';
import { authenticate, payloadLimit, requestId, stampAct } from './middleware.js';
import { cors } from './cors.js';
import { RateLimiter } from './rate-limit/limiter.js';
import { problemResponse } from './problem.js';
import { adminRoutes } from './routes/admin.js';
import { advertiseRoutes } from './routes/advertise.js';
import { artifactRoutes } from './routes/artifacts.js';
import { attestationRoutes } from './routes/attestations.js';
import { deploymentEventRoutes } from './routes/deployment-events.js';
import { openLineageRoutes } from './routes/openlineage.js';
import { packagingRoutes } from './routes/packaging.js';
import { peerRoutes } from './routes/peers.js';
import { probeRoutes, wellKnownRoutes } from './routes/ops.js';
import { problemRoutes } from './routes/problems.js';
import { instanceRoutes } from './routes/instances.js';
import { impactRoutes } from './routes/impact.js';
import { llmsTxtRoutes } from './routes/llms.js';
import { MCP_PATH, mcpChallenge, mcpRoutes } from './routes/mcp.js';
import { recordRoutes, signpostedReads } from './routes/records.js';
import { releaseRoutes } from './routes/releases.js';
import { runRoutes } from './routes/runs.js';
import { searchRoutes } from './routes/search.js';
import { softwareExtraRoutes } from './routes/software-extras.js';
import { softwareRoutes } from './routes/software.js';
import { vocabRoutes } from './routes/vocab.js';
import { sparqlRoutes } from './routes/sparql.js';
import { subscriptionRoutes } from './routes/subscriptions.js';
import { tokenRoutes } from './routes/tokens.js';
import { whoamiRoutes } from './routes/whoami.js';
import { writeWarnings } from './warnings.js';
import { WebPage } from './web.js';

/** What a test may replace in the application: the clock of the rate limiter (ms). */
export interface AppOptions {
  readonly now?: () => number;
}

/** Builds the HTTP application over an opened core. */
export function createApp(core: Core, options: AppOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const web = new WebPage(core.config, core.log);
  app.onError((error, c) => problemResponse(error, c.get('requestId') ?? 'unknown', core.log, c.req.path));
  // A known path asked with a method it does not answer is a 405 listing those it does. Other paths the API does
  // not know are pages of the web application for browsers (it says what is missing).
  let allowed: ((path: string) => string[]) | undefined;
  app.notFound((c) => {
    allowed ??= allowedMethods(app);
    const methods = allowed(c.req.path);
    if (methods.length > 0 && !methods.includes(c.req.method)) {
      return problemResponse(
        new MethodNotAllowedError(c.req.method, c.req.path, methods),
        c.get('requestId'),
        core.log,
        c.req.path,
      );
    }
    return web.serves(c)
      ? web.respond(c, 200)
      : problemResponse(
          new NotFoundError(`no resource at ${c.req.path}`),
          c.get('requestId'),
          core.log,
          c.req.path,
        );
  });
  app.use('*', requestId(core));
  app.use('*', observeRequests(core));
  // Preflights are answered before anything else: they carry no credential and are never rate limited.
  app.use('*', cors(core.config.corsOrigins));
  app.use('*', new LargeWriteTurns(core.config.largeWriteShare).middleware());
  const limiter = new RateLimiter(
    core.config.rateLimits,
    core.config.trustedProxies,
    core.log,
    options.now === undefined ? {} : { now: options.now },
  );
  // Probes come before authentication so that a stray or expired credential can never fail them.
  mount(
    app,
    probeRoutes(() => limiter.metrics()),
    problemRoutes(),
  );
  // Before authentication, so that a credential it refuses is answered with the MCP endpoint's challenge too.
  app.use(MCP_PATH, mcpChallenge(core));
  app.use('*', payloadLimit(core));
  app.route('/', web.routes());
  app.use('*', limiter.beforeAuthentication());
  app.use('*', authenticate(core, web, limiter.failedCredential));
  app.use('*', stampAct());
  // A request with a credential is counted once it is verified, so that its principal has buckets of its own.
  app.use('*', limiter.afterAuthentication());
  app.use('/api/*', writeWarnings(core));
  // Generated on first use from the routes as registered, so it describes exactly what this server answers.
  let described: Record<string, unknown> | undefined;
  app.get('/api/v1/openapi.json', (c) =>
    c.json((described ??= openApiDocument(app, core.config.baseIri, core.version))),
  );
  // Before every route that reads one record, so that each such read carries Signposting links.
  app.route('/', signpostedReads());
  // One sub-application per resource, each mounted at its own prefix, so their order does not matter.
  mount(
    app,
    wellKnownRoutes(),
    llmsTxtRoutes(),
    sparqlRoutes(web),
    adminRoutes(),
    softwareRoutes(),
    softwareExtraRoutes(),
    releaseRoutes(),
    instanceRoutes(),
    vocabRoutes(),
    searchRoutes(),
    runRoutes(),
    artifactRoutes(),
    advertiseRoutes(),
    openLineageRoutes(),
    packagingRoutes(),
    attestationRoutes(),
    deploymentEventRoutes(),
    tokenRoutes(),
    subscriptionRoutes(),
    whoamiRoutes(),
    peerRoutes(),
    impactRoutes(),
    mcpRoutes(core, app),
  );
  // Record IRIs ({base}/software/<id>, ...) dereference last, after every API path.
  app.route(
    '/',
    recordRoutes(
      {
        software: getSoftware,
        release: getRelease,
        instance: getInstance,
        type: getType,
        run: getRun,
        artifact: getArtifact,
      },
      web,
    ),
  );
  return app;
}
