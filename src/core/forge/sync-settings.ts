import { BadRequestError, type FieldError } from '../errors.js';
import { FORGE_SOURCES, type ForgeSource } from './types.js';
import { isObject, mergePatch } from '../records/json.js';
import type { Json, JsonObject } from '../records/mapper.js';
import { SYNC_FIELDS } from '../records/specs.js';

/** A field a repository sync may manage. */
export type SyncField = (typeof SYNC_FIELDS)[number];

/** The sync settings of a software record, once checked. */
export interface SyncSettings {
  readonly source: ForgeSource;
  readonly repo: string;
  readonly fields: readonly SyncField[];
  /** Absent counts as enabled: connecting a repository is asking for it to be synced. */
  readonly enabled: boolean;
}

/** GitLab projects have no homepage field, so a GitLab sync cannot manage one. */
const UNAVAILABLE: Readonly<Record<ForgeSource, readonly SyncField[]>> = {
  github: [],
  gitlab: ['homepage'],
};

/** The fields a sync from `source` may manage, in documentation order. */
export function syncableFields(source: ForgeSource | undefined): readonly SyncField[] {
  const unavailable = source === undefined ? [] : UNAVAILABLE[source];
  return SYNC_FIELDS.filter((field) => !unavailable.includes(field));
}

const REPO_PATTERNS: Readonly<Record<ForgeSource, { pattern: RegExp; form: string }>> = {
  github: { pattern: /^[A-Za-z0-9](?:[A-Za-z0-9-]*)\/[A-Za-z0-9._-]+$/, form: 'owner/name' },
  gitlab: {
    pattern: /^[A-Za-z0-9_.][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_.][A-Za-z0-9_.-]*)+$/,
    form: 'group/name or group/subgroup/name',
  },
};

const isSource = (value: unknown): value is ForgeSource =>
  typeof value === 'string' && (FORGE_SOURCES as readonly string[]).includes(value);

/**
 * The problems of sync settings that the shapes cannot see: a forge the registry does not sync from, a
 * repository name that forge does not use, and fields outside the fixed set (or outside what the forge offers).
 */
export function syncProblems(sync: JsonObject): FieldError[] {
  const problems: FieldError[] = [];
  const source = isSource(sync.source) ? sync.source : undefined;
  if (sync.source !== undefined && source === undefined) {
    problems.push({
      field: 'sync.source',
      message: `sync.source must be one of ${FORGE_SOURCES.join(', ')}, got ${JSON.stringify(sync.source)}`,
    });
  }
  if (source !== undefined && typeof sync.repo === 'string') {
    const { pattern, form } = REPO_PATTERNS[source];
    if (!pattern.test(sync.repo) || sync.repo.split('/').some((part) => part === '.' || part === '..'))
      problems.push({
        field: 'sync.repo',
        message: `sync.repo must be written ${form} for ${source}, got ${JSON.stringify(sync.repo)}`,
      });
  }
  const allowed = syncableFields(source);
  const fields = Array.isArray(sync.fields) ? sync.fields : [];
  fields.forEach((field, index) => {
    if (typeof field === 'string' && (allowed as readonly string[]).includes(field)) return;
    const why =
      source !== undefined && (SYNC_FIELDS as readonly string[]).includes(field as string)
        ? ` (${source} does not provide it)`
        : '';
    problems.push({
      field: `sync.fields[${index}]`,
      message: `sync.fields: ${JSON.stringify(field)} cannot be managed by a sync${why}; the fields a sync may manage are ${allowed.join(', ')}`,
    });
  });
  return problems;
}

/** Refuses (400) sync settings in a create or edit that name an unknown forge, a malformed repo or other fields. */
export function checkSyncInput(stored: JsonObject | undefined, input: JsonObject): void {
  const patch = input.sync;
  if (!isObject(patch)) return; // absent, cleared, or not an object (the write path names that)
  const sync = isObject(stored?.sync) ? mergePatch(stored.sync, patch) : patch;
  const problems = syncProblems(sync);
  if (problems.length === 0) return;
  const source = isSource(sync.source) ? sync.source : undefined;
  throw new BadRequestError(problems.map((problem) => problem.message).join('; '), {
    errors: problems,
    extra: { allowed_fields: [...syncableFields(source)], sources: [...FORGE_SOURCES] },
  });
}

/** Reads a stored record's sync settings; undefined when it is not connected to a repository. */
export function readSyncSettings(sync: Json | undefined): SyncSettings | undefined {
  if (!isObject(sync) || typeof sync.source !== 'string' || typeof sync.repo !== 'string') return undefined;
  const problems = syncProblems(sync);
  if (problems.length > 0) throw new BadRequestError(problems.map((problem) => problem.message).join('; '));
  const fields = Array.isArray(sync.fields) ? (sync.fields as SyncField[]) : [];
  return {
    source: sync.source as ForgeSource,
    repo: sync.repo,
    fields: SYNC_FIELDS.filter((field) => fields.includes(field)),
    enabled: sync.enabled !== false,
  };
}

/**
 * The sync block as records present it: `enabled` and `fields` always there, `last_status` `never` until the
 * first run, and `last_changed` a list.
 */
export function presentSync(sync: Json | undefined): JsonObject | undefined {
  if (!isObject(sync)) return undefined;
  return {
    ...sync,
    fields: Array.isArray(sync.fields) ? sync.fields : [],
    enabled: sync.enabled !== false,
    last_status: typeof sync.last_status === 'string' ? sync.last_status : 'never',
    last_changed: Array.isArray(sync.last_changed) ? sync.last_changed : [],
  };
}
