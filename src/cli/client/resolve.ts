import type { InstanceJson, ListPage, OriginJson, SoftwareJson, TypeJson } from '../../api/index.js';
import { Problem } from '../../core/errors.js';
import type { SubscriptionList, TokenList, Whoami } from '../../api/index.js';
import type { HttpClient } from './http.js';
import { UsageError } from './errors.js';

/** The kinds of record a command may name by a human name instead of an id. */
export type NamedKind = 'software' | 'deployment' | 'type' | 'subscription' | 'token';

/** One record a name could mean, as an ambiguity lists it. */
export interface Candidate {
  readonly name: string;
  readonly id: string;
  /** The field that tells it apart from the others (its software, endpoint, registry, date …). */
  readonly detail: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a reference is an identifier used as it is: a UUID, or an absolute IRI or URL. */
export function isIdentifier(ref: string): boolean {
  return UUID.test(ref) || /^[a-z][a-z0-9+.-]*:\/\//i.test(ref) || /^urn:/i.test(ref);
}

/** A name that names several records: the candidates go with it, and the exit code says so. */
export class AmbiguousNameError extends Problem {
  constructor(kind: NamedKind, name: string, candidates: readonly Candidate[]) {
    const lines = candidates.map((c) => `${c.id}  ${c.name}${c.detail === '' ? '' : `  (${c.detail})`}`);
    super(
      'ambiguous-name',
      409,
      'Ambiguous name',
      `${candidates.length} ${plural(kind)} are named "${name}": give one of their ids`,
      { hints: lines, extra: { candidates } },
    );
  }
}

/** A name that names no record; the hints list names that come close, when there are any. */
export class NameNotFoundError extends Problem {
  constructor(kind: NamedKind, name: string, close: readonly string[]) {
    super('not-found', 404, 'Not Found', `no ${kind} is named "${name}"`, {
      hints:
        close.length === 0
          ? [`give its id or IRI, or find it with reg search`]
          : [`close names: ${close.map((n) => `"${n}"`).join(', ')}`],
    });
  }
}

const plural = (kind: NamedKind): string => (kind === 'software' ? 'software records' : `${kind}s`);

/** Where a record is held, for telling records of the same name apart. */
const heldAt = (origin: OriginJson | undefined): string =>
  origin === undefined || origin.kind === 'local' ? 'local' : `from ${origin.peer_id ?? 'a peer'}`;

/** Records this registry holds are meant by a name before copies cached from peers. */
function preferLocal<T extends { origin?: OriginJson }>(items: readonly T[]): readonly T[] {
  const local = items.filter((item) => item.origin === undefined || item.origin.kind === 'local');
  return local.length > 0 ? local : items;
}

/**
 * Turns the names people use into the ids the API takes: software by name, deployments by label, artifact
 * types by slug or label, subscriptions and tokens by label. A UUID or an IRI is used as it is; a name is looked
 * up exactly, with one request; several matches are refused with the candidates, none with the close names.
 */
export class NameResolver {
  constructor(private readonly http: HttpClient) {}

  /** The id (or, for a record cached from a peer, the IRI) of the software with this name. */
  async software(ref: string): Promise<string> {
    if (isIdentifier(ref)) return ref;
    const page = await this.http.request<ListPage<SoftwareJson>>('GET', '/api/v1/software', {
      query: { name: ref, limit: 50 },
    });
    const found = preferLocal(page.items);
    return (
      this.one('software', ref, found, (item) => ({
        name: item.name ?? '',
        id: idOf(item),
        detail: [heldAt(item.origin), item.tagline].filter((part) => part !== undefined).join(', '),
      })) ??
      this.missing('software', ref, () => this.closeNames('software', ref, (item: SoftwareJson) => item.name))
    );
  }

  /** The id (or IRI) of the deployment with this label. */
  async deployment(ref: string): Promise<string> {
    if (isIdentifier(ref)) return ref;
    const page = await this.http.request<ListPage<InstanceJson>>('GET', '/api/v1/instances', {
      query: { label: ref, limit: 50 },
    });
    const found = preferLocal(page.items);
    return (
      this.one('deployment', ref, found, (item) => ({
        name: item.label,
        id: idOf(item),
        detail: [item.software_name, item.endpoint_url, heldAt(item.origin)]
          .filter((part) => part !== undefined)
          .join(', '),
      })) ??
      this.missing('deployment', ref, () =>
        this.closeNames('instances', ref, (item: InstanceJson) => item.label),
      )
    );
  }

