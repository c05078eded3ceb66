/**
 * Artifact types: minting them at `{base}/type/<slug>`, adopting other registries' and vocabularies' types
 * under their own IRIs, and listing the types this registry uses. A type minted or adopted here is a record of
 * the local graph, so the vocabulary rule accepts it in `conforms_to` and capability slots at once.
 */
import type { Principal } from '../access/principal.js';
import { requireCuratorOrScope } from '../access/policy.js';
import { BadRequestError, ConflictError, NotFoundError } from '../errors.js';
import { DCAT, DCT, GRAPHS, RDF, REG, SPDX } from '../ns.js';
import { idOf, mintIri } from '../records/ids.js';
import { iriProblem } from '../records/iri.js';
import { isAbsoluteIri, type Json, type JsonObject } from '../records/mapper.js';
import { ARTIFACT_TYPE, TYPE_PATH } from '../records/type-specs.js';
import type { Core } from '../core.js';
import { selectByKey } from '../stored/keyset.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { FACT, LINK } from '../store/lineage/lineage-facts.js';
import { notWithdrawnSql } from '../store/lineage/lineage-sql.js';
import { readStored, requireObject, withoutRegistryFields } from '../stored/records.js';
import { describeTerm } from '../discovery/terms.js';
import { writeRecord, type Act } from '../stored/write-path.js';

const ARTIFACT_TYPE_CLASS = REG('ArtifactType');
const LIVE = (node: string): string => `FILTER NOT EXISTS { ${node} <${REG('tombstoned')}> true }`;

/** Turns free text into a slug: lower-case ASCII letters and digits, every other run of characters one `-`. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 100)
    .replace(/^-+|-+$/g, '');
}

/**
 * The IRI a type id names: a full IRI as it is, a slug as `{base}/type/<slug>`; anything else is a 400 naming
 * `what` (the parameter or field that sent it).
 */
export function typeIri(core: Core, slugOrIri: string, what = 'type'): string {
  const refuse = (why: string): never => {
    const message = `${what} must be a type slug or an absolute IRI, got ${JSON.stringify(slugOrIri)}${why}`;
    throw new BadRequestError(message, { errors: [{ field: what, message }] });
  };
  if (slugOrIri.includes(':')) {
    const problem = isAbsoluteIri(slugOrIri) ? undefined : (iriProblem(slugOrIri) ?? 'is not a URL');
    return problem === undefined ? slugOrIri : refuse(`, which ${problem}`);
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/.test(slugOrIri)) refuse('');
  return `${core.config.baseIri}/${TYPE_PATH}/${slugOrIri}`;
}

/** Whether an IRI was minted here as an artifact type. */
function isMinted(core: Core, iri: string): boolean {
  return iri.startsWith(`${core.config.baseIri}/${TYPE_PATH}/`);
}

const NOUNS: readonly (readonly [string, string])[] = [
  [REG('ResearchTopic'), 'a research topic'],
  [REG('LegacyTopic'), 'a subject area'],
  [REG('ArtifactKeyword'), 'an artifact keyword'],
  [REG('ArtifactType'), 'an artifact type'],
  [SPDX('ListedLicense'), 'a licence'],
  [DCT('LicenseDocument'), 'a licence'],
];

/**
 * Refuses (409) to adopt an IRI the registry already holds: a bundled term of any kind (a bundled term of the
 * same kind is used as it is), or a local record that is not of `ownClass`. A local record of `ownClass` may be
 * adopted again, which replaces it.
 */
export async function refuseHeldElsewhere(
  core: Core,
  iri: string,
  ownClass: string,
  noun: string,
): Promise<void> {
  const held = core.reference.index.get(iri);
  if (held !== undefined) {
    if (held.classes.includes(ownClass)) {
      const retired = held.retired ? ', though retired' : '';
      throw new ConflictError(`<${iri}> is already ${noun} this registry holds${retired}; cite it as it is`);
    }
    const what = NOUNS.find(([cls]) => held.classes.includes(cls))?.[1] ?? 'another kind of term';
    throw new ConflictError(`<${iri}> is already held as ${what}, so it cannot be adopted as ${noun}`);
  }
  const local = await core.graph.readRecord(GRAPHS.local, iri);
  if (local !== undefined && !local.includes(`<${iri}> <${RDF('type')}> <${ownClass}>`)) {
    throw new ConflictError(
      `<${iri}> is already a record of this registry, so it cannot be adopted as ${noun}`,
    );
  }
}

/** The caller as `prov:wasAttributedTo` names it: its subject when that is an IRI (e.g. `urn:reg:root`). */
export function attributionOf(principal: Principal): JsonObject {
  return isAbsoluteIri(principal.subject) ? { attributed_to: principal.subject } : {};
}

/** Reads a required, non-empty label (400 otherwise). */
export function requireLabel(value: Json | undefined): string {
  const label = typeof value === 'string' ? value.trim() : '';
  if (label === '') throw new BadRequestError('label is required and must be non-empty text');
  return label;
}

