import type { JsonSchema } from '../../api/index.js';
import {
  DEREFERENCEABLE,
  listFilters,
  type ListedKind,
  type RecordKind,
} from '../../core/records/kind-registry.js';
import { mayRead } from './access.js';
import { refusal, relay, resultOf, text, type ToolDefinition } from './tool.js';

/**
 * `list_records` and `get_record`: the record lists and reads of the API, for every kind, with the filters each
 * kind's list declares (kind-registry), so that the tool takes exactly what the API takes.
 */

/** The kinds `list_records` lists: the API list of each, and its filters when it takes any. */
const LISTS: Readonly<Record<string, { readonly path: string; readonly filtered?: ListedKind }>> = {
  software: { path: '/api/v1/software', filtered: 'software' },
  instances: { path: '/api/v1/instances', filtered: 'instance' },
  artifacts: { path: '/api/v1/artifacts', filtered: 'artifact' },
  runs: { path: '/api/v1/runs', filtered: 'run' },
  releases: { path: '/api/v1/software/{software}/releases' },
  types: { path: '/api/v1/types' },
};

/**
 * The filters of each listed kind, in declared order, each with the name the tool takes it under: its own, except
 * a filter named `kind` (the software list's), which the tool's own `kind` argument would hide.
 */
const FILTERS = Object.entries(LISTS).map(([kind, list]) => {
  const filters = list.filtered === undefined ? [] : listFilters(list.filtered);
  const named = filters.map((filter) => ({
    ...filter,
    argument: filter.param === 'kind' ? `${list.filtered ?? kind}_kind` : filter.param,
  }));
  return [kind, named] as const;
});

/** What the `software` argument is to `releases`, which takes no filter but the software whose releases to list. */
const RELEASES_OF = 'the software whose releases to list (id or IRI)';

/**
 * Every filter any kind takes, described with the kinds that take it (and the values a kind allows); kinds that
 * describe a filter alike share one sentence.
 */
function filterProperties(): Record<string, JsonSchema> {
  const described = new Map<string, Map<string, string[]>>();
  const describe = (argument: string, kind: string, sentence: string): void => {
    const sentences = described.get(argument) ?? new Map<string, string[]>();
    sentences.set(sentence, [...(sentences.get(sentence) ?? []), kind]);
    described.set(argument, sentences);
  };
  for (const [kind, filters] of FILTERS) {
    for (const filter of filters) {
      const values =
        filter.match.by === 'value' && filter.match.values !== undefined
          ? ` (one of ${filter.match.values.join(', ')})`
          : '';
      describe(filter.argument, kind, `${filter.summary}${values}`);
    }
  }
  describe('software', 'releases', RELEASES_OF);
  return Object.fromEntries(
    [...described].map(([argument, sentences]) => {
      const description = [...sentences]
        .map(([sentence, kinds]) => `${kinds.join(', ')}: ${sentence}`)
        .join('; ');
      return [
        argument,
        { type: argument === 'limit' ? ['integer', 'string'] : 'string', description } satisfies JsonSchema,
      ];
    }),
  );
}

const listRecords: ToolDefinition = {
  name: 'list_records',
  title: 'List records',
  description:
    'Lists the records of one kind, newest first, a page at a time, with the same filters as the REST list of that kind (GET /api/v1/<kind>). Pass `next_cursor` of an answer as `cursor` for the next page. `releases` lists the releases of one software (give `software`); `types` lists the artifact types in use or minted here. A filter a kind does not take is refused, naming those it takes.',
  inputSchema: {
    type: 'object',
    properties: {
      kind: { type: 'string', enum: Object.keys(LISTS), description: 'which records to list' },
      ...filterProperties(),
    },
    required: ['kind'],
  },
  readOnly: true,
  idempotent: true,
  offered: mayRead,
  run: async (context) => {
    const kind = text(context.args, 'kind') ?? '';
    const list = LISTS[kind];
    if (list === undefined)
      return refusal(`kind must be one of ${Object.keys(LISTS).join(', ')}, got "${kind}"`);
    const filters = FILTERS.find(([name]) => name === kind)?.[1] ?? [];
    const taken = filters.map((filter) => filter.argument);
    const given = Object.keys(context.args).filter(
      (name) => name !== 'kind' && context.args[name] !== undefined,
    );
    if (kind === 'releases') {
      const software = text(context.args, 'software');
      if (software === undefined)
        return refusal('releases are listed per software: give software (id or IRI)');
      const extra = given.filter((name) => name !== 'software');
      if (extra.length > 0) return refusal(`releases take no filter but software (got ${extra.join(', ')})`);
      return relay(context, {
        method: 'GET',
        path: `/api/v1/software/${encodeURIComponent(software)}/releases`,
      });
    }
    const stray = given.filter((name) => !taken.includes(name));
    if (stray.length > 0) {
      const takes = taken.length === 0 ? 'no filter' : taken.join(', ');
      return refusal(`${kind} does not take ${stray.join(', ')}; it takes ${takes}`);
    }
    return relay(context, {
      method: 'GET',
      path: list.path,
      query: Object.fromEntries(filters.map((filter) => [filter.param, text(context.args, filter.argument)])),
    });
  },
};

