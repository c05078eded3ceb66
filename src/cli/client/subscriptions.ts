import fs from 'node:fs';
import { Flags } from '@oclif/core';
import type { AckResult, Delivery, DeliveryPage } from '../../api/index.js';
import type {
  SubscriptionDetail,
  SubscriptionList,
  SubscriptionOut,
  SubscriptionWritten,
} from '../../core/subscriptions/subscriptions.js';
import { MalformedInputError } from '../../core/errors.js';
import type { HttpClient, JsonObject } from './http.js';
import { readJsonFile } from './input.js';
import type { Column } from './table.js';

/** The subscription shapes are the API's own answer types (contract §3.13). */
export type SubscriptionJson = SubscriptionOut;
export type SubscriptionWrittenJson = SubscriptionWritten;
export type SubscriptionListJson = SubscriptionList;
export type SubscriptionDetailJson = SubscriptionDetail;
export type DeliveryJson = Delivery;
export type DeliveryPageJson = DeliveryPage;
export type AckJson = AckResult;

/** What `reg subscribe delete` prints under --json: the API answers 204, so the command reports what it did. */
export interface DeleteResult {
  readonly id: string;
  readonly deleted: true;
}

/** The filter flags of `reg subscribe create`; each repeatable flag is one filter list. */
export const filterFlags = {
  'filter-file': Flags.string({
    description:
      'read the filter from this JSON file (- for standard input); the other filter flags add to it',
  }),
  'conforms-to': Flags.string({
    description:
      'artifact type: its IRI, or the slug or label of one in reg types list (repeatable: any of them)',
    multiple: true,
  }),
  'from-software': Flags.string({
    description: 'artifacts of any deployment of this software, by id, IRI or name (repeatable)',
    multiple: true,
  }),
  'from-instance': Flags.string({
    description: 'artifacts of this deployment, by id, IRI or label (repeatable)',
    multiple: true,
  }),
  keyword: Flags.string({ description: 'keyword, case-insensitive (repeatable)', multiple: true }),
  license: Flags.string({ description: 'licence IRI (repeatable)', multiple: true }),
  availability: Flags.string({
    description: 'availability (repeatable)',
    multiple: true,
    options: ['public', 'restricted', 'embargoed', 'metadata-only'],
  }),
  q: Flags.string({ description: 'text the title or description contains, case-insensitive' }),
  role: Flags.string({
    description: 'produced or consumed artifacts (repeatable; default produced)',
    multiple: true,
    options: ['produced', 'consumed'],
  }),
  'include-own': Flags.boolean({
    description: "also notify about the subscribing deployment's own artifacts",
  }),
};

/** The parsed filter flags. */
export interface FilterFlags {
  readonly 'filter-file'?: string | undefined;
  readonly 'conforms-to'?: string[] | undefined;
  readonly 'from-software'?: string[] | undefined;
  readonly 'from-instance'?: string[] | undefined;
  readonly keyword?: string[] | undefined;
  readonly license?: string[] | undefined;
  readonly availability?: string[] | undefined;
  readonly q?: string | undefined;
  readonly role?: string[] | undefined;
  readonly 'include-own'?: boolean | undefined;
}

/** Turns names into the IRIs a filter holds: software by name, deployments by label, types by slug or label. */
export interface FilterNames {
  softwareIri(ref: string): Promise<string>;
  deploymentIri(ref: string): Promise<string>;
  typeIri(ref: string): Promise<string>;
}

/** The filter the flags describe: the file's filter (if any) with every flag laid over it. */
export async function filterOf(flags: FilterFlags, names?: FilterNames): Promise<JsonObject> {
  const filter: JsonObject =
    flags['filter-file'] === undefined ? {} : await readJsonFile(flags['filter-file']);
  const each = async (values: string[] | undefined, iri: ((ref: string) => Promise<string>) | undefined) =>
    values === undefined || iri === undefined ? values : Promise.all(values.map((value) => iri(value)));
  const lists: [string, string[] | undefined][] = [
    ['conforms_to', await each(flags['conforms-to'], names && ((ref) => names.typeIri(ref)))],
    ['software', await each(flags['from-software'], names && ((ref) => names.softwareIri(ref)))],
    ['instance', await each(flags['from-instance'], names && ((ref) => names.deploymentIri(ref)))],
    ['keywords', flags.keyword],
    ['license', flags.license],
    ['availability', flags.availability],
    ['roles', flags.role],
  ];
  for (const [field, values] of lists) if (values !== undefined && values.length > 0) filter[field] = values;
  if (flags.q !== undefined) filter.q = flags.q;
  if (flags['include-own'] === true) filter.exclude_own = false;
  return filter;
}