/** Reads an optional adopted IRI (400 unless absolute). */
export function optionalIri(value: Json | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !isAbsoluteIri(value.trim()))
    throw new BadRequestError(`iri must be an absolute IRI, got ${JSON.stringify(value)}`);
  return value.trim();
}

function listOf(value: Json | undefined): Json | undefined {
  return typeof value === 'string' ? [value] : value;
}

function cleanAliases(value: Json | undefined, label: string): Json | undefined {
  const list = listOf(value);
  if (!Array.isArray(list)) return list;
  const strings = list.map((item) => (typeof item === 'string' ? item.trim() : item));
  return [...new Set(strings)].filter((item) => item !== '' && item !== label);
}

/**
 * Mints (`label`, optional `slug`) or adopts (`iri`, optional `scheme`, `aliases`, `definition`,
 * `default_media_type`) an artifact type; re-posting a slug or IRI replaces that type. Curator or
 * `register:software`; audited `type.create`.
 */
export async function createType(core: Core, act: Act, body: unknown): Promise<JsonObject> {
  requireCuratorOrScope(act.principal, 'register:software');
  const { iri: rawIri, slug: rawSlug, label: rawLabel, aliases, scheme, ...rest } = requireObject(body);
  const label = requireLabel(rawLabel);
  const adopted = optionalIri(rawIri);
  let iri: string;
  if (adopted !== undefined) {
    if (rawSlug !== undefined && rawSlug !== null)
      throw new BadRequestError('send iri to adopt a type or slug to mint one, not both');
    iri = adopted;
  } else if (rawSlug === undefined || rawSlug === null) {
    iri = mintIri(core.config.baseIri, TYPE_PATH);
  } else {
    const slug = typeof rawSlug === 'string' ? slugify(rawSlug) : '';
    if (slug === '') throw new BadRequestError('slug must be text with at least one letter or digit');
    iri = `${core.config.baseIri}/${TYPE_PATH}/${slug}`;
  }
  await refuseHeldElsewhere(core, iri, ARTIFACT_TYPE_CLASS, 'an artifact type');
  const candidate: JsonObject = { ...withoutRegistryFields(ARTIFACT_TYPE.fields, rest), label };
  const aliasList = cleanAliases(aliases, label);
  const schemeList = listOf(scheme);
  if (aliasList !== undefined) candidate.aliases = aliasList;
  if (schemeList !== undefined) candidate.scheme = schemeList;
  await writeRecord(core, {
    spec: ARTIFACT_TYPE,
    iri,
    candidate: { ...candidate, ...attributionOf(act.principal) },
    action: 'type.create',
    act,
  });
  return getType(core, iri);
}

/** Live artifacts of the local graph per `conforms_to` type, cached until the next write. */
async function artifactCounts(core: Core): Promise<ReadonlyMap<string, number>> {
  const cached = core.memo.get<Map<string, number>>('type artifact-counts', core.graph.generation);
  if (cached !== undefined) return cached;
  const generation = core.graph.generation;
  const counts = new Map<string, number>();
  if (lineageIndexReady(core.db)) {
    const rows = core.db
      .prepare(
        `SELECT c.o AS t, COUNT(DISTINCT c.s) AS n FROM lineage_link c
         WHERE c.graph = ? AND c.p = ${LINK.conformsTo} AND ${artifactIn('c.s')} GROUP BY c.o`,
      )
      .all(GRAPHS.local, GRAPHS.local, GRAPHS.local) as { t: string; n: number }[];
    for (const row of rows) counts.set(row.t, row.n);
  } else {
    const rows = await selectByKey(
      core,
      't',
      ({ after, order }) =>
        `SELECT ?t (COUNT(DISTINCT ?a) AS ?n) WHERE { GRAPH <${GRAPHS.local}> {
         ?a a <${DCAT('Dataset')}> ; <${DCT('conformsTo')}> ?t . ${LIVE('?a')} } ${after} } GROUP BY ?t ${order}`,
    );
    for (const row of rows) if (row.t !== undefined) counts.set(row.t.value, Number(row.n?.value ?? 0));
  }
  core.memo.set('type artifact-counts', generation, counts);
  return counts;
}

