import { VOID } from '../ns.js';
import { ARTIFACT, ARTIFACT_SERIES, RUN, RUN_STATUSES } from './activity-specs.js';
import { expandId } from './ids.js';
import type { RecordSpec } from './schema.js';
import { SearchReader, type SearchFieldsOfKind } from '../store/search-entry.js';
import { AVAILABILITY, HEALTH, INSTANCE, RELEASE, SOFTWARE } from './specs.js';
import { ADOPTED_LICENSE, ARTIFACT_TYPE } from './type-specs.js';

/** How the IRIs of a kind dereference: the paths they are served at besides their own, and their API list. */
export interface Dereference {
  /** Other path segments that serve the same records (`/instances/<id>` beside `/instance/<id>`). */
  readonly aliases: readonly string[];
  /** The API list a record of the kind belongs to, relative to the base IRI. */
  readonly listing: string;
}

/**
 * How the value of a list filter selects records:
 * - `text`: the value, case-insensitively, within any of the JSON `fields` (an empty value selects everything);
 * - `exact`: the whole text of `field`, so a client can turn a name into the record it names;
 * - `value`: `field` holds the value (one of `values` when given, else a 400; a record without the field reads
 *   `absent`);
 * - `iri`: `field` holds the IRI (with `spdx`, a bare SPDX licence id stands for its IRI);
 * - `record`: `field` holds the record of kind `of` named by id or IRI;
 * - `custom`: selected by the kind's list service, for what a field alone does not say (a derived value, a path
 *   through other records, a vocabulary lookup).
 */
export type ListMatch =
  | { readonly by: 'text'; readonly fields: readonly string[] }
  | { readonly by: 'exact'; readonly field: string }
  | {
      readonly by: 'value';
      readonly field: string;
      readonly values?: readonly string[];
      readonly absent?: string;
    }
  | { readonly by: 'iri'; readonly field: string; readonly spdx?: boolean }
  | { readonly by: 'record'; readonly field: string; readonly of: string }
  | { readonly by: 'custom' };

/** A query parameter of a kind's API list: its name, what it selects, and how. */
export interface ListFilter {
  readonly param: string;
  readonly summary: string;
  readonly match: ListMatch;
}

/** The paging and origin parameters every list takes besides its filters. */
export const LIST_PAGING: readonly ListFilter[] = [
  {
    param: 'registry',
    summary: 'only records of this registry (`local`) or of one peer (its base IRI)',
    match: { by: 'custom' },
  },
  { param: 'limit', summary: 'items per page', match: { by: 'custom' } },
  { param: 'cursor', summary: 'the `next_cursor` of the previous page', match: { by: 'custom' } },
];

/**
 * One record kind, declared once. Every table that needs a kind (the class that marks it, where its IRIs are
 * minted and served, whether it is counted, how an id becomes its IRI) derives from here, and the mapping of its
 * fields is its `spec`. A new kind is one entry here plus its spec.
 */
export interface KindDeclaration {
  readonly kind: string;
  /** The mapper's description of the kind (fields, minted path, RDF types); none for the reference bundles. */
  readonly spec?: RecordSpec;
  /** The class that marks a record of this kind among its types. */
  readonly marker: string;
  /** Present when the kind's IRIs dereference to a record page and RDF. */
  readonly dereference?: Dereference;
  /** The plural under which the kind is counted (registry summary, metrics); absent: not counted. */
  readonly counted?: string;
  /**
   * Present when free-text search finds records of the kind: the JSON fields of its title (the first present
   * wins) and of its other searchable text, in order.
   */
  readonly search?: { readonly title: readonly string[]; readonly body: readonly string[] };
  /** The filters of the kind's API list, in the order they are documented. */
  readonly filters?: readonly ListFilter[];
}

const declare = <
  const K extends string,
  const R extends Omit<KindDeclaration, 'kind' | 'spec' | 'marker'> & { marker?: string } = object,
>(
  kind: K,
  spec: RecordSpec | undefined,
  rest?: R,
) => {
  const marker = rest?.marker ?? spec?.types[0];
  if (marker === undefined) throw new Error(`record kind ${kind} has no class that marks it`);
  if (spec !== undefined && spec.kind !== kind)
    throw new Error(`record kind ${kind} has the spec of ${spec.kind}`);
  return { ...rest, kind, ...(spec === undefined ? {} : { spec }), marker } as KindDeclaration &
    R & { kind: K };
};

