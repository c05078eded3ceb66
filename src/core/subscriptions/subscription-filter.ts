import { BadRequestError, type FieldError } from '../errors.js';
import { expandId } from '../records/ids.js';
import { isObject } from '../records/json.js';
import { isAbsoluteIri, type Json, type JsonObject } from '../records/mapper.js';
import { AVAILABILITY, INSTANCE, SOFTWARE } from '../records/specs.js';
import { matchKeywordFilter } from '../vocab/keywords.js';
import type { SubscriptionFilterJson } from '../../api/operations.js';

/**
 * Subscription filters (spec §4 Subscriptions rule 2): every field is a list; values combine by OR within a
 * field and AND across fields; an empty filter matches everything. Filters are normalised once when stored and
 * compiled into sets when the advertising path loads them, so matching an artifact is a few set lookups.
 */

/** The role in which a deployment advertised an artifact. */
export type DeliveryRole = 'produced' | 'consumed';

const ROLES: readonly DeliveryRole[] = ['produced', 'consumed'];
const LIST_FIELDS = [
  'conforms_to',
  'software',
  'instance',
  'keywords',
  'license',
  'availability',
  'roles',
] as const;
const FIELDS: readonly string[] = [...LIST_FIELDS, 'q', 'exclude_own'];

/** A stored filter: every list present, `roles` defaulted to `produced`, ids expanded to IRIs (`src/api`). */
export type SubscriptionFilter = SubscriptionFilterJson;

/** What a filter is matched against: an artifact as advertised, and who advertised it. */
export interface MatchEvent {
  readonly role: DeliveryRole;
  /** The advertising deployment (null for a direct registration by a person). */
  readonly instance: string | null;
  /** The software of that deployment. */
  readonly software: string | null;
  readonly artifact: ArtifactFacts;
}

/** The fields of an artifact that filters look at. */
export interface ArtifactFacts {
  readonly iri: string;
  readonly conforms_to: string | undefined;
  readonly keywords: readonly string[];
  readonly license: string | undefined;
  /** Undefined when the artifact is not known here (a foreign IRI). */
  readonly availability: string | undefined;
  /** Title and description, lower-cased, for the `q` filter. */
  readonly text: string;
}

/** A filter turned into sets for matching. */
export interface CompiledFilter {
  readonly conformsTo: ReadonlySet<string>;
  readonly software: ReadonlySet<string>;
  readonly instance: ReadonlySet<string>;
  readonly keywords: ReadonlySet<string>;
  readonly license: ReadonlySet<string>;
  readonly availability: ReadonlySet<string>;
  readonly q: readonly string[];
  readonly roles: ReadonlySet<DeliveryRole>;
  readonly excludeOwn: boolean;
}

/** A filter with nothing in it: matches every artifact produced by another deployment. */
export const EMPTY_FILTER: SubscriptionFilter = Object.freeze<SubscriptionFilter>({
  conforms_to: [],
  software: [],
  instance: [],
  keywords: [],
  license: [],
  availability: [],
  roles: ['produced'],
  exclude_own: true,
});

type ListField = (typeof LIST_FIELDS)[number];

/** Checks and normalises one list value; returns the normalised item or a complaint. */
function checkItem(
  baseIri: string,
  field: ListField,
  value: string,
): { value: string } | { problem: string } {
  switch (field) {
    case 'conforms_to':
    case 'license':
      return isAbsoluteIri(value) ? { value } : { problem: 'must be a full IRI' };
    case 'software':
    case 'instance':
      try {
        return {
          value: expandId(baseIri, field === 'software' ? SOFTWARE.path : INSTANCE.path, value, field),
        };
      } catch {
        return { problem: 'must be a registry id or a full IRI' };
      }
    case 'availability':
      return (AVAILABILITY as readonly string[]).includes(value)
        ? { value }
        : { problem: `must be one of ${AVAILABILITY.join(', ')}` };
    case 'roles':
      return (ROLES as readonly string[]).includes(value)
        ? { value }
        : { problem: `must be one of ${ROLES.join(', ')}` };
    case 'keywords':
      return { value };
  }
}

function listOf(raw: Json | undefined, field: string, errors: FieldError[]): string[] {
  if (raw === undefined || raw === null) return [];
  const items = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(items) || !items.every((item) => typeof item === 'string' && item.trim() !== '')) {
    errors.push({ field: `filter.${field}`, message: `filter.${field} must be a list of non-empty strings` });
    return [];
  }
  return [...new Set(items.map((item) => (item as string).trim()))];
}

/**
 * Checks a filter as a caller sends it and returns its stored form; an invalid value is a 400 naming every
 * offending field (`filter.availability[1]`, ...). Bare software and deployment ids become IRIs.
 */
