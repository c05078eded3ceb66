import { requireCurator, requireCuratorOrScope } from '../access/policy.js';
import { DCT, REG, SCHEMA, SH } from '../ns.js';
import { idOf, mintIri } from '../records/ids.js';
import type { JsonObject } from '../records/mapper.js';
import type { RecordSpec } from '../records/schema.js';
import { SOFTWARE } from '../records/specs.js';
import type { ListParams } from '../records/kind-registry.js';
import { filterConditions, filterPatterns, type CustomFilters } from '../stored/list-filters.js';
import { matchKeywordFilter, normaliseKeywords } from '../vocab/keywords.js';
import type { ValidationResult } from '../validate/index.js';
import type { Core } from '../core.js';
import { facetCounts, iriPattern, listRecords, pageSize, type ListQuery } from '../stored/listing.js';
import {
  createRecord,
  declareCapability,
  iriOf,
  originOf,
  patchRecord,
  readStoredMany,
  requireObject,
  requireReadable,
  requireStored,
  storedKey,
  type StoredRecord,
  tombstoneRecord,
  presentingTogether,
} from '../stored/records.js';
import { memoised } from '../stored/memoised.js';
import { FACT, LINK } from '../store/lineage/lineage-facts.js';
import type { IndexCondition } from '../store/graph/kind-pages.js';
import type { Act } from '../stored/write-path.js';
import { sparqlString } from '../discovery/sparql-text.js';
import { softwareCounts, softwareCountsOf } from './software-counts.js';
import { checkSyncInput, presentSync } from '../forge/sync-settings.js';
import { describeTerm, describeTerms, presentCapability } from '../discovery/terms.js';

/** Adds an empty list for every list field a record does not hold, so clients always get arrays. */
export function withEmptyLists(spec: RecordSpec, json: JsonObject): JsonObject {
  const out = { ...json };
  for (const field of spec.fields)
    if (field.many === true && field.registry !== true && out[field.json] === undefined) out[field.json] = [];
  return out;
}

/** The software record as the API returns it: stored fields, described terms and derived counts. */
export async function presentSoftware(core: Core, stored: StoredRecord): Promise<JsonObject> {
  const { tombstoned: _t, tombstoned_at: _at, ...json } = withEmptyLists(SOFTWARE, stored.json);
  const kinds = (json.kinds ?? []) as string[];
  const capability = await presentCapability(core, json.capability, stored.iri, 'software');
  const sync = presentSync(json.sync);
  const out: JsonObject = {
    iri: stored.iri,
    id: idOf(stored.iri),
    ...json,
    ...(kinds[0] === undefined ? {} : { kind: kinds[0] }),
    deployable: json.deployable !== false,
    topics: (await describeTerms(core, json.topics)) as unknown as JsonObject[],
    ...(capability === undefined ? {} : { capability }),
    ...(sync === undefined ? {} : { sync }),
    ...(await softwareCounts(core, stored.iri)),
    origin: originOf(stored.graph, core, stored.iri),
  };
  if (typeof json.license === 'string') {
    const label = (await describeTerm(core, json.license)).label;
    if (label !== undefined) out.license_label = label;
  }
  if (stored.tombstoned) out.tombstoned = true;
  return out;
}

/** Refuses a software record whose registration clients cannot be tied to one issuer (spec §4 rule 2). */
function issuerRule(core: Core): (quads: unknown, candidate: JsonObject) => ValidationResult[] {
  return (_quads, candidate) => {
    const clients = candidate.registration_clients;
    const { issuer, workloadIssuers } = core.config.oidc;
    const ambiguous = issuer === undefined && workloadIssuers.length > 1;
    if (
      !Array.isArray(clients) ||
      clients.length === 0 ||
      candidate.registration_issuer !== undefined ||
      !ambiguous
    )
      return [];
    return [
      {
        severity: 'violation',
        field: 'registration_issuer',
        message:
          'registration_issuer: several issuers are accepted and none is primary, so registration_clients cannot be read without naming their issuer; set registration_issuer',
        focusNode: '',
        path: REG('registrationIssuer'),
        component: SH('MinCountConstraintComponent'),
      },
    ];
  };
}

