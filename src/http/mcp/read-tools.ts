import { LINEAGE_ANSWER } from '../../api/index.js';
import { SEARCH_LIMITS } from '../../core/discovery/search.js';
import { RESOLVE_MAX, VOCAB_BRANCHES } from '../../core/discovery/vocab-search.js';
import { LINEAGE_LIMITS } from '../../core/provenance/lineage.js';
import { SEARCH_KINDS } from '../../core/records/kind-registry.js';
import { BASIS_MATCHES_ANSWER } from '../routes/impact.js';
import { mayRead } from './access.js';
import { queryArguments } from './deployment-tools.js';
import { enumerations } from './enumerations.js';
import { refusal, relay, text, texts, type ToolDefinition } from './tool.js';

/** The tools that read the registry through its search, vocabulary, matchmaking and lineage endpoints. */

const registryInfo: ToolDefinition = {
  name: 'registry_info',
  title: 'About this registry',
  description:
    'Describes this registry: its title, operator and base IRI, whether reads and SPARQL are public, and how many software records, deployments, releases, runs and artifacts it holds. Call it first to learn what the registry holds.',
  inputSchema: { type: 'object', properties: {} },
  readOnly: true,
  idempotent: true,
  offered: mayRead,
  run: (context) => relay(context, { method: 'GET', path: '/api/v1/registry' }),
};

const vocabSearch: ToolDefinition = {
  name: 'vocab_search',
  title: 'Search vocabulary terms',
  description:
    'Finds the vocabulary terms records may cite (artifact types, topics, keywords, licences) by words in their labels; a query under two characters finds nothing. Use it to turn a word such as "genome" into the IRI a record or a filter needs.',
  inputSchema: {
    type: 'object',
    properties: {
      q: { type: 'string', description: 'words in the label (at least two characters)' },
      branch: {
        type: 'string',
        enum: [...VOCAB_BRANCHES],
        description:
          'only terms of this branch (data: artifact types, license: licences); default every branch',
      },
      limit: { type: ['integer', 'string'], description: 'most terms to return (1–100, default 20)' },
    },
    required: ['q'],
  },
  readOnly: true,
  idempotent: true,
  offered: mayRead,
  run: (context) =>
    relay(context, {
      method: 'GET',
      path: '/api/v1/vocab/search',
      query: {
        q: text(context.args, 'q'),
        branch: text(context.args, 'branch'),
        limit: text(context.args, 'limit'),
      },
    }),
};

const vocabResolve: ToolDefinition = {
  name: 'vocab_resolve',
  title: 'Resolve vocabulary terms',
  description: `Describes terms by IRI: the label, definition and source of each (bundled, local or external), for up to ${RESOLVE_MAX} IRIs at once. Use it to show what the IRIs in a record mean.`,
  inputSchema: {
    type: 'object',
    properties: {
      iris: { type: 'array', items: { type: 'string' }, description: 'the term IRIs to describe' },
    },
    required: ['iris'],
  },
  readOnly: true,
  idempotent: true,
  offered: mayRead,
  run: (context) => {
    const iris = texts(context.args, 'iris');
    if (iris === undefined) return Promise.resolve(refusal('iris must list at least one IRI'));
    return relay(context, { method: 'GET', path: '/api/v1/vocab/resolve', query: { iris: iris.join(',') } });
  },
};

const listEnumerations: ToolDefinition = {
  name: 'list_enumerations',
  title: 'List allowed values',
  description:
    'Lists the closed sets of values records and filters use (software kinds, availability, deployment health, run statuses, access protocols, authentication methods, API description formats, the fields a repository sync may manage, credential scopes, vocabulary branches, record kinds, subscription roles, delivery modes, webhook formats and signature schemes, matchmaking bases), each value with what it means where the registry says so. Use it before writing a record.',
  inputSchema: { type: 'object', properties: {} },
  readOnly: true,
  idempotent: true,
  offered: mayRead,
  run: () => {
    const sets = enumerations();
    return Promise.resolve({
      content: [{ type: 'text', text: JSON.stringify(sets) }],
      structuredContent: sets,
    });
  },
};

