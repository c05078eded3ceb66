import { AsyncLocalStorage } from 'node:async_hooks';
import { BadRequestError, NotFoundError, TombstonedError } from '../errors.js';
import { GRAPHS, PEER_GRAPH_PREFIX, RDF } from '../ns.js';
import { acceptInput, type AcceptOptions } from '../records/input.js';
import { isObject, mergePatch } from '../records/json.js';
import { indexQuads, nodeToJson, type JsonObject, type SubjectIndex } from '../records/mapper.js';
import type { FieldSpec, RecordSpec } from '../records/schema.js';
import { ownerOf, parseNQuads } from '../store/nquads.js';
import { findPeer, findResolveRow } from '../store/peers.js';
import type { ValidationResult } from '../validate/index.js';
import type { Quad } from '../store/nquads.js';
import { recordIri, type RecordKind } from '../records/kind-registry.js';
import type { Core } from '../core.js';
import { cachedRecord, isStale } from '../federation/peers.js';
import { editStored } from './record-edit.js';
import { checkCondition, versionOf } from './record-version.js';
import { writeRecord, type Act } from './write-path.js';
import type { OriginJson } from '../../api/records.js';

/** A record read back from the store: its JSON (as the mapper reads it) and its quads indexed by subject. */
export interface StoredRecord {
  readonly iri: string;
  readonly graph: string;
  readonly json: JsonObject;
  readonly index: SubjectIndex;
  readonly tombstoned: boolean;
  /** The version of the stored text (see `versionOf`): the record's entity tag. */
  readonly version: string;
}

/** Reads a record of `spec` by IRI from the local graph; undefined when there is none of that kind. */
export async function readStored(
  core: Core,
  spec: RecordSpec,
  iri: string,
  graph: string = GRAPHS.local,
): Promise<StoredRecord | undefined> {
  const text =
    readTogether.getStore()?.get(storedKey(iri, graph)) ?? (await core.graph.readRecord(graph, iri));
  if (text === undefined) return undefined;
  // Parsing is most of a read; a record read again with the same text (a deployment on every request of its
  // token) is served from the memo. The value is frozen, so no caller can change what the next one reads.
  const key = `${spec.kind}\n${graph}\n${iri}`;
  const cached = core.parsed.get<StoredRecord | null>(key, text);
  if (cached !== undefined) return cached ?? undefined;
  const stored = parseStored(spec, iri, graph, text);
  core.parsed.set(key, text, stored ?? null);
  return stored;
}

/**
 * Texts of records read together for the presentation under way (a list page): `readStored` takes them from here
 * rather than asking the store one record at a time. Scoped to the work passed to `presentingTogether`, so nothing
 * outlives the request that read it.
 */
const readTogether = new AsyncLocalStorage<Map<string, string>>();

/**
 * Runs `work` (the presentation of a list page) with a scope in which `readStoredMany` and `prefetchReferences`
 * keep what they read for the `readStored` calls that follow: a page costs the same few requests to the store
 * whatever its size.
 */
export function presentingTogether<T>(work: () => Promise<T>): Promise<T> {
  return readTogether.run(new Map(), work);
}

/** Reads records of one graph together, keeping their texts in the scope of `presentingTogether`, if any. */
async function readTexts(core: Core, graph: string, iris: readonly string[]): Promise<Map<string, string>> {
  const scope = readTogether.getStore();
  const out = new Map<string, string>();
  const unread: string[] = [];
  for (const iri of new Set(iris)) {
    const text = scope?.get(storedKey(iri, graph));
    if (text === undefined) unread.push(iri);
    else out.set(iri, text);
  }
  if (unread.length > 0) {
    for (const [iri, text] of await core.graph.readRecords(graph, unread)) {
      out.set(iri, text);
      scope?.set(storedKey(iri, graph), text);
    }
  }
  return out;
}

/**
 * Several records of one kind, read together (one request to an external store per quad budget, rather than one per
 * record): what a list page does with the page's items. Records that do not exist, or are of another kind, are
 * absent from the answer.
 */
export async function readStoredMany(
  core: Core,
  spec: RecordSpec,
  items: readonly { readonly iri: string; readonly graph?: string }[],
): Promise<Map<string, StoredRecord>> {
  const byGraph = new Map<string, string[]>();
  for (const { iri, graph = GRAPHS.local } of items) byGraph.set(graph, [...(byGraph.get(graph) ?? []), iri]);
  const out = new Map<string, StoredRecord>();
  for (const [graph, iris] of byGraph) {
    for (const [iri, text] of await readTexts(core, graph, iris)) {
      const key = `${spec.kind}\n${graph}\n${iri}`;
      let stored = core.parsed.get<StoredRecord | null>(key, text);
      if (stored === undefined) {
        stored = parseStored(spec, iri, graph, text) ?? null;
        core.parsed.set(key, text, stored);
      }
      if (stored !== null) out.set(storedKey(iri, graph), stored);
    }
  }
  return out;
}

