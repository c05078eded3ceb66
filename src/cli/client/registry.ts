import type { InstanceJson, ListPage, RecordIdentity, SoftwareJson, VocabHit } from '../../api/index.js';
import type { HttpClient, JsonObject, Query } from './http.js';
import { isIdentifier, NameResolver } from './resolve.js';

/** The API's record and list shapes, as the commands read them (declared in `src/api`). */
export type { InstanceJson, ListPage, SoftwareJson, TypeJson, VocabHit } from '../../api/index.js';

/** What a withdrawal printed under --json: the API answers 204, so the command reports what it did. */
export interface WithdrawResult {
  readonly id: string;
  readonly withdrawn: true;
}

/**
 * Follows `next_cursor` from a first page to the last (a cursor given twice ends it, so a registry that repeats
 * itself cannot keep the client reading): the last page and every item, in order. Shared by every `--all`.
 */
export async function everyPage<T, P extends { readonly items: readonly T[]; readonly next_cursor?: C }, C>(
  first: P,
  next: (cursor: C) => Promise<P>,
): Promise<{ readonly last: P; readonly items: T[] }> {
  const items: T[] = [...first.items];
  const seen = new Set<C>();
  let page = first;
  while (page.next_cursor !== undefined && !seen.has(page.next_cursor)) {
    seen.add(page.next_cursor);
    page = await next(page.next_cursor);
    items.push(...page.items);
  }
  return { last: page, items };
}

/**
 * One page of the record list at `path`, or every page (with `all`) as one envelope without a cursor, whose
 * total is at least the items given.
 */
export async function listPath<T extends RecordIdentity>(
  http: HttpClient,
  path: string,
  query: Query,
  all = false,
): Promise<ListPage<T>> {
  const read = (cursor?: string) =>
    http.request<ListPage<T>>('GET', path, { query: cursor === undefined ? query : { ...query, cursor } });
  const first = await read();
  if (!all) return first;
  const { last, items } = await everyPage<T, ListPage<T>, string>(first, read);
  const { next_cursor: _next, ...rest } = last;
  return { ...rest, items, total: Math.max(last.total, items.length) };
}

/** The record collections of the API the client commands reach. */
export type Collection = 'software' | 'instances' | 'types';

/**
 * Records and vocabulary of one registry, over HTTP. Every method that takes the id of a record also takes its
 * name (software), label (deployment) or slug or label (type), looked up with `names`.
 */
export class RegistryClient {
  readonly http: HttpClient;
  readonly names: NameResolver;

  constructor(http: HttpClient) {
    this.http = http;
    this.names = new NameResolver(http);
  }

  /** The id or IRI of a record given by id, IRI or name. */
  resolve(collection: Collection, ref: string): Promise<string> {
    switch (collection) {
      case 'software':
        return this.names.software(ref);
      case 'instances':
        return this.names.deployment(ref);
      case 'types':
        return this.names.type(ref);
    }
  }

  /** One page of a collection. */
  list<T extends RecordIdentity>(collection: Collection, query: Query): Promise<ListPage<T>> {
    return listPath<T>(this.http, `/api/v1/${collection}`, query);
  }

  /** Every page of a collection, following `next_cursor`, as one envelope without a cursor. */
  listAll<T extends RecordIdentity>(collection: Collection, query: Query): Promise<ListPage<T>> {
    return listPath<T>(this.http, `/api/v1/${collection}`, query, true);
  }

  /** One record by id, IRI or name. */
  async get<T extends RecordIdentity>(collection: Collection, ref: string): Promise<T> {
    const id = await this.resolve(collection, ref);
    return this.http.request<T>('GET', `/api/v1/${collection}/${encodeURIComponent(id)}`);
  }

  /** Creates a record; the API answers with the full record. */
  create<T extends RecordIdentity>(collection: Collection, body: JsonObject): Promise<T> {
    return this.http.request<T>('POST', `/api/v1/${collection}`, { body });
  }

  /** Edits a record, given by id, IRI or name, with a JSON merge patch (null clears a field). */
  async update<T extends RecordIdentity>(collection: Collection, ref: string, patch: JsonObject): Promise<T> {
    const id = await this.resolve(collection, ref);
    return this.http.request<T>('PATCH', `/api/v1/${collection}/${encodeURIComponent(id)}`, {
      body: patch,
      contentType: 'application/merge-patch+json',
    });
  }

  /** Withdraws (tombstones) a record given by id, IRI or name. */
  async withdraw(collection: Collection, ref: string): Promise<WithdrawResult> {
    const id = await this.resolve(collection, ref);
    await this.http.request('DELETE', `/api/v1/${collection}/${encodeURIComponent(id)}`);
    return { id, withdrawn: true };
  }

  /** Searches the vocabularies the registry holds. */
  searchVocab(q: string, query: Query): Promise<ListPage<VocabHit>> {
    return this.http.request<ListPage<VocabHit>>('GET', '/api/v1/vocab/search', { query: { ...query, q } });
  }

  /** The IRI of a software given by id, IRI or name (instance records refer to software by IRI). */
  softwareIri(ref: string): Promise<string>;
  softwareIri(ref: string | undefined): Promise<string | undefined>;
  async softwareIri(ref: string | undefined): Promise<string | undefined> {
    if (ref === undefined || /^https?:\/\//.test(ref)) return ref;
    return (await this.get<SoftwareJson>('software', ref)).iri;
  }

  /** The IRI of a deployment given by id, IRI or label. */
  deploymentIri(ref: string): Promise<string>;
  deploymentIri(ref: string | undefined): Promise<string | undefined>;
  async deploymentIri(ref: string | undefined): Promise<string | undefined> {
    if (ref === undefined || /^https?:\/\//.test(ref)) return ref;
    return (await this.get<InstanceJson>('instances', ref)).iri;
  }

  /** The IRI of an artifact type given by IRI, slug or label; an IRI is taken as it is. */
  typeIri(ref: string): Promise<string>;
  typeIri(ref: string | undefined): Promise<string | undefined>;
  async typeIri(ref: string | undefined): Promise<string | undefined> {
    if (ref === undefined || isIdentifier(ref)) return ref;
    return this.names.type(ref);
  }
}
