import { BadRequestError } from '../errors.js';
import { DCT, RDFS, REG } from '../ns.js';
import type { JsonObject } from '../records/mapper.js';
import { AVAILABILITY, INSTANCE } from '../records/specs.js';
import type { Core } from '../core.js';
import { HEALTH, presentInstance } from './instances.js';
import { iriPattern, listRecords, pageSize } from '../stored/listing.js';
import { memoised } from '../stored/memoised.js';
import { iriOf, readStored } from '../stored/records.js';

import { sparqlString } from '../discovery/sparql-text.js';

/** Query parameters of the deployment list. */
export type InstanceListParams = Partial<
  Record<
    'q' | 'label' | 'software' | 'release' | 'health' | 'availability' | 'registry' | 'limit' | 'cursor',
    string
  >
>;

function oneOf(name: string, value: string, allowed: readonly string[]): string {
  if (!allowed.includes(value))
    throw new BadRequestError(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return sparqlString(value);
}

function instanceFilters(core: Core, params: InstanceListParams): string[] {
  const patterns: string[] = [];
  if (params.software !== undefined)
    patterns.push(iriPattern(REG('instanceOf'), iriOf(core, 'software', params.software), 'software'));
  if (params.release !== undefined)
    patterns.push(iriPattern(REG('runsRelease'), iriOf(core, 'release', params.release), 'release'));
  if (params.health !== undefined) {
    // A deployment that was never probed holds no health value and reads `unknown`.
    patterns.push(
      `OPTIONAL { ?s <${REG('health')}> ?health } FILTER(COALESCE(STR(?health), "unknown") = ${oneOf('health', params.health, HEALTH)})`,
    );
  }
  if (params.availability !== undefined)
    patterns.push(
      `?s <${REG('availability')}> ${oneOf('availability', params.availability, AVAILABILITY)} .`,
    );
  // The exact label, so a client can turn a label into the deployment it names.
  if (params.label !== undefined)
    patterns.push(
      `?s <${RDFS('label')}> ?exactLabel . FILTER(STR(?exactLabel) = ${sparqlString(params.label)})`,
    );
  if (params.q !== undefined && params.q.trim() !== '') {
    patterns.push(
      `?s <${RDFS('label')}> ?label . OPTIONAL { ?s <${DCT('description')}> ?about }
       FILTER(CONTAINS(LCASE(CONCAT(STR(?label), " ", COALESCE(STR(?about), ""))), LCASE(${sparqlString(params.q.trim())})))`,
    );
  }
  return patterns;
}

/** Lists deployments newest first, with paging and filters (software, release, health, availability, q, label, registry). */
export async function listInstances(core: Core, params: InstanceListParams): Promise<JsonObject> {
  return memoised(core, `instance-list ${JSON.stringify(params)}`, () => listInstancesNow(core, params));
}

async function listInstancesNow(core: Core, params: InstanceListParams): Promise<JsonObject> {
  const page = await listRecords(core, {
    type: REG('Instance'),
    patterns: instanceFilters(core, params),
    limit: pageSize(params.limit),
    cursor: params.cursor,
    registry: params.registry,
  });
  const items: JsonObject[] = [];
  for (const item of page.items) {
    const stored = await readStored(core, INSTANCE, item.iri, item.graph);
    if (stored !== undefined) items.push(await presentInstance(core, stored));
  }
  return {
    items,
    total: page.total,
    ...(page.next_cursor === undefined ? {} : { next_cursor: page.next_cursor }),
  };
}