  /** The IRI of the artifact type with this slug or label (case ignored). */
  async type(ref: string): Promise<string> {
    if (isIdentifier(ref)) return ref;
    const list = await this.http.request<{ items: TypeJson[] }>('GET', '/api/v1/types');
    const bySlug = list.items.filter((item) => item.id === ref);
    const wanted = ref.toLowerCase();
    const found =
      bySlug.length > 0 ? bySlug : list.items.filter((item) => item.label.toLowerCase() === wanted);
    const named = this.one('type', ref, found, (item) => ({
      name: item.label,
      id: item.iri,
      detail: item.source ?? '',
    }));
    if (named !== undefined) return named;
    const close = list.items
      .filter((item) => item.label.toLowerCase().includes(wanted) || item.id.includes(ref))
      .map((item) => item.label);
    throw new NameNotFoundError('type', ref, close.slice(0, 5));
  }

  /**
   * The id of the subscription with this label, among those of a deployment: the one named, else the caller's
   * own (a deployment's credential).
   */
  async subscription(ref: string, deployment: string | undefined): Promise<string> {
    if (isIdentifier(ref)) return ref;
    let owner = deployment === undefined ? undefined : await this.deployment(deployment);
    if (owner === undefined) {
      const me = await this.http.request<Whoami>('GET', '/api/v1/whoami');
      owner = me.instance ?? undefined;
    }
    if (owner === undefined) {
      throw new UsageError(
        `a subscription named by its label needs --instance: the deployment it belongs to`,
      );
    }
    const list = await this.http.request<SubscriptionList>(
      'GET',
      `/api/v1/instances/${encodeURIComponent(owner)}/subscriptions`,
    );
    const found = list.items.filter((item) => item.label === ref);
    const named = this.one('subscription', ref, found, (item) => ({
      name: item.label ?? '',
      id: item.id,
      detail: `${item.delivery_mode}, created ${item.created_at}`,
    }));
    if (named !== undefined) return named;
    throw new NameNotFoundError(
      'subscription',
      ref,
      closeOf(
        list.items.map((item) => item.label),
        ref,
      ),
    );
  }

  /** The id of the token with this label, among those of its owner (already resolved). */
  async token(ref: string, ownerPath: string): Promise<string> {
    if (isIdentifier(ref)) return ref;
    const list = await this.http.request<TokenList>('GET', `${ownerPath}/tokens`);
    const live = list.items.filter((item) => item.revoked_at === null);
    const labelled = (items: typeof list.items) => items.filter((item) => item.label === ref);
    const found = labelled(live).length > 0 ? labelled(live) : labelled(list.items);
    const named = this.one('token', ref, found, (item) => ({
      name: item.label ?? '',
      id: item.id,
      detail: `${item.prefix}, created ${item.created_at}${item.revoked_at === null ? '' : ', revoked'}`,
    }));
    if (named !== undefined) return named;
    throw new NameNotFoundError(
      'token',
      ref,
      closeOf(
        list.items.map((item) => item.label),
        ref,
      ),
    );
  }

  /** The one match, undefined for none, or the ambiguity with every candidate. */
  private one<T>(
    kind: NamedKind,
    ref: string,
    found: readonly T[],
    describe: (item: T) => Candidate,
  ): string | undefined {
    if (found.length === 1 && found[0] !== undefined) return describe(found[0]).id;
    if (found.length > 1) throw new AmbiguousNameError(kind, ref, found.map(describe));
    return undefined;
  }

  private async missing(kind: NamedKind, ref: string, close: () => Promise<string[]>): Promise<never> {
    throw new NameNotFoundError(kind, ref, await close().catch(() => []));
  }

  /** Up to five names of the collection that contain the words (the list's own contains filter). */
  private async closeNames<T>(
    collection: 'software' | 'instances',
    ref: string,
    nameOf: (item: T) => string | undefined,
  ): Promise<string[]> {
    const page = await this.http.request<ListPage<T & { id: string; iri: string }>>(
      'GET',
      `/api/v1/${collection}`,
      { query: { q: ref, limit: 5 } },
    );
    return [...new Set(page.items.map(nameOf).filter((name): name is string => name !== undefined))];
  }
}

/** The id the API takes for a record: its id when held here, its IRI when cached from a peer. */
function idOf(item: { id: string; iri: string; origin?: OriginJson }): string {
  return item.origin !== undefined && item.origin.kind !== 'local' ? item.iri : item.id;
}

/** Labels that contain the name, or that it contains, case ignored. */
function closeOf(labels: readonly (string | null)[], ref: string): string[] {
  const wanted = ref.toLowerCase();
  return [
    ...new Set(
      labels.filter(
        (label): label is string =>
          label !== null && (label.toLowerCase().includes(wanted) || wanted.includes(label.toLowerCase())),
      ),
    ),
  ].slice(0, 5);
}
