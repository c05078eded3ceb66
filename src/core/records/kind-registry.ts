import { VOID } from '../ns.js';
import { ARTIFACT, ARTIFACT_SERIES, RUN } from './activity-specs.js';
import { expandId } from './ids.js';
import type { RecordSpec } from './schema.js';
import { SearchReader, type SearchFieldsOfKind } from '../store/search-entry.js';
import { INSTANCE, RELEASE, SOFTWARE } from './specs.js';
import { ADOPTED_LICENSE, ARTIFACT_TYPE } from './type-specs.js';

/** How the IRIs of a kind dereference: the paths they are served at besides their own, and their API list. */
export interface Dereference {
  /** Other path segments that serve the same records (`/instances/<id>` beside `/instance/<id>`). */
  readonly aliases: readonly string[];
  /** The API list a record of the kind belongs to, relative to the base IRI. */
  readonly listing: string;
}

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
  }),
  declare('release', RELEASE, {
    dereference: { aliases: [], listing: 'api/v1/software' },
    counted: 'releases',
  }),
  declare('instance', INSTANCE, {
    dereference: { aliases: ['instances'], listing: 'api/v1/instances' },
    counted: 'instances',
    search: { title: ['label'], body: ['description'] },
  }),
  declare('artifact', ARTIFACT, {
    dereference: { aliases: ['artifacts'], listing: 'api/v1/artifacts' },
    counted: 'artifacts',
    search: { title: ['title'], body: ['description'] },
  }),
  declare('run', RUN, {
    dereference: { aliases: ['runs'], listing: 'api/v1/runs' },
    counted: 'runs',
    search: { title: ['label'], body: ['identifier', 'external_key'] },
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