/**
 * Reads together the records that `records` refer to in `fields` (IRIs, or lists of them), each in the graph of the
 * record that refers to it, so that presenting the records one by one (inside `presentingTogether`) reads them
 * from memory.
 */
export async function prefetchReferences(
  core: Core,
  records: Iterable<StoredRecord>,
  fields: readonly string[],
): Promise<void> {
  const byGraph = new Map<string, Set<string>>();
  for (const record of records) {
    const set = byGraph.get(record.graph) ?? new Set<string>();
    byGraph.set(record.graph, set);
    for (const field of fields) {
      const value = record.json[field];
      for (const iri of Array.isArray(value) ? value : [value]) if (typeof iri === 'string') set.add(iri);
    }
  }
  for (const [graph, iris] of byGraph) if (iris.size > 0) await readTexts(core, graph, [...iris]);
}

/** The key `readStoredMany` files a record under. */
export function storedKey(iri: string, graph: string = GRAPHS.local): string {
  return `${graph}\n${iri}`;
}

function parseStored(spec: RecordSpec, iri: string, graph: string, text: string): StoredRecord | undefined {
  const index = indexQuads(parseNQuads(text));
  const types = index.get(iri)?.get(RDF('type')) ?? [];
  if (!types.some((term) => term.value === spec.types[0])) return undefined;
  const json = deepFreeze(nodeToJson(spec, iri, index));
  return Object.freeze({
    iri,
    graph,
    json,
    index,
    tombstoned: json.tombstoned === true,
    version: versionOf(text),
  });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

/** Reads a record or answers 404 naming it. */
export async function requireStored(core: Core, spec: RecordSpec, iri: string): Promise<StoredRecord> {
  const stored = await readStored(core, spec, iri);
  if (stored === undefined) throw new NotFoundError(`no ${spec.kind} ${iri}`);
  return stored;
}

/** Checks that a request body is a JSON object. */
export function requireObject(body: unknown, what = 'request body'): JsonObject {
  if (!isObject(body)) throw new BadRequestError(`${what} must be a JSON object`);
  return body;
}

/** Drops registry-only members (at any depth) from caller input: no payload may set them. */
export function withoutRegistryFields(fields: readonly FieldSpec[], input: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(input)) {
    const field = fields.find((candidate) => candidate.json === key);
    if (field?.registry === true) continue;
    if (field?.type === 'node' && value !== null) {
      out[key] =
        field.many === true && Array.isArray(value)
          ? value.map((item) => (isObject(item) ? withoutRegistryFields(field.node.fields, item) : item))
          : isObject(value)
            ? withoutRegistryFields(field.node.fields, value)
            : value;
      continue;
    }
    out[key] = value;
  }
  return out;
}

/**
 * Caller input for a record of `spec`, liberally read (see `acceptInput`): what was left out is noted for the
 * act's answer. Members a read returns (`iri`, `id`, derived ones) are left out without a word.
 */
export function acceptedInput(
  core: Core,
  spec: RecordSpec,
  input: JsonObject,
  options: Omit<AcceptOptions, 'quiet'> = {},
): JsonObject {
  const accepted = acceptInput(spec.fields, input, { ...options, quiet: ['iri', 'id', ...spec.derived] });
  core.warnings.note(accepted.warnings);
  return accepted.json;
}

/** What a create or an edit needs besides the record itself: the act it is part of, and its audit action. */
export interface EditOptions {
  readonly act: Act;
  readonly action: string;
  /** Operational rows written inside the edit's own commit, so the edit and they land together or not at all. */
  readonly inCommit?: () => void;
  readonly codeRules?: (
    quads: readonly Quad[],
    candidate: JsonObject,
  ) => Promise<ValidationResult[]> | ValidationResult[];
}

/** Creates a record at `iri` from caller input plus registry-set members, dated at the act; returns the IRI. */
export async function createRecord(
  core: Core,
  spec: RecordSpec,
  iri: string,
  input: JsonObject,
  registry: JsonObject,
  options: EditOptions,
): Promise<string> {
  // An If-Match on a request that creates the record (a deployment announcing itself) matches nothing.
  checkCondition(iri, undefined);
  const { now } = options.act;
  const candidate: JsonObject = {
    ...acceptedInput(core, spec, input),
    ...registry,
    created: now,
    modified: now,
  };
  await writeRecord(core, {
    spec,
    iri,
    candidate,
    action: options.action,
    act: options.act,
    ...codeRulesFor(options, candidate),
  });
  return iri;
}

/**
 * Applies a JSON merge patch to a stored record (absent keeps, `null` clears) and writes the merged whole,
 * which is validated again in full; `created` is kept. The patch applies to the record as stored when the edit
 * runs (edits of one record run one at a time), so concurrent patches of different members all take effect, and
 * the request's `If-Match`, if any, is checked against that record (see `editStored`).
 */