const searchRegistry: ToolDefinition = {
  name: 'search_registry',
  title: 'Search the registry',
  description: `Free-text search over software, deployments, artifacts and runs, ranked (exact names first), with facets; the same as GET /api/v1/search. With federated true, the registry's peers are asked too and their hits come back marked with their origin.`,
  inputSchema: {
    type: 'object',
    properties: {
      q: { type: 'string', description: `the words to find (at most ${SEARCH_LIMITS.maxQuery} characters)` },
      type: {
        type: 'array',
        items: { type: 'string', enum: [...SEARCH_KINDS] },
        description: 'only these kinds of record (default all)',
      },
      limit: {
        type: ['integer', 'string'],
        description: `most hits (1–${SEARCH_LIMITS.maxLimit}, default ${SEARCH_LIMITS.defaultLimit})`,
      },
      federated: { type: 'boolean', description: "also ask the registry's peers" },
    },
    required: ['q'],
  },
  readOnly: true,
  idempotent: true,
  offered: mayRead,
  run: (context) =>
    relay(context, {
      method: 'GET',
      path: '/api/v1/search',
      query: {
        q: text(context.args, 'q'),
        type: texts(context.args, 'type'),
        limit: text(context.args, 'limit'),
        federated: text(context.args, 'federated'),
      },
    }),
};

/** The arguments of matchmaking as the API declares them. */
const CAPABILITY_ARGUMENTS = queryArguments('get /api/v1/capabilities');

const findCapableSoftware: ToolDefinition = {
  name: 'find_capable_software',
  title: 'Find software by what it produces or consumes',
  description:
    'Matchmaking: the software (and its deployments) that produce or consume the given artifact types, best matches first. Give artifact type IRIs (find them with vocab_search, branch data). By default the match is on what records declare; with basis observed it is on what their runs actually did, and with both on either, each match saying which basis found it. Give `artifact` to ask what can consume that artifact: its types are asked as consumes, and the answer also lists the deployments that already consumed it.',
  inputSchema: {
    type: 'object',
    properties: {
      produces: {
        type: 'array',
        items: { type: 'string' },
        description: 'artifact type IRIs it should produce',
      },
      consumes: {
        type: 'array',
        items: { type: 'string' },
        description: 'artifact type IRIs it should consume',
      },
      basis: {
        type: 'string',
        enum: [...BASIS_MATCHES_ANSWER.properties.basis.enum],
        description: CAPABILITY_ARGUMENTS.basis?.description ?? 'declared, observed or both',
      },
      artifact: {
        type: 'string',
        description: CAPABILITY_ARGUMENTS.artifact?.description ?? 'an artifact id or IRI',
      },
    },
  },
  readOnly: true,
  idempotent: true,
  offered: mayRead,
  run: (context) =>
    relay(context, {
      method: 'GET',
      path: '/api/v1/capabilities',
      query: {
        produces: texts(context.args, 'produces'),
        consumes: texts(context.args, 'consumes'),
        basis: text(context.args, 'basis'),
        artifact: text(context.args, 'artifact'),
      },
    }),
};

const getArtifactLineage: ToolDefinition = {
  name: 'get_artifact_lineage',
  title: 'Trace an artifact',
  description: `The lineage of an artifact: the runs that generated it and the artifacts they used (up), the runs that used it and what they generated (down), or both, to a depth of 1–${LINEAGE_LIMITS.maxDepth} steps. A large graph comes back in pages: \`partial\` is true and \`cursor\` continues it.`,
  inputSchema: {
    type: 'object',
    properties: {
      artifact: { type: 'string', description: 'the artifact (id or IRI)' },
      direction: {
        type: 'string',
        enum: [...LINEAGE_ANSWER.properties.direction.enum],
        description: 'up (where it came from), down (what came of it) or both (default)',
      },
      depth: {
        type: ['integer', 'string'],
        description: `steps to follow (1–${LINEAGE_LIMITS.maxDepth}, default ${LINEAGE_LIMITS.defaultDepth})`,
      },
      cursor: { type: 'string', description: 'the cursor of the previous page' },
    },
    required: ['artifact'],
  },
  readOnly: true,
  idempotent: true,
  offered: mayRead,
  run: (context) => {
    const artifact = text(context.args, 'artifact');
    if (artifact === undefined) return Promise.resolve(refusal('artifact (id or IRI) is required'));
    return relay(context, {
      method: 'GET',
      path: `/api/v1/artifacts/${encodeURIComponent(artifact)}/lineage`,
      query: {
        direction: text(context.args, 'direction'),
        depth: text(context.args, 'depth'),
        cursor: text(context.args, 'cursor'),
      },
    });
  },
};

export const READ_TOOLS: readonly ToolDefinition[] = [
  registryInfo,
  vocabSearch,
  vocabResolve,
  listEnumerations,
  searchRegistry,
  findCapableSoftware,
  getArtifactLineage,
];
