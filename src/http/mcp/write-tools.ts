import { nodeSchema, SUBSCRIPTION, SUBSCRIPTION_FILTER, type JsonSchema } from '../../api/index.js';
import { ARTIFACT, RUN } from '../../core/records/activity-specs.js';
import type { NodeSpec } from '../../core/records/schema.js';
import { CAPABILITY, INSTANCE, RELEASE, SOFTWARE } from '../../core/records/specs.js';
import { ARTIFACT_TYPE } from '../../core/records/type-specs.js';
import {
  curator,
  curatorOrDeployment,
  curatorOrRecordKeeper,
  curatorOrScope,
  deploymentWith,
} from './access.js';
import {
  object,
  refusal,
  relay,
  softwareOrInstancePath,
  text,
  type ToolArguments,
  type ToolDefinition,
} from './tool.js';

/** The members a client may write of a node: its fields without those the registry writes itself. */
function writable(spec: NodeSpec): Record<string, JsonSchema> {
  const properties = nodeSchema(spec).properties ?? {};
  return Object.fromEntries(Object.entries(properties).filter(([, schema]) => schema.readOnly !== true));
}

/** The arguments without those the tool reads itself (the record named in the path). */
function bodyOf(args: ToolArguments, ...taken: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([name]) => !taken.includes(name)));
}

const RECORD_REF = (what: string): JsonSchema => ({ type: 'string', description: `${what} (id or IRI)` });

const registerSoftware: ToolDefinition = {
  name: 'register_software',
  title: 'Register software',
  description:
    'Registers a software record (POST /api/v1/software) and returns it with its IRI. `name` is required; licences are SPDX ids or IRIs, topics vocabulary IRIs (vocab_search), kinds from list_enumerations. Needs a curator or a credential with the register:software scope.',
  inputSchema: { type: 'object', properties: writable(SOFTWARE), required: ['name'] },
  readOnly: false,
  idempotent: false,
  offered: curatorOrScope('register:software'),
  run: (context) => relay(context, { method: 'POST', path: '/api/v1/software', body: context.args }),
};

const updateSoftware: ToolDefinition = {
  name: 'update_software',
  title: 'Update software',
  description:
    'Changes fields of a software record (a JSON merge patch, PATCH /api/v1/software/<id>): the fields given replace those held, a field given as null is removed, the rest stay. Needs a curator.',
  inputSchema: {
    type: 'object',
    properties: { software: RECORD_REF('the software to change'), ...writable(SOFTWARE) },
    required: ['software'],
  },
  readOnly: false,
  idempotent: true,
  offered: curator,
  run: (context) => {
    const software = text(context.args, 'software');
    if (software === undefined) return Promise.resolve(refusal('software (id or IRI) is required'));
    return relay(context, {
      method: 'PATCH',
      path: `/api/v1/software/${encodeURIComponent(software)}`,
      body: bodyOf(context.args, 'software'),
    });
  },
};

const addRelease: ToolDefinition = {
  name: 'add_release',
  title: 'Add a release',
  description:
    'Registers a release of a software (POST /api/v1/software/<id>/releases): its version, publication date, downloads, container image and what it produces and consumes. Needs a curator or a credential with the register:software scope (bound to that software when it is bound to one).',
  inputSchema: {
    type: 'object',
    properties: { software: RECORD_REF('the software released'), ...writable(RELEASE) },
    required: ['software', 'version'],
  },
  readOnly: false,
  idempotent: false,
  offered: curatorOrScope('register:software'),
  run: (context) => {
    const software = text(context.args, 'software');
    if (software === undefined) return Promise.resolve(refusal('software (id or IRI) is required'));
    return relay(context, {
      method: 'POST',
      path: `/api/v1/software/${encodeURIComponent(software)}/releases`,
      body: bodyOf(context.args, 'software'),
    });
  },
};

const declareCapability: ToolDefinition = {
  name: 'declare_capability',
  title: 'Declare a capability',
  description:
    "Declares which artifact types a software or a deployment produces and consumes (PUT /api/v1/<software|instances>/<id>/capability), replacing its earlier declaration; find_capable_software then finds it. Give either software or instance. A software's capability needs a curator; a deployment's, a curator or the deployment's own credential.",
  inputSchema: {
    type: 'object',
    properties: {
      software: RECORD_REF('the software declaring it'),
      instance: RECORD_REF('the deployment declaring it'),
      ...writable(CAPABILITY),
    },
  },
  readOnly: false,
  idempotent: true,
  offered: curatorOrRecordKeeper,
  run: (context) => {
    const path = softwareOrInstancePath(context.args, 'capability');
    if (typeof path !== 'string') return Promise.resolve(path);
    return relay(context, { method: 'PUT', path, body: bodyOf(context.args, 'software', 'instance') });
  },
};

const registerInstance: ToolDefinition = {
  name: 'register_instance',
  title: 'Register a deployment',
  description:
    'Registers a deployment (an instance) of a software (POST /api/v1/instances): where it runs, its endpoint, the release it runs and its availability. Needs a curator or a credential with the register:instance scope.',
  inputSchema: { type: 'object', properties: writable(INSTANCE), required: ['software'] },
  readOnly: false,
  idempotent: false,
  offered: curatorOrScope('register:instance'),
  run: (context) => relay(context, { method: 'POST', path: '/api/v1/instances', body: context.args }),
};

