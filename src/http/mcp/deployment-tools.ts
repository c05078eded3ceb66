import type { JsonSchema } from '../../api/index.js';
import { IMPACT_QUERY_PARAMETERS } from '../routes/impact.js';
import { mayRead } from './access.js';
import { refusal, relay, softwareOrInstancePath, text, type ToolDefinition } from './tool.js';

/**
 * The tools that answer what runs where and what an artifact affected: impact, a deployment's history, the
 * deployments of a software, and observed capability.
 */

/** Parameters whose values are whole numbers, which a client may send as numbers or as strings. */
const NUMBERS = new Set(['depth', 'max_nodes', 'max_edges', 'time_budget_ms', 'days', 'limit']);

/**
 * The arguments of a tool that relays one API operation, taken from that operation's declared query parameters
 * (the same declarations the OpenAPI description is made of), so the tool takes exactly what the API takes.
 */
export function queryArguments(operation: string): Record<string, JsonSchema> {
  const parameters = IMPACT_QUERY_PARAMETERS[operation] ?? [];
  return Object.fromEntries(
    parameters.map((parameter) => {
      const name = String(parameter.name);
      const schema: JsonSchema = {
        type: NUMBERS.has(name) ? ['integer', 'string'] : 'string',
        description: String(parameter.description),
      };
      return [name, schema];
    }),
  );
}

/** The query an operation's declared parameters make of a tool's arguments. */
function queryOf(
  operation: string,
  args: Readonly<Record<string, unknown>>,
): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(queryArguments(operation)).map((name) => [name, text(args, name)]));
}

const IMPACT = 'get /api/v1/impact';

const impact: ToolDefinition = {
  name: 'impact',
  title: 'What an artifact or a release affected',
  description:
    'Answers "this turned out bad: what did it affect?" (GET /api/v1/impact). Give `of`: an artifact (id or IRI), a release (id or IRI), a content identifier or a container image digest. The answer lists the runs that used it, directly (depth 1) and through what they generated, the artifacts derived from it, the deployments involved with their health, current version and whether they still run that release (and what they produced since), and the subscriptions that were notified. A large answer comes in pages: `partial` is true and `cursor` continues it.',
  inputSchema: { type: 'object', properties: queryArguments(IMPACT), required: ['of'] },
  readOnly: true,
  idempotent: true,
  offered: mayRead,
  run: (context) =>
    relay(context, { method: 'GET', path: '/api/v1/impact', query: queryOf(IMPACT, context.args) }),
};

const RECORD_REF = (what: string): JsonSchema => ({ type: 'string', description: `${what} (id or IRI)` });

const deploymentHistory: ToolDefinition = {
  name: 'deployment_history',
  title: "A deployment's history",
  description:
    'What a deployment ran and when (GET /api/v1/instances/<id>/history), newest first: each entry is a deployment event (deployed, upgraded, rolled back, removed, an environment change, a published artifact) or an announcement of its version, with the release, version and environment before and after, and when it happened. A withdrawn deployment keeps its history. Pass `next_cursor` of an answer as `cursor` for the next page.',
  inputSchema: {
    type: 'object',
    properties: {
      instance: RECORD_REF('the deployment'),
      limit: { type: ['integer', 'string'], description: 'entries per page (1–200, default 25)' },
      cursor: { type: 'string', description: 'the next_cursor of the previous page' },
    },
    required: ['instance'],
  },
  readOnly: true,
  idempotent: true,
  offered: mayRead,
  run: (context) => {
    const instance = text(context.args, 'instance');
    if (instance === undefined) return Promise.resolve(refusal('instance (id or IRI) is required'));
    return relay(context, {
      method: 'GET',
      path: `/api/v1/instances/${encodeURIComponent(instance)}/history`,
      query: { limit: text(context.args, 'limit'), cursor: text(context.args, 'cursor') },
    });
  },
};

const softwareDeployments: ToolDefinition = {
  name: 'software_deployments',
  title: 'What runs where',
  description:
    "Every live deployment of a software (GET /api/v1/software/<id>/deployments) with the version it runs and since when, its environment, health and last run, grouped by environment, and drift flagged: a deployment running an older version than the software's latest release (`behind_latest`; a later version is not behind), and an environment whose deployments run different versions (`versions_differ`).",
  inputSchema: {
    type: 'object',
    properties: { software: RECORD_REF('the software') },
    required: ['software'],
  },
  readOnly: true,
  idempotent: true,
  offered: mayRead,
  run: (context) => {
    const software = text(context.args, 'software');
    if (software === undefined) return Promise.resolve(refusal('software (id or IRI) is required'));
    return relay(context, {
      method: 'GET',
      path: `/api/v1/software/${encodeURIComponent(software)}/deployments`,
    });
  },
};

const OBSERVED = 'get /api/v1/software/{id}/observed-capability';

const observedCapability: ToolDefinition = {
  name: 'observed_capability',
  title: 'What runs actually produced and consumed',
  description:
    "Beside what a software or a deployment declares it produces and consumes, what its runs actually produced and consumed, by artifact type with counts and when last seen (GET /api/v1/<software|instances>/<id>/observed-capability), and the difference flagged: types observed but not declared, and declared types not seen in `days` days. A software's answer covers the runs of all its deployments. Give either software or instance.",
  inputSchema: {
    type: 'object',
    properties: {
      software: RECORD_REF('the software'),
      instance: RECORD_REF('the deployment'),
      ...queryArguments(OBSERVED),
    },
  },
  readOnly: true,
  idempotent: true,
  offered: mayRead,
  run: (context) => {
    const path = softwareOrInstancePath(context.args, 'observed-capability');
    if (typeof path !== 'string') return Promise.resolve(path);
    return relay(context, { method: 'GET', path, query: queryOf(OBSERVED, context.args) });
  },
};

export const DEPLOYMENT_TOOLS: readonly ToolDefinition[] = [
  impact,
  deploymentHistory,
  softwareDeployments,
  observedCapability,
];
