import { ARTIFACT } from '../records/activity-specs.js';
import { algorithmOfIri } from '../records/content-id.js';
import { idOf } from '../records/ids.js';
import { isObject } from '../records/json.js';
import type { Json, JsonObject } from '../records/mapper.js';
import type { Core } from '../core.js';
import { memoised } from '../stored/memoised.js';
import { iriOf, originOf, requireReadable, type StoredRecord } from '../stored/records.js';
import { withEmptyLists } from '../catalogue/software.js';
import { describeTerm } from '../discovery/terms.js';

/** Availability values from most to least open. */
const OPENNESS = ['public', 'restricted', 'embargoed', 'metadata-only'] as const;

function presentDistribution(item: Json): Json {
  if (!isObject(item)) return item;
  const out: JsonObject = { ...item };
  const checksum = out.checksum;
  if (isObject(checksum) && typeof checksum.algorithm === 'string') {
    out.checksum = { ...checksum, algorithm: algorithmOfIri(checksum.algorithm) };
  }
  return out;
}

/** A producer claim reads back as the agent it names. */
function presentClaim(claim: Json | undefined): Json | undefined {
  return isObject(claim) && isObject(claim.agent) ? claim.agent : undefined;
}

/**
 * The artifact as the API returns it: stored fields, its type described, producer claims as agents, checksum
 * algorithms by name, and the derived availability (most open distribution; metadata-only without any) and
 * content identifiers.
 */
export async function presentArtifact(core: Core, stored: StoredRecord): Promise<JsonObject> {
  const {
    tombstoned: _t,
    tombstoned_at: _at,
    themes: _themes,
    ...json
  } = withEmptyLists(ARTIFACT, stored.json);
  const distributions = (Array.isArray(json.distributions) ? json.distributions : []).map(
    presentDistribution,
  );
  const available = distributions
    .map((item) => (isObject(item) && typeof item.availability === 'string' ? item.availability : 'public'))
    .map((value) => OPENNESS.indexOf(value as (typeof OPENNESS)[number]))
    .filter((rank) => rank >= 0);
  const identifiers = distributions.flatMap((item) =>
    isObject(item) && typeof item.content_identifier === 'string' ? [item.content_identifier] : [],
  );
  const producedBy = presentClaim(json.produced_by);
  const producedByUser = presentClaim(json.produced_by_user);
  const out: JsonObject = {
    iri: stored.iri,
    id: idOf(stored.iri),
    ...json,
    distributions,
    content_identifiers: [...new Set(identifiers)],
    availability: available.length === 0 ? 'metadata-only' : OPENNESS[Math.min(...available)]!,
    origin: originOf(stored.graph, core, stored.iri),
  };
  delete out.produced_by;
  delete out.produced_by_user;
  if (producedBy !== undefined) out.produced_by = producedBy;
  if (producedByUser !== undefined) out.produced_by_user = producedByUser;
  if (typeof json.conforms_to === 'string')
    out.conforms_to = (await describeTerm(core, json.conforms_to)) as unknown as JsonObject;
  if (stored.tombstoned) out.tombstoned = true;
  return out;
}

/** Reads one artifact by id or IRI (anonymous reads allowed when reads are public). */
export async function getArtifact(core: Core, id: string): Promise<JsonObject> {
  const iri = iriOf(core, 'artifact', id);
  return memoised(core, `artifact ${iri}`, async () =>
    presentArtifact(core, await requireReadable(core, ARTIFACT, iri)),
  );
}