const registerArtifactType: ToolDefinition = {
  name: 'register_artifact_type',
  title: 'Register an artifact type',
  description:
    "Mints an artifact type of this registry (give `label`, and optionally `slug` for its IRI) or adopts one of an outside vocabulary (give its `iri`), for records' conforms_to. Look for an existing term with vocab_search first. Needs a curator or a credential with the register:software scope.",
  inputSchema: {
    type: 'object',
    properties: {
      ...writable(ARTIFACT_TYPE),
      slug: { type: 'string', description: 'the last segment of the minted IRI (letters, digits, dashes)' },
      iri: { type: 'string', description: 'the IRI of an outside term to adopt instead of minting one' },
    },
    required: ['label'],
  },
  readOnly: false,
  idempotent: true,
  offered: curatorOrScope('register:software'),
  run: (context) => relay(context, { method: 'POST', path: '/api/v1/types', body: context.args }),
};

/** `advertise_produced` or `advertise_consumed`: one run of the calling deployment and its artifacts. */
function advertiseTool(role: 'produced' | 'consumed'): ToolDefinition {
  const scope = role === 'produced' ? 'advertise:produce' : 'advertise:consume';
  return {
    name: `advertise_${role}`,
    title: `Advertise ${role} artifacts`,
    description: `Records that a run of the calling deployment ${role} the given artifacts (POST /api/v1/advertise/${role}); the run is named by run.external_key, so advertising again with the same key adds to the same run. The deployment is the credential's own, never one named in the call. With dry_run true nothing is written and the answer shows what would be. Needs a deployment's credential with the ${scope} scope.`,
    inputSchema: {
      type: 'object',
      properties: {
        run: { ...nodeSchemaOf(RUN), description: 'the run (external_key names it across calls)' },
        artifacts: {
          type: 'array',
          items: nodeSchemaOf(ARTIFACT),
          description: `the artifacts it ${role} (title, conforms_to, distributions with download_url, …)`,
        },
        dry_run: { type: 'boolean', description: 'check and show what would be written, writing nothing' },
      },
      required: ['artifacts'],
    },
    readOnly: false,
    idempotent: false,
    offered: deploymentWith(scope),
    run: (context) =>
      relay(context, {
        method: 'POST',
        path: `/api/v1/advertise/${role}`,
        query: { dry_run: context.args.dry_run === true ? 'true' : undefined },
        body: bodyOf(context.args, 'dry_run'),
      }),
  };
}

function nodeSchemaOf(spec: NodeSpec): JsonSchema {
  return { type: 'object', properties: writable(spec) };
}

const createSubscription: ToolDefinition = {
  name: 'create_subscription',
  title: 'Subscribe to new artifacts',
  description:
    "Subscribes a deployment to artifacts matching a filter (POST /api/v1/instances/<id>/subscriptions): each new match becomes a notification, pulled from the subscription's deliveries or sent to webhook_url (signed with the webhook secret the answer shows once). A webhook's body is the registry's own event, a CloudEvents event or a CDEvents artifact.published event (`format`), signed with x-reg-signature or the Standard Webhooks headers (`signature`). The deployment defaults to the credential's own. Needs a curator or the deployment's own credential.",
  inputSchema: {
    type: 'object',
    properties: {
      instance: RECORD_REF("the subscribing deployment (default: the credential's own)"),
      label: { type: 'string', description: 'a name for the subscription' },
      filter: {
        type: 'object',
        properties: SUBSCRIPTION_FILTER.properties,
        description: 'what to match; every list given must match (an empty filter matches everything)',
      },
      webhook_url: {
        type: 'string',
        description: 'an https URL to send notifications to (default: pull only)',
      },
      webhook_secret: {
        type: 'string',
        description:
          'the secret to sign them with (default: one generated); with signature standard-webhooks, whsec_ and the base64 of 24 to 64 bytes',
      },
      format: {
        type: 'string',
        enum: [...SUBSCRIPTION.properties.format.enum],
        description: `${SUBSCRIPTION.properties.format.description} (default reg)`,
      },
      signature: {
        type: 'string',
        enum: [...SUBSCRIPTION.properties.signature.enum],
        description: `${SUBSCRIPTION.properties.signature.description} (default reg)`,
      },
    },
  },
  readOnly: false,
  idempotent: false,
  offered: curatorOrDeployment,
  run: (context) => {
    const instance = text(context.args, 'instance') ?? context.principal.instance ?? undefined;
    if (instance === undefined)
      return Promise.resolve(
        refusal('instance (id or IRI) is required: this credential acts as no deployment'),
      );
    const filter = object(context.args, 'filter');
    return relay(context, {
      method: 'POST',
      path: `/api/v1/instances/${encodeURIComponent(instance)}/subscriptions`,
      body: { ...bodyOf(context.args, 'instance', 'filter'), ...(filter === undefined ? {} : { filter }) },
    });
  },
};

export const WRITE_TOOLS: readonly ToolDefinition[] = [
  registerArtifactType,
  registerSoftware,
  updateSoftware,
  addRelease,
  declareCapability,
  registerInstance,
  advertiseTool('produced'),
  advertiseTool('consumed'),
  createSubscription,
];