/** Every record kind, in the order counts list them. */
export const KINDS = [
  declare('software', SOFTWARE, {
    dereference: { aliases: [], listing: 'api/v1/software' },
    counted: 'software',
    search: { title: ['name'], body: ['tagline', 'description'] },
    filters: [
      {
        param: 'q',
        summary: 'words in the name, tagline or description',
        match: { by: 'text', fields: ['name', 'tagline', 'description'] },
      },
      { param: 'name', summary: 'the exact name', match: { by: 'exact', field: 'name' } },
      {
        param: 'kind',
        summary: 'a kind of software (`cli`, `service`, …)',
        match: { by: 'value', field: 'kinds' },
      },
      { param: 'topic', summary: 'a topic IRI', match: { by: 'iri', field: 'topics' } },
      {
        param: 'keyword',
        summary: 'a keyword (label, slug or alias of the keyword list, or free text)',
        match: { by: 'custom' },
      },
      {
        param: 'license',
        summary: 'a licence IRI or SPDX id',
        match: { by: 'iri', field: 'license', spdx: true },
      },
      { param: 'publisher', summary: 'the publisher, by IRI or name', match: { by: 'custom' } },
      {
        param: 'produces',
        summary: 'an artifact type the software (or one of its releases) declares it produces',
        match: { by: 'custom' },
      },
      {
        param: 'consumes',
        summary: 'an artifact type the software (or one of its releases) declares it consumes',
        match: { by: 'custom' },
      },
    ],
  }),
  declare('release', RELEASE, {
    dereference: { aliases: [], listing: 'api/v1/software' },
    counted: 'releases',
  }),
  declare('instance', INSTANCE, {
    dereference: { aliases: ['instances'], listing: 'api/v1/instances' },
    counted: 'instances',
    search: { title: ['label'], body: ['description'] },
    filters: [
      {
        param: 'software',
        summary: 'the software deployed (id or IRI)',
        match: { by: 'record', field: 'software', of: 'software' },
      },
      {
        param: 'release',
        summary: 'the release it runs (id or IRI)',
        match: { by: 'record', field: 'release', of: 'release' },
      },
      {
        param: 'health',
        summary: 'its health, as last probed',
        match: { by: 'value', field: 'health', values: HEALTH, absent: 'unknown' },
      },
      {
        param: 'availability',
        summary: 'how open its service is',
        match: { by: 'value', field: 'availability', values: AVAILABILITY },
      },
      { param: 'label', summary: 'the exact label', match: { by: 'exact', field: 'label' } },
      {
        param: 'q',
        summary: 'words in the label or description',
        match: { by: 'text', fields: ['label', 'description'] },
      },
    ],
  }),
  declare('artifact', ARTIFACT, {
    dereference: { aliases: ['artifacts'], listing: 'api/v1/artifacts' },
    counted: 'artifacts',
    search: { title: ['title'], body: ['description'] },
    filters: [
      {
        param: 'q',
        summary: 'words in the title or description',
        match: { by: 'text', fields: ['title', 'description'] },
      },
      {
        param: 'conforms_to',
        summary: 'the artifact type (IRI, or the id of a type of this registry)',
        match: { by: 'custom' },
      },
      {
        param: 'license',
        summary: 'a licence IRI or SPDX id',
        match: { by: 'iri', field: 'license', spdx: true },
      },
      {
        param: 'availability',
        summary: 'how open its most open distribution is (`metadata-only` without any)',
        match: { by: 'custom' },
      },
      {
        param: 'keyword',
        summary: 'a keyword (label, slug or alias of the keyword list, a theme IRI, or free text)',
        match: { by: 'custom' },
      },
      {
        param: 'instance',
        summary: 'a deployment that generated, used or registered it',
        match: { by: 'custom' },
      },
      {
        param: 'software',
        summary: 'software one of whose deployments generated, used or registered it',
        match: { by: 'custom' },
      },
      { param: 'run', summary: 'a run that generated or used it', match: { by: 'custom' } },
      {
        param: 'content',
        summary: 'the content it carries: an `ni:` name or a bare digest',
        match: { by: 'custom' },
      },
    ],
  }),
  declare('run', RUN, {
    dereference: { aliases: ['runs'], listing: 'api/v1/runs' },
    counted: 'runs',
    search: { title: ['label'], body: ['identifier', 'external_key'] },
    filters: [
      {
        param: 'instance',
        summary: 'the deployment that performed it (id or IRI)',
        match: { by: 'record', field: 'instance', of: 'instance' },
      },
      { param: 'software', summary: 'the software of that deployment (id or IRI)', match: { by: 'custom' } },
      {
        param: 'status',
        summary: 'its status',
        match: { by: 'value', field: 'status', values: [...RUN_STATUSES, 'unknown'], absent: 'unknown' },
      },
      {
        param: 'q',
        summary: 'words in the label, identifier or key',
        match: { by: 'text', fields: ['label', 'identifier', 'external_key'] },
      },
    ],
  }),
  declare('type', ARTIFACT_TYPE, { dereference: { aliases: [], listing: 'api/v1/types' } }),
  declare('artifact-series', ARTIFACT_SERIES),
  declare('license', ADOPTED_LICENSE),
  declare('bundle', undefined, { marker: VOID('Dataset') }),
] as const;