/** Reads a secret from a file (trailing line breaks dropped). */
export function readSecretFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').replace(/[\r\n]+$/, '');
  } catch (error) {
    throw new MalformedInputError(`${file} cannot be read: ${(error as Error).message}`);
  }
}

/** Columns of `reg subscribe list`: the label first, the id last. */
export const SUBSCRIPTION_COLUMNS: readonly Column<SubscriptionJson>[] = [
  { header: 'LABEL', value: (row) => row.label ?? undefined, min: 10, priority: 0 },
  { header: 'MODE', value: (row) => row.delivery_mode, priority: 2 },
  {
    header: 'STATE',
    value: (row) => (row.enabled ? row.delivery_state : 'disabled'),
    kind: 'status',
    priority: 1,
  },
  { header: 'UNACKED', value: (row) => String(row.unacked_count), priority: 2 },
  { header: 'PENDING', value: (row) => String(row.pending_count), priority: 3 },
  { header: 'FAILED', value: (row) => String(row.failed_count), priority: 3 },
  { header: 'DEAD', value: (row) => String(row.dead_count), priority: 3 },
  { header: 'LAST ERROR', value: (row) => row.last_error ?? undefined, min: 10, priority: 4 },
  { header: 'CREATED', value: (row) => row.created_at, hidden: true },
  { header: 'ID', value: (row) => row.id, kind: 'id', priority: 1 },
];

const title = (row: DeliveryJson): string | undefined => {
  const value = row.notification?.artifact.title;
  return typeof value === 'string' ? value : undefined;
};

/** Columns of `reg subscribe pull`. */
export const DELIVERY_COLUMNS: readonly Column<DeliveryJson>[] = [
  { header: 'SEQ', value: (row) => String(row.seq), priority: 0 },
  { header: 'TITLE', value: title, min: 10, priority: 0 },
  { header: 'ROLE', value: (row) => row.role, priority: 2 },
  { header: 'STATUS', value: (row) => row.status, kind: 'status', priority: 1 },
  { header: 'MATCHED', value: (row) => row.matched_at, priority: 3 },
  { header: 'ARTIFACT', value: (row) => row.artifact_iri, kind: 'iri', min: 20, priority: 2 },
];

/** Subscriptions and their deliveries, over HTTP. */
export class SubscriptionClient {
  constructor(readonly http: HttpClient) {}

  private path(id: string, rest = ''): string {
    return `/api/v1/subscriptions/${encodeURIComponent(id)}${rest}`;
  }

  /** Subscribes a deployment; a webhook secret is in this answer only. */
  create(instance: string, body: JsonObject): Promise<SubscriptionWrittenJson> {
    return this.http.request('POST', `/api/v1/instances/${encodeURIComponent(instance)}/subscriptions`, {
      body,
    });
  }

  /** The subscriptions of a deployment. */
  list(instance: string): Promise<SubscriptionListJson> {
    return this.http.request('GET', `/api/v1/instances/${encodeURIComponent(instance)}/subscriptions`);
  }

  /** One subscription and its delivery log. */
  get(id: string): Promise<SubscriptionDetailJson> {
    return this.http.request('GET', this.path(id));
  }

  /** Edits a subscription (`resume: true` re-activates a suspended webhook). */
  update(id: string, body: JsonObject): Promise<SubscriptionWrittenJson> {
    return this.http.request('PATCH', this.path(id), { body });
  }

  /** Deletes a subscription and its queue. */
  async delete(id: string): Promise<DeleteResult> {
    await this.http.request('DELETE', this.path(id));
    return { id, deleted: true };
  }

  /** Reads deliveries after `cursor` (default: the acknowledged cursor). */
  pull(
    id: string,
    query: { limit?: number | undefined; cursor?: number | undefined; ack?: boolean },
  ): Promise<DeliveryPageJson> {
    return this.http.request('GET', this.path(id, '/deliveries'), {
      query: {
        limit: query.limit,
        cursor: query.cursor,
        ack: query.ack === true ? 'true' : undefined,
      },
    });
  }

  /** Acknowledges every delivery up to `cursor`. */
  ack(id: string, cursor: number): Promise<AckJson> {
    return this.http.request('POST', this.path(id, '/deliveries/ack'), { body: { cursor } });
  }
}
