/**
 * Licences a record may cite: the bundled SPDX licences, and licences adopted here under their own IRI for
 * projects whose licence SPDX does not list. Adopting records the licence in the local graph as a
 * `dct:LicenseDocument`, which the vocabulary rule accepts in the licence slot.
 */
import { requireCurator } from '../access/policy.js';
import { BadRequestError } from '../errors.js';
import { DCT } from '../ns.js';
import type { JsonObject } from '../records/mapper.js';
import { ADOPTED_LICENSE } from '../records/type-specs.js';
import type { Core } from '../core.js';
import { readStored, requireObject, withoutRegistryFields } from '../stored/records.js';
import { attributionOf, optionalIri, refuseHeldElsewhere, requireLabel } from './types.js';
import { entriesOf, parseLimit, rankEntries, type VocabEntry } from '../discovery/vocab-search.js';
import { writeRecord, type Act } from '../stored/write-path.js';

/** One licence as `GET /api/v1/licenses` lists it. */
export interface LicenseItem {
  readonly iri: string;
  /** Short identifier: the SPDX id, else the IRI's last segment. */
  readonly id: string;
  readonly label: string;
  readonly source: 'bundled' | 'local' | 'external';
  readonly score?: number;
}

function itemOf(entry: VocabEntry, score?: number): LicenseItem {
  return {
    iri: entry.iri,
    id: entry.shortId,
    label: entry.label,
    source: entry.source,
    ...(score === undefined ? {} : { score }),
  };
}

/**
 * Adopts a licence IRI with a label (curator), so records may cite it; adopting it again replaces the label.
 * A licence the bundles already hold, or an IRI held as another kind of term or record, is a 409.
 */
export async function adoptLicense(core: Core, act: Act, body: unknown): Promise<JsonObject> {
  requireCurator(act.principal);
  const { iri: rawIri, label: rawLabel, ...rest } = requireObject(body);
  const label = requireLabel(rawLabel);
  const iri = optionalIri(rawIri);
  if (iri === undefined) throw new BadRequestError('iri is required: the licence IRI to adopt');
  await refuseHeldElsewhere(core, iri, DCT('LicenseDocument'), 'a licence');
  await writeRecord(core, {
    spec: ADOPTED_LICENSE,
    iri,
    candidate: {
      ...withoutRegistryFields(ADOPTED_LICENSE.fields, rest),
      label,
      ...attributionOf(act.principal),
    },
    action: 'license.create',
    act,
  });
  const stored = await readStored(core, ADOPTED_LICENSE, iri);
  const local = iri.startsWith(`${core.config.baseIri}/`);
  return {
    iri,
    id: iri.slice(iri.search(/[^/#]*$/)),
    label: typeof stored?.json.label === 'string' ? stored.json.label : label,
    source: local ? 'local' : 'external',
    adopted: true,
  };
}

/** Query parameters of `GET /api/v1/licenses`. */
export type LicenseListParams = Partial<Record<'q' | 'limit', string>>;

/**
 * Lists the licences a record may cite (current SPDX licences and adopted ones) by label, or with `q` searches
 * them by name, id and alias like vocabulary search (under two characters finds nothing). `limit` 1–1000,
 * default 100; `total` counts every match.
 */
export async function listLicenses(
  core: Core,
  params: LicenseListParams,
): Promise<{ items: LicenseItem[]; total: number }> {
  const limit = parseLimit(params.limit, 100, 1000);
  const entries = await entriesOf(core, ['license']);
  const q = (params.q ?? '').trim();
  if (q === '') {
    const sorted = [...entries].sort(
      (a, b) => a.label.localeCompare(b.label) || (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0),
    );
    return { items: sorted.slice(0, limit).map((entry) => itemOf(entry)), total: sorted.length };
  }
  if (q.length < 2) return { items: [], total: 0 };
  const ranked = rankEntries(entries, q);
  return {
    items: ranked.slice(0, limit).map(({ entry, score }) => itemOf(entry, score)),
    total: ranked.length,
  };
}