/**
 * Matches keywords against the registry's keyword list: a match is stored as the list's preferred label
 * (`shacl shapes` becomes `SHACL`), anything else verbatim; blanks and repeats are dropped.
 */
function withMatchedKeywords(body: JsonObject): JsonObject {
  const input = withKindsOfOlderClients(body);
  const keywords = typeof input.keywords === 'string' ? [input.keywords] : input.keywords;
  if (
    !Array.isArray(keywords) ||
    !keywords.every((keyword): keyword is string => typeof keyword === 'string')
  )
    return input;
  return { ...input, keywords: normaliseKeywords(keywords).labels };
}

/** Older clients send the singular `kind`: it is read as `kinds` of one when `kinds` is not sent. */
function withKindsOfOlderClients(input: JsonObject): JsonObject {
  const { kind, ...rest } = input;
  if (kind === undefined || rest.kinds !== undefined) return rest;
  return { ...rest, kinds: kind === null ? null : [kind] };
}

/** Registers a software record (curator role or `register:software`). */
export async function createSoftware(core: Core, act: Act, body: unknown): Promise<JsonObject> {
  requireCuratorOrScope(act.principal, 'register:software');
  const input = withMatchedKeywords(requireObject(body));
  checkSyncInput(undefined, input);
  const iri = mintIri(core.config.baseIri, SOFTWARE.path);
  await createRecord(
    core,
    SOFTWARE,
    iri,
    { deployable: true, ...input },
    {},
    {
      act,
      action: 'software.create',
      codeRules: issuerRule(core),
    },
  );
  return presentSoftware(core, await requireStored(core, SOFTWARE, iri));
}

/** Reads one software record by id or IRI; withdrawn records still resolve, marked `tombstoned`. */
export async function getSoftware(core: Core, id: string): Promise<JsonObject> {
  const iri = iriOf(core, 'software', id);
  return memoised(core, `software ${iri}`, async () =>
    presentSoftware(core, await requireReadable(core, SOFTWARE, iri)),
  );
}

/** Edits a software record with a JSON merge patch (curator). */
export async function updateSoftware(core: Core, act: Act, id: string, body: unknown): Promise<JsonObject> {
  requireCurator(act.principal);
  const patch = withMatchedKeywords(requireObject(body));
  const stored = await requireStored(core, SOFTWARE, iriOf(core, 'software', id));
  checkSyncInput(stored.json, patch);
  await patchRecord(
    core,
    SOFTWARE,
    stored,
    patch,
    {},
    {
      act,
      action: 'software.update',
      codeRules: issuerRule(core),
    },
  );
  return presentSoftware(core, await requireStored(core, SOFTWARE, stored.iri));
}

/** Withdraws a software record (curator). */
export async function withdrawSoftware(core: Core, act: Act, id: string): Promise<void> {
  requireCurator(act.principal);
  await tombstoneRecord(
    core,
    SOFTWARE,
    await requireStored(core, SOFTWARE, iriOf(core, 'software', id)),
    act,
  );
}

/** Replaces the declared capability of a software (curator); the IRIs are held to the vocabulary rule. */
export async function declareSoftwareCapability(
  core: Core,
  act: Act,
  id: string,
  body: unknown,
): Promise<JsonObject> {
  requireCurator(act.principal);
  const stored = await requireStored(core, SOFTWARE, iriOf(core, 'software', id));
  const capability = await declareCapability(core, SOFTWARE, stored, body, {
    act,
    action: 'capability.declare',
  });
  return (await presentCapability(core, capability, stored.iri, 'software')) ?? {};
}

/** Query parameters of the software list (declared with the kind, in `records/kind-registry.ts`). */
export type SoftwareListParams = ListParams<'software'>;