export function parseFilter(baseIri: string, raw: unknown): SubscriptionFilter {
  if (raw === undefined || raw === null) return EMPTY_FILTER;
  if (!isObject(raw)) throw new BadRequestError('filter must be a JSON object');
  const errors: FieldError[] = [];
  const unknown = Object.keys(raw).filter((key) => !FIELDS.includes(key));
  for (const key of unknown)
    errors.push({
      field: `filter.${key}`,
      message: `filter.${key} is not a filter field (known: ${FIELDS.join(', ')})`,
    });
  const lists = {} as Record<ListField, string[]>;
  for (const field of LIST_FIELDS) {
    lists[field] = [];
    for (const [index, value] of listOf(raw[field], field, errors).entries()) {
      const checked = checkItem(baseIri, field, value);
      if ('problem' in checked) {
        errors.push({
          field: `filter.${field}[${index}]`,
          message: `filter.${field}[${index}] "${value}" ${checked.problem}`,
        });
      } else if (!lists[field].includes(checked.value)) {
        lists[field].push(checked.value);
      }
    }
  }
  const q = listOf(raw.q, 'q', errors);
  const excludeOwn = raw.exclude_own ?? true;
  if (typeof excludeOwn !== 'boolean')
    errors.push({ field: 'filter.exclude_own', message: 'filter.exclude_own must be true or false' });
  if (errors.length > 0) {
    throw new BadRequestError(errors.map((error) => error.message).join('; '), { errors });
  }
  return {
    conforms_to: lists.conforms_to,
    software: lists.software,
    instance: lists.instance,
    keywords: lists.keywords,
    license: lists.license,
    availability: lists.availability,
    ...(q.length === 0 ? {} : { q: q.length === 1 ? (q[0] as string) : q }),
    roles: lists.roles.length === 0 ? ['produced'] : (lists.roles as DeliveryRole[]),
    exclude_own: excludeOwn === true,
  };
}

/** Compiles a stored filter into sets; keywords match case-insensitively and through the keyword list. */
export function compileFilter(filter: SubscriptionFilter): CompiledFilter {
  const keywords = new Set<string>();
  for (const keyword of filter.keywords) {
    keywords.add(keyword.toLowerCase());
    const entry = matchKeywordFilter(keyword);
    if (entry !== undefined) keywords.add(entry.label.toLowerCase());
  }
  const q = filter.q === undefined ? [] : typeof filter.q === 'string' ? [filter.q] : filter.q;
  return {
    conformsTo: new Set(filter.conforms_to),
    software: new Set(filter.software),
    instance: new Set(filter.instance),
    keywords,
    license: new Set(filter.license),
    availability: new Set(filter.availability),
    q: q.map((text) => text.toLowerCase()),
    roles: new Set(filter.roles),
    excludeOwn: filter.exclude_own,
  };
}

const anyOf = (wanted: ReadonlySet<string>, value: string | null | undefined): boolean =>
  wanted.size === 0 || (value !== null && value !== undefined && wanted.has(value));

/** Whether an advertised artifact matches the filter of a subscription owned by the deployment `owner`. */
export function matchesFilter(filter: CompiledFilter, owner: string, event: MatchEvent): boolean {
  const { artifact } = event;
  return (
    filter.roles.has(event.role) &&
    !(filter.excludeOwn && event.instance === owner) &&
    anyOf(filter.conformsTo, artifact.conforms_to) &&
    anyOf(filter.software, event.software) &&
    anyOf(filter.instance, event.instance) &&
    anyOf(filter.license, artifact.license) &&
    anyOf(filter.availability, artifact.availability) &&
    (filter.keywords.size === 0 ||
      artifact.keywords.some((keyword) => filter.keywords.has(keyword.toLowerCase()))) &&
    (filter.q.length === 0 || filter.q.some((text) => artifact.text.includes(text)))
  );
}

const text = (value: Json | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The facts filters look at, from an artifact's JSON (a candidate about to be written, or a stored record).
 * Availability is derived as the read API derives it: the most open distribution, metadata-only without any.
 * Without JSON (an artifact this registry does not hold) only the IRI is known, and no field filter matches.
 */
export function artifactFacts(iri: string, json: JsonObject | undefined): ArtifactFacts {
  const distributions = Array.isArray(json?.distributions) ? json.distributions : [];
  const ranks = distributions
    .map((item) => (isObject(item) && typeof item.availability === 'string' ? item.availability : 'public'))
    .map((value) => (AVAILABILITY as readonly string[]).indexOf(value))
    .filter((rank) => rank >= 0);
  const keywords = Array.isArray(json?.keywords)
    ? json.keywords.filter((keyword): keyword is string => typeof keyword === 'string')
    : [];
  return {
    iri,
    conforms_to: text(json?.conforms_to),
    keywords,
    license: text(json?.license),
    availability:
      json === undefined
        ? undefined
        : ranks.length === 0
          ? 'metadata-only'
          : AVAILABILITY[Math.min(...ranks)],
    text: [text(json?.title), text(json?.description)]
      .filter((part) => part !== undefined)
      .join('\n')
      .toLowerCase(),
  };
}