/** The API path reading one record of a kind, by id or IRI (releases dereference their IRI instead). */
function readPath(kind: RecordKind, idOrIri: string, baseIri: string): string {
  if (kind === 'release') {
    const iri = idOrIri.includes('/')
      ? idOrIri
      : `${baseIri}/${DEREFERENCEABLE.get(kind)?.segment}/${idOrIri}`;
    return `${new URL(iri).pathname}.json`;
  }
  return `/${DEREFERENCEABLE.get(kind)?.listing}/${encodeURIComponent(idOrIri)}`;
}

/** The kind a local record IRI is of, from the path segment it is minted under (or an alias of it). */
function kindOfLocalIri(iri: string, baseIri: string): RecordKind | undefined {
  if (!iri.startsWith(`${baseIri}/`)) return undefined;
  const segment = iri.slice(baseIri.length + 1).split('/')[0] ?? '';
  for (const [kind, declared] of DEREFERENCEABLE) {
    if (declared.segment === segment || declared.aliases.includes(segment)) return kind;
  }
  return undefined;
}

const getRecord: ToolDefinition = {
  name: 'get_record',
  title: 'Get a record',
  description:
    "Reads one record as the REST API returns it (GET /api/v1/<kind>/<id>): software, a release, a deployment (instance), a run, an artifact or an artifact type. Name it by `iri` (this registry's IRIs name their kind; a peer registry's record is read from this registry's cached copy, give `kind` to say which), or by `kind` and `id`.",
  inputSchema: {
    type: 'object',
    properties: {
      iri: { type: 'string', description: "the record's IRI" },
      kind: { type: 'string', enum: [...DEREFERENCEABLE.keys()], description: 'the kind of record' },
      id: { type: 'string', description: "the record's id (the last segment of its IRI), with kind" },
    },
  },
  readOnly: true,
  idempotent: true,
  offered: mayRead,
  run: async (context) => {
    const base = context.config.baseIri;
    const iri = text(context.args, 'iri');
    const id = text(context.args, 'id');
    const named = text(context.args, 'kind');
    if (named !== undefined && !DEREFERENCEABLE.has(named as RecordKind))
      return refusal(`kind must be one of ${[...DEREFERENCEABLE.keys()].join(', ')}, got "${named}"`);
    const given = named as RecordKind | undefined;
    if (iri === undefined && (id === undefined || given === undefined))
      return refusal('name the record by iri, or by kind and id');
    const key = iri ?? id ?? '';
    const kind = given ?? kindOfLocalIri(key, base);
    // A release is read at its own IRI, which only this registry's releases have here.
    if (kind === 'release' && /^https?:/.test(key) && !key.startsWith(`${base}/`))
      return refusal(
        "another registry's release is not held here: read its software, whose releases it lists",
      );
    if (kind !== undefined) return relay(context, { method: 'GET', path: readPath(kind, key, base) });
    // A peer's IRI of unknown kind: the first kind that holds a copy of it answers.
    let last = await context.api.send({ method: 'GET', path: readPath('software', key, base) });
    for (const other of [...DEREFERENCEABLE.keys()].filter((k) => k !== 'software' && k !== 'release')) {
      if (last.status !== 404) break;
      last = await context.api.send({ method: 'GET', path: readPath(other, key, base) });
    }
    return resultOf(last);
  },
};

export const LIST_TOOLS: readonly ToolDefinition[] = [listRecords, getRecord];