/** The filters of the software list a field alone does not express. */
function softwareFilters(): CustomFilters<'software'> {
  const capability = (param: 'produces' | 'consumes', predicate: string) => (value: string) => {
    const type = iriPattern(predicate, value, param).replace('?s ', '?capability ');
    return `{ ?s <${REG('hasCapability')}> ?capability . ${type} } UNION
       { ?release <${DCT('isVersionOf')}> ?s ; <${REG('hasCapability')}> ?capability . ${type} }`;
  };
  return {
    keyword: (value) => {
      // A keyword of the list is stored as its preferred label, so an alias or slug finds it too.
      const keyword = matchKeywordFilter(value)?.label ?? value;
      return `?s <${SCHEMA('keywords')}> ?keyword . FILTER(LCASE(STR(?keyword)) = LCASE(${sparqlString(keyword)}))`;
    },
    publisher: (value) =>
      `?s <${DCT('publisher')}> ?publisher . OPTIONAL { ?publisher <${SCHEMA('name')}> ?publisherName }
       FILTER(STR(?publisher) = ${sparqlString(value)} || LCASE(STR(?publisherName)) = LCASE(${sparqlString(value)}))`,
    produces: capability('produces', REG('produces')),
    consumes: capability('consumes', REG('consumes')),
  };
}

/** `softwareFilters` as conditions the lineage index answers. */
function softwareConditions(): Partial<
  Record<keyof CustomFilters<'software'>, (value: string) => IndexCondition>
> {
  // A capability the software declares, or one of its releases (what states it a version of the software) does.
  const capability = (side: number) => (value: string) => {
    const declares: IndexCondition = { link: LINK.hasCapability, through: { link: side, o: value } };
    return { anyOf: [declares, { linkedBy: LINK.versionOf, from: declares }] };
  };
  return {
    keyword: (value) => ({
      fact: FACT.keywords,
      value: matchKeywordFilter(value)?.label ?? value,
      caseless: true,
    }),
    // The publisher's IRI, or its name in any case.
    publisher: (value) => ({
      anyOf: [
        { link: LINK.publisher, o: value },
        { link: LINK.publisher, to: { fact: FACT.name, value, caseless: true } },
      ],
    }),
    produces: capability(LINK.produces),
    consumes: capability(LINK.consumes),
  };
}

/** Lists software newest first, with paging, filters and facets (licence, kind, topic with labels). */
export async function listSoftware(core: Core, params: SoftwareListParams): Promise<JsonObject> {
  return memoised(core, `software-list ${JSON.stringify(params)}`, () =>
    presentingTogether(() => listSoftwareNow(core, params)),
  );
}

async function listSoftwareNow(core: Core, params: SoftwareListParams): Promise<JsonObject> {
  const query: ListQuery = {
    type: REG('Software'),
    patterns: filterPatterns(core, 'software', params, softwareFilters()) ?? [],
    conditions: filterConditions(core, 'software', params, softwareConditions()),
    limit: pageSize(params.limit),
    cursor: params.cursor,
    registry: params.registry,
  };
  const page = await listRecords(core, query);
  const items: JsonObject[] = [];
  // The page's records and their counts are read together, so a page costs the same few requests whatever its size.
  const records = await readStoredMany(core, SOFTWARE, page.items);
  await softwareCountsOf(
    core,
    [...records.values()].map((stored) => stored.iri),
  );
  for (const item of page.items) {
    const stored = records.get(storedKey(item.iri, item.graph));
    if (stored !== undefined) items.push(await presentSoftware(core, stored));
  }
  const facets: JsonObject[] = [];
  for (const [name, predicate] of [
    ['license', DCT('license')],
    ['kind', SCHEMA('applicationCategory')],
    ['topic', DCT('subject')],
  ] as const) {
    const values: JsonObject[] = [];
    for (const { value, count } of await facetCounts(core, query, predicate)) {
      const label =
        name === 'kind'
          ? value
          : ((await describeTerm(core, value)).label ?? value.slice(value.lastIndexOf('/') + 1));
      values.push({ value, label, count });
    }
    facets.push({ name, values });
  }
  return {
    items,
    total: page.total,
    ...(page.next_cursor === undefined ? {} : { next_cursor: page.next_cursor }),
    facets,
  };
}
