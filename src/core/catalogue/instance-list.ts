import { REG } from '../ns.js';
import type { JsonObject } from '../records/mapper.js';
import type { ListParams } from '../records/kind-registry.js';
import { INSTANCE } from '../records/specs.js';
import type { Core } from '../core.js';
import { prepareInstances, presentInstance } from './instances.js';
import { filterConditions, filterPatterns } from '../stored/list-filters.js';
import { listRecords, pageSize } from '../stored/listing.js';
import { memoised } from '../stored/memoised.js';
import { readStoredMany, storedKey, presentingTogether } from '../stored/records.js';

/** Query parameters of the deployment list (declared with the kind, in `records/kind-registry.ts`). */
export type InstanceListParams = ListParams<'instance'>;

/** Lists deployments newest first, with paging and filters (software, release, health, availability, q, label, registry). */
export async function listInstances(core: Core, params: InstanceListParams): Promise<JsonObject> {
  return memoised(core, `instance-list ${JSON.stringify(params)}`, () =>
    presentingTogether(() => listInstancesNow(core, params)),
  );
}

async function listInstancesNow(core: Core, params: InstanceListParams): Promise<JsonObject> {
  const page = await listRecords(core, {
    type: REG('Instance'),
    patterns: filterPatterns(core, 'instance', params, {}) ?? [],
    conditions: filterConditions(core, 'instance', params),
    limit: pageSize(params.limit),
    cursor: params.cursor,
    registry: params.registry,
  });
  const items: JsonObject[] = [];
  const records = await readStoredMany(core, INSTANCE, page.items);
  await prepareInstances(core, [...records.values()]);
  for (const item of page.items) {
    const stored = records.get(storedKey(item.iri, item.graph));
    if (stored !== undefined) items.push(await presentInstance(core, stored));
  }
  return {
    items,
    total: page.total,
    ...(page.next_cursor === undefined ? {} : { next_cursor: page.next_cursor }),
  };
}