export async function patchRecord(
  core: Core,
  spec: RecordSpec,
  stored: StoredRecord,
  patch: JsonObject,
  registry: JsonObject,
  options: EditOptions,
): Promise<void> {
  const accepted = acceptedInput(core, spec, patch);
  await editStored(
    core,
    stored.iri,
    () => readStored(core, spec, stored.iri),
    (current) => {
      if (current.tombstoned) throw new TombstonedError(`${current.iri} is withdrawn and cannot be edited`);
      const candidate: JsonObject = {
        ...mergePatch(current.json, accepted),
        ...registry,
        modified: options.act.now,
      };
      if (current.json.created !== undefined) candidate.created = current.json.created;
      return {
        spec,
        iri: current.iri,
        candidate,
        action: options.action,
        act: options.act,
        ...codeRulesFor(options, candidate),
      };
    },
    options.inCommit,
  );
}

function codeRulesFor(
  options: EditOptions,
  candidate: JsonObject,
): { codeRules?: (quads: readonly Quad[]) => Promise<ValidationResult[]> | ValidationResult[] } {
  const rules = options.codeRules;
  return rules === undefined ? {} : { codeRules: (quads) => rules(quads, candidate) };
}

/**
 * Withdraws a record: it keeps resolving, marked `tombstoned`, but leaves lists and counts. Withdrawing is
 * never blocked by the record's content (a record citing a retired term can still be withdrawn).
 */
export async function tombstoneRecord(
  core: Core,
  spec: RecordSpec,
  stored: StoredRecord,
  act: Act,
): Promise<void> {
  await editStored(
    core,
    stored.iri,
    () => readStored(core, spec, stored.iri),
    (current) => {
      if (current.tombstoned) return undefined;
      const { now } = act;
      return {
        spec,
        iri: current.iri,
        candidate: { ...current.json, tombstoned: true, tombstoned_at: now, modified: now },
        action: 'tombstone',
        act,
        kind: `${spec.kind}:withdrawn`,
        validate: false,
      };
    },
  );
}

/**
 * The registry a record comes from, as record JSON reports it: `local`, or `peer` with the peer's id. Given the
 * core, a peer record also names the peer (title, base IRI), says when it was cached (`cached_at`, with `iri`),
 * whether its last refresh worked (`resolve_status` `ok` or `error`) and whether the peer is `stale` (no
 * successful contact for 90 days).
 */
export function originOf(graph: string, core?: Core, iri?: string): OriginJson {
  if (!graph.startsWith(PEER_GRAPH_PREFIX)) return { kind: 'local' };
  const id = graph.slice(PEER_GRAPH_PREFIX.length);
  if (core === undefined) return { kind: 'peer', peer_id: id };
  const peer = findPeer(core.db, id);
  const queued = iri === undefined ? undefined : findResolveRow(core.db, iri);
  const cachedAt =
    iri === undefined ? undefined : (findResolveRow(core.db, ownerOf(iri))?.resolved_at ?? undefined);
  const status = queued?.status === 'failed' ? 'error' : iri !== undefined ? 'ok' : peer?.resolve_status;
  return {
    kind: 'peer',
    peer_id: id,
    ...(peer === undefined || peer.title === null ? {} : { peer_title: peer.title }),
    ...(peer === undefined ? {} : { peer_base_iri: peer.base_iri }),
    ...(cachedAt === undefined ? {} : { cached_at: cachedAt }),
    ...(status === undefined ? {} : { resolve_status: status }),
    ...(peer !== undefined && isStale(peer) ? { stale: true } : {}),
  };
}

/**
 * Reads a record for display: this registry's own copy, else (for an IRI of another registry) the stub cached
 * from a peer, which reads with its peer origin. Never use it for an edit: stubs are not this registry's to change.
 */
export async function requireReadable(core: Core, spec: RecordSpec, iri: string): Promise<StoredRecord> {
  const local = await readStored(core, spec, iri);
  if (local !== undefined) return local;
  if (!iri.startsWith(`${core.config.baseIri}/`)) {
    const cached = await cachedRecord(core, iri);
    const stored = cached === undefined ? undefined : await readStored(core, spec, iri, cached.graph);
    if (stored !== undefined) return stored;
  }
  throw new NotFoundError(`no ${spec.kind} ${iri}`);
}

/**
 * Replaces a record's declared capability (what it produces and consumes) with the body's lists; the IRIs are
 * held to the vocabulary rule like any other write. Returns the stored capability JSON.
 */
export async function declareCapability(
  core: Core,
  spec: RecordSpec,
  stored: StoredRecord,
  body: unknown,
  options: EditOptions,
): Promise<JsonObject | undefined> {
  const capability = requireObject(body);
  const patch: JsonObject = {
    capability: { produces: capability.produces ?? [], consumes: capability.consumes ?? [] },
  };
  await patchRecord(core, spec, stored, patch, {}, options);
  const updated = await requireStored(core, spec, stored.iri);
  return isObject(updated.json.capability) ? updated.json.capability : undefined;
}

/** The IRI of a record of `kind` from its id or its full IRI (anything else: 400 naming the kind). */
export function iriOf(core: Core, kind: RecordKind, idOrIri: string): string {
  return recordIri(core.config.baseIri, kind, idOrIri);
}