/** A type as the API returns it: the local record, else the bundled term; undefined when neither holds it. */
async function describeType(
  core: Core,
  iri: string,
  counts: ReadonlyMap<string, number>,
): Promise<JsonObject | undefined> {
  const minted = isMinted(core, iri);
  const head = { iri, id: minted ? idOf(iri) : iri };
  const tail = { artifact_count: counts.get(iri) ?? 0 };
  const stored = await readStored(core, ARTIFACT_TYPE, iri);
  if (stored !== undefined) {
    const { label, definition, default_media_type, aliases, scheme } = stored.json;
    return {
      ...head,
      label: label ?? idOf(iri),
      ...(definition === undefined ? {} : { definition }),
      ...(default_media_type === undefined ? {} : { default_media_type }),
      ...(Array.isArray(aliases) && aliases.length > 0 ? { aliases } : {}),
      ...(Array.isArray(scheme) && scheme.length > 0 ? { scheme } : {}),
      ...tail,
      adopted: !minted,
      source: minted ? 'local' : 'external',
    };
  }
  const held = core.reference.index.get(iri);
  if (held === undefined || !held.classes.includes(ARTIFACT_TYPE_CLASS)) return undefined;
  const entry = core.reference.catalogue.byIri.get(iri);
  return {
    ...head,
    label: held.label ?? idOf(iri),
    ...(entry?.definition === undefined ? {} : { definition: entry.definition }),
    ...(entry?.defaultMediaType === undefined ? {} : { default_media_type: entry.defaultMediaType }),
    ...tail,
    adopted: false,
    source: 'bundled',
  };
}

/** Reads one artifact type by slug or IRI: minted or adopted here, or bundled; 404 otherwise. */
export async function getType(core: Core, slugOrIri: string): Promise<JsonObject> {
  const iri = typeIri(core, slugOrIri);
  const type = await describeType(core, iri, await artifactCounts(core));
  if (type === undefined) throw new NotFoundError(`no artifact type ${iri}`);
  return type;
}

/** A type cited by a record but held elsewhere (a peer's): described from whatever the registry knows of it. */
async function describeCited(
  core: Core,
  iri: string,
  counts: ReadonlyMap<string, number>,
): Promise<JsonObject> {
  const ref = await describeTerm(core, iri);
  return {
    iri,
    id: iri,
    label: ref.label ?? iri.slice(iri.search(/[^/#]*$/)),
    ...(ref.definition === undefined ? {} : { definition: ref.definition }),
    artifact_count: counts.get(iri) ?? 0,
    adopted: false,
    source: ref.source,
  };
}

/** Whether the lineage index node `column` is an artifact of the local graph that is not withdrawn there. */
const artifactIn = (column: string): string =>
  `EXISTS (SELECT 1 FROM lineage_node a WHERE a.iri = ${column} AND a.graph = ? AND a.p = ${FACT.artifact})
   AND ${notWithdrawnSql(column, '?')}`;

/**
 * The IRIs of the types `listTypes` lists: from the lineage index (which keeps artifact-type records, capability
 * and conforms-to links), or the query index while it is being filled.
 */
async function typesInUse(core: Core): Promise<string[]> {
  if (lineageIndexReady(core.db)) {
    const local = GRAPHS.local;
    return core.db
      .prepare(
        `SELECT iri FROM lineage_node WHERE graph = ? AND p = ${FACT.artifactType}
         UNION SELECT t.o FROM lineage_link c JOIN lineage_link t ON t.s = c.o AND t.graph = c.graph
           AND t.p IN (${LINK.produces}, ${LINK.consumes})
         WHERE c.graph = ? AND c.p = ${LINK.hasCapability}
           AND ${notWithdrawnSql('c.s', 'c.graph')}
         UNION SELECT c.o FROM lineage_link c WHERE c.graph = ? AND c.p = ${LINK.conformsTo} AND ${artifactIn('c.s')}`,
      )
      .pluck()
      .all(local, local, local, local, local) as string[];
  }
  const rows = await selectByKey(
    core,
    't',
    ({ after, order }) =>
      `SELECT DISTINCT ?t WHERE { GRAPH <${GRAPHS.local}> {
       { ?t a <${ARTIFACT_TYPE_CLASS}> }
       UNION { ?r <${REG('hasCapability')}> ?c . ?c <${REG('produces')}>|<${REG('consumes')}> ?t . ${LIVE('?r')} }
       UNION { ?a a <${DCAT('Dataset')}> ; <${DCT('conformsTo')}> ?t . ${LIVE('?a')} } FILTER(isIRI(?t)) } ${after} } ${order}`,
  );
  return rows.flatMap((row) => (row.t === undefined ? [] : [row.t.value]));
}

/**
 * Lists the types this registry uses: those minted or adopted here, and any term a live local record cites as
 * a capability's `produces`/`consumes` or an artifact's `conforms_to`; not the whole bundled vocabulary.
 */
export async function listTypes(core: Core): Promise<{ items: JsonObject[]; total: number }> {
  const counts = await artifactCounts(core);
  const items: JsonObject[] = [];
  for (const iri of await typesInUse(core))
    items.push((await describeType(core, iri, counts)) ?? (await describeCited(core, iri, counts)));
  const key = (item: JsonObject): string => (typeof item.label === 'string' ? item.label.toLowerCase() : '');
  const iriOf = (item: JsonObject): string => (typeof item.iri === 'string' ? item.iri : '');
  items.sort((a, b) => key(a).localeCompare(key(b)) || iriOf(a).localeCompare(iriOf(b)));
  return { items, total: items.length };
}
