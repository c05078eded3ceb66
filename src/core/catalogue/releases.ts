import { requireCurator, requireCuratorOrScope, requireSoftwareBinding } from '../access/policy.js';
import { NotFoundError, TombstonedError } from '../errors.js';
import { DCT, GRAPHS, REG } from '../ns.js';
import { idOf, mintIri } from '../records/ids.js';
import type { JsonObject } from '../records/mapper.js';
import type { RecordSpec } from '../records/schema.js';
import { RELEASE, SOFTWARE } from '../records/specs.js';
import type { Core } from '../core.js';
import { iriPattern, listAllRecords } from '../stored/listing.js';
import { memoised } from '../stored/memoised.js';
import type { Act } from '../stored/write-path.js';
import {
  createRecord,
  iriOf,
  originOf,
  prefetchReferences,
  readStored,
  readStoredMany,
  requireObject,
  requireReadable,
  requireStored,
  storedKey,
  type StoredRecord,
  tombstoneRecord,
  presentingTogether,
} from '../stored/records.js';
import { withEmptyLists } from './software.js';
import { releasesFromIndex } from './software-counts.js';
import { presentCapability } from '../discovery/terms.js';

/**
 * The release list is not paged for clients (the store is read a page at a time); a software with more releases
 * than this lists the newest this many.
 */
const RELEASE_LIST_MAX = 10_000;

/** Reads a record another record refers to: from the referrer's graph first, then from the local graph. */
export async function readRelated(
  core: Core,
  spec: RecordSpec,
  iri: string,
  graph: string,
): Promise<StoredRecord | undefined> {
  return (
    (await readStored(core, spec, iri, graph)) ??
    (graph === GRAPHS.local ? undefined : await readStored(core, spec, iri))
  );
}

/** The name of the software a record refers to, when it is held. */
export async function softwareName(core: Core, iri: unknown, graph: string): Promise<string | undefined> {
  if (typeof iri !== 'string') return undefined;
  const name = (await readRelated(core, SOFTWARE, iri, graph))?.json.name;
  return typeof name === 'string' ? name : undefined;
}

/** The release record as the API returns it: stored fields, the software's name, described capability types. */
export async function presentRelease(core: Core, stored: StoredRecord): Promise<JsonObject> {
  const { tombstoned: _t, tombstoned_at: _at, ...json } = withEmptyLists(RELEASE, stored.json);
  const name = await softwareName(core, json.software, stored.graph);
  const capability = await presentCapability(core, json.capability, stored.iri, 'release');
  const out: JsonObject = {
    iri: stored.iri,
    id: idOf(stored.iri),
    ...json,
    ...(name === undefined ? {} : { software_name: name }),
    ...(capability === undefined ? {} : { capability }),
    origin: originOf(stored.graph, core, stored.iri),
  };
  if (stored.tombstoned) out.tombstoned = true;
  return out;
}

/** Reads one release by id or IRI; a withdrawn release still resolves, marked `tombstoned`. */
export async function getRelease(core: Core, id: string): Promise<JsonObject> {
  const iri = iriOf(core, 'release', id);
  return memoised(core, `release ${iri}`, async () =>
    presentRelease(core, await requireReadable(core, RELEASE, iri)),
  );
}

/** Lists the live releases of a software, newest registered first, as `{items, total}` (not paged). */
export async function listReleases(core: Core, softwareId: string): Promise<JsonObject> {
  const iri = iriOf(core, 'software', softwareId);
  return memoised(core, `release-list ${iri}`, () => presentingTogether(() => listReleasesNow(core, iri)));
}

async function listReleasesNow(core: Core, iri: string): Promise<JsonObject> {
  const software = await requireStored(core, SOFTWARE, iri);
  // From the lineage index (before the query index has loaded, and without a request to an external store).
  const page =
    releasesFromIndex(core, software.iri, RELEASE_LIST_MAX) ??
    (await listAllRecords(
      core,
      {
        type: REG('Release'),
        patterns: [iriPattern(DCT('isVersionOf'), software.iri, 'software')],
        registry: 'local',
      },
      RELEASE_LIST_MAX,
    ));
  const items: JsonObject[] = [];
  const records = await readStoredMany(core, RELEASE, page.items);
  await prefetchReferences(core, records.values(), ['software']);
  for (const item of page.items) {
    const stored = records.get(storedKey(item.iri, item.graph));
    if (stored !== undefined) items.push(await presentRelease(core, stored));
  }
  return { items, total: page.total };
}

/**
 * Registers a release of a software (curator role or `register:software`). The software comes from the path,
 * never from the body; versions may repeat. Downloads and the capability are validated with the rest.
 */
export async function createRelease(
  core: Core,
  act: Act,
  softwareId: string,
  body: unknown,
): Promise<JsonObject> {
  requireCuratorOrScope(act.principal, 'register:software');
  const input = requireObject(body);
  const software = await requireStored(core, SOFTWARE, iriOf(core, 'software', softwareId));
  requireSoftwareBinding(act.principal, software.iri);
  if (software.tombstoned) {
    throw new TombstonedError(`${software.iri} is withdrawn; no release can be added to it`);
  }
  const iri = mintIri(core.config.baseIri, RELEASE.path);
  await createRecord(
    core,
    RELEASE,
    iri,
    input,
    { software: software.iri },
    {
      act,
      action: 'release.create',
    },
  );
  return presentRelease(core, await requireStored(core, RELEASE, iri));
}

/** Withdraws a release through its own software (curator); a release of another software is a 404. */
export async function withdrawRelease(
  core: Core,
  act: Act,
  softwareId: string,
  releaseId: string,
): Promise<void> {
  requireCurator(act.principal);
  const software = await requireStored(core, SOFTWARE, iriOf(core, 'software', softwareId));
  const release = await requireStored(core, RELEASE, iriOf(core, 'release', releaseId));
  if (release.json.software !== software.iri)
    throw new NotFoundError(`no release ${release.iri} of software ${software.iri}`);
  await tombstoneRecord(core, RELEASE, release, act);
}