/** A kind whose IRIs dereference to a record. */
export type RecordKind = Extract<(typeof KINDS)[number], { readonly dereference: object }>['kind'];

/** The declaration of a kind. */
export function kindDeclaration(kind: string): KindDeclaration | undefined {
  return KINDS.find((entry) => entry.kind === kind);
}

/** The kinds whose IRIs dereference, with where they are minted and listed. */
export const DEREFERENCEABLE: ReadonlyMap<
  RecordKind,
  { readonly segment: string } & Dereference & { marker: string }
> = new Map(
  KINDS.flatMap((entry) =>
    entry.dereference === undefined || entry.spec === undefined
      ? []
      : [
          [
            entry.kind as RecordKind,
            { segment: entry.spec.path, marker: entry.marker, ...entry.dereference },
          ],
        ],
  ),
);

/** The counted kinds with their plural label, in order. */
export const COUNTED_KINDS: ReadonlyArray<readonly [kind: string, label: string]> = KINDS.flatMap((entry) =>
  entry.counted === undefined ? [] : [[entry.kind, entry.counted] as const],
);

/** The kind each marking class stands for. */
const KIND_BY_CLASS: ReadonlyMap<string, string> = new Map(KINDS.map((entry) => [entry.marker, entry.kind]));

/** The kind a class marks, if any. */
export function kindOfClass(cls: string): string | undefined {
  return KIND_BY_CLASS.get(cls);
}

/**
 * The IRI of a record of `kind` from its id (a slug under the kind's minted path) or its full IRI; anything else
 * is a 400 naming `field` (by default the kind).
 */
export function recordIri(baseIri: string, kind: RecordKind, idOrIri: string, field: string = kind): string {
  const declared = DEREFERENCEABLE.get(kind);
  if (declared === undefined) throw new Error(`record kind ${kind} is not minted here`);
  return expandId(baseIri, declared.segment, idOrIri, field);
}

/** A kind free-text search finds. */
export type SearchKind = Extract<(typeof KINDS)[number], { readonly search: object }>['kind'];

/** The kinds free-text search finds, in their declared order. */
export const SEARCH_KINDS: readonly SearchKind[] = KINDS.flatMap((entry) =>
  'search' in entry ? [entry.kind as SearchKind] : [],
);

/** The predicates (current, then legacy) of a kind's JSON fields, in the order named. */
function predicatesOf(spec: RecordSpec, fields: readonly string[]): string[] {
  return fields.flatMap((json) => {
    const field = spec.fields.find((candidate) => candidate.json === json);
    if (field === undefined) throw new Error(`record kind ${spec.kind} has no field ${json} to search`);
    return [field.predicate, ...(field.legacy ?? [])];
  });
}

/** Reads what each searchable kind contributes to search, from the fields declared above. */
export const SEARCH_READER = new SearchReader(
  new Map<string, SearchFieldsOfKind>(
    KINDS.flatMap((entry) =>
      entry.search === undefined || entry.spec === undefined
        ? []
        : [
            [
              entry.kind,
              {
                title: predicatesOf(entry.spec, entry.search.title),
                body: predicatesOf(entry.spec, entry.search.body),
              },
            ],
          ],
    ),
  ),
);

/** A kind whose API list takes filters. */
export type ListedKind = Extract<(typeof KINDS)[number], { readonly filters: object }>['kind'];

type FiltersOf<K extends ListedKind> = Extract<
  (typeof KINDS)[number],
  { readonly kind: K }
>['filters'][number];

/** The query parameters of a kind's API list: its filters, then paging and origin. */
export type ListParams<K extends ListedKind> = Partial<
  Record<FiltersOf<K>['param'] | 'registry' | 'limit' | 'cursor', string>
>;

/** The filters of a kind's list that its list service selects itself. */
export type CustomFilterParam<K extends ListedKind> = Extract<
  FiltersOf<K>,
  { readonly match: { readonly by: 'custom' } }
>['param'];

/** The filters of a kind's API list, then paging and origin, as declared above. */
export function listFilters(kind: ListedKind): readonly ListFilter[] {
  return [...(kindDeclaration(kind)?.filters ?? []), ...LIST_PAGING];
}

/** The query parameter names of a kind's API list. */
export function listParamNames<K extends ListedKind>(kind: K): (keyof ListParams<K>)[] {
  return listFilters(kind).map((filter) => filter.param as keyof ListParams<K>);
}

/** The predicate a kind's JSON field is written with. */
export function predicateOf(kind: string, json: string): string {
  const spec = kindDeclaration(kind)?.spec;
  const field = spec?.fields.find((candidate) => candidate.json === json);
  if (field === undefined) throw new Error(`record kind ${kind} has no field ${json}`);
  return field.predicate;
}
