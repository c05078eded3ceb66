import type { ListPage, RecordIdentity, SoftwareJson, VocabHit } from '../../api/index.js';
import type { HttpClient, JsonObject, Query } from './http.js';

/** The API's record and list shapes, as the commands read them (declared in `src/api`). */
export type { InstanceJson, ListPage, SoftwareJson, TypeJson, VocabHit } from '../../api/index.js';

/** What a withdrawal printed under --json: the API answers 204, so the command reports what it did. */
export interface WithdrawResult {
  readonly id: string;
  readonly withdrawn: true;
}

/** The record collections of the API the client commands reach. */
export type Collection = 'software' | 'instances' | 'types';

/** Records and vocabulary of one registry, over HTTP. */
export class RegistryClient {
  readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /** One page of a collection. */
  list<T extends RecordIdentity>(collection: Collection, query: Query): Promise<ListPage<T>> {
    return this.http.request<ListPage<T>>('GET', `/api/v1/${collection}`, { query });
  }

  /** Every page of a collection, following `next_cursor`, as one envelope without a cursor. */
  async listAll<T extends RecordIdentity>(collection: Collection, query: Query): Promise<ListPage<T>> {
    const items: T[] = [];
    let page = await this.list<T>(collection, query);
    const seen = new Set<string>();
    items.push(...page.items);
    while (page.next_cursor !== undefined && !seen.has(page.next_cursor)) {
      seen.add(page.next_cursor);
      page = await this.list<T>(collection, { ...query, cursor: page.next_cursor });
      items.push(...page.items);
    }
    const { next_cursor: _next, ...last } = page;
    return { ...last, items, total: Math.max(page.total, items.length) };
  }

  /** One record by id or IRI. */
  get<T extends RecordIdentity>(collection: Collection, id: string): Promise<T> {
    return this.http.request<T>('GET', `/api/v1/${collection}/${encodeURIComponent(id)}`);
  }

  /** Creates a record; the API answers with the full record. */
  create<T extends RecordIdentity>(collection: Collection, body: JsonObject): Promise<T> {
    return this.http.request<T>('POST', `/api/v1/${collection}`, { body });
  }

  /** Edits a record with a JSON merge patch (null clears a field). */
  update<T extends RecordIdentity>(collection: Collection, id: string, patch: JsonObject): Promise<T> {
    return this.http.request<T>('PATCH', `/api/v1/${collection}/${encodeURIComponent(id)}`, {
      body: patch,
      contentType: 'application/merge-patch+json',
    });
  }

  /** Withdraws (tombstones) a record. */
  async withdraw(collection: Collection, id: string): Promise<WithdrawResult> {
    await this.http.request('DELETE', `/api/v1/${collection}/${encodeURIComponent(id)}`);
    return { id, withdrawn: true };
  }

  /** Searches the vocabularies the registry holds. */
  searchVocab(q: string, query: Query): Promise<ListPage<VocabHit>> {
    return this.http.request<ListPage<VocabHit>>('GET', '/api/v1/vocab/search', { query: { ...query, q } });
  }

  /** The IRI of a software given by id or IRI (instance records refer to software by IRI). */
  softwareIri(ref: string): Promise<string>;
  softwareIri(ref: string | undefined): Promise<string | undefined>;
  async softwareIri(ref: string | undefined): Promise<string | undefined> {
    if (ref === undefined || /^https?:\/\//.test(ref)) return ref;
    return (await this.get<SoftwareJson>('software', ref)).iri;
  }
}
