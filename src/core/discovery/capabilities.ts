/**
 * Capability matchmaking: which software, releases and deployments declared that they produce and/or consume
 * given artifact types. It works from declared capabilities alone, so it answers before any run exists.
 */
import { BadRequestError } from '../errors.js';
import { DCT, GRAPHS, PEER_GRAPH_PREFIX, RDFS, REG, SCHEMA } from '../ns.js';
import { idOf } from '../records/ids.js';
import type { JsonObject } from '../records/mapper.js';
import type { Core } from '../core.js';
import { memoised } from '../stored/memoised.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { FACT, LINK } from '../store/lineage/lineage-facts.js';
import { factsAt, notWithdrawnSql, recordGraphSql } from '../store/lineage/lineage-sql.js';
import { originOf } from '../stored/records.js';
import { sparqlIri } from './sparql-text.js';
import { describeTerms } from './terms.js';
import { typeIri } from '../catalogue/types.js';
import { matchByBasis } from '../insight/basis-matches.js';
import { matchBasis, type BasisMatches } from '../insight/observed-matches.js';

/** Query parameters of `GET /api/v1/capabilities`; each may repeat and hold comma-separated values. */
export interface CapabilityParams {
  readonly produces?: readonly string[] | undefined;
  readonly consumes?: readonly string[] | undefined;
  /** `declared` (the default), `observed` (what runs did) or `both`. */
  readonly basis?: string | undefined;
  /** An artifact whose types are asked as `consumes`; the answer adds who already consumed it. */
  readonly artifact?: string | undefined;
}

/**
 * One match (contract §3.11): the record that declared the capability, and the capability itself. A release
 * also names the software it is a version of (IRI and name, when held) and its version, so a client can tell
 * which software a matching release belongs to without reading it.
 */
export interface CapabilityMatch {
  readonly iri: string;
  readonly id: string;
  readonly entity_type: 'software' | 'release' | 'instance';
  readonly name: string;
  readonly software?: string;
  readonly software_name?: string;
  readonly version?: string;
  readonly capability: JsonObject;
  readonly origin: JsonObject;
}

/** The answer: at most `CAPABILITY_LIMIT` matches, software first, then releases, then deployments. */
export interface CapabilityMatches {
  readonly items: CapabilityMatch[];
  readonly total: number;
  /** True when more records matched than were returned. */
  readonly truncated: boolean;
}

/** The most matches returned; there is no paging. */
export const CAPABILITY_LIMIT = 200;

/** The records that declare capabilities, in the order matches are listed (descending class IRI order too). */
const KINDS = [
  ['software', REG('Software')],
  ['release', REG('Release')],
  ['instance', REG('Instance')],
] as const;

function typesOf(core: Core, values: readonly string[] | undefined, what: string): string[] {
  const iris = (values ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '')
    .map((value) => typeIri(core, value, what));
  return [...new Set(iris)];
}

/**
 * `GET /api/v1/capabilities`: records whose declared capability produces every type in `produces` and consumes
 * every type in `consumes` (full type IRIs, or slugs of types minted here); at least one is required. Withdrawn
 * records are left out; cached peer records are included, with their origin. With `basis` observed or both, or
 * with `artifact`, matches also come from what runs actually produced and consumed.
 */
export async function matchCapabilities(
  core: Core,
  params: CapabilityParams,
): Promise<CapabilityMatches | BasisMatches> {
  const produces = typesOf(core, params.produces, 'produces');
  const consumes = typesOf(core, params.consumes, 'consumes');
  const basis = matchBasis(params.basis);
  if (basis !== 'declared' || (params.artifact !== undefined && params.artifact !== ''))
    return matchByBasis(core, basis, params.artifact, { produces, consumes }, (p, c) =>
      memoised(core, `capabilities ${JSON.stringify([p, c])}`, () => match(core, p, c)),
    );
  if (produces.length === 0 && consumes.length === 0)
    throw new BadRequestError(
      'give produces or consumes: artifact type IRIs, or slugs of types minted here',
      {
        errors: [{ field: 'produces', message: 'produces or consumes is required' }],
      },
    );
  const key = `capabilities ${JSON.stringify([produces, consumes])}`;
  return memoised(core, key, () => match(core, produces, consumes));
}

/** The shown values of one match, as the query returns them (types space-separated). */
interface Row {
  readonly iri: string;
  readonly graph: string;
  readonly kind: CapabilityMatch['entity_type'];
  readonly capability: string;
  readonly name: string | undefined;
  /** A release's software, its name and the release's version; empty for other kinds. */
  readonly release: Pick<CapabilityMatch, 'software' | 'software_name' | 'version'>;
  readonly produces: string[];
  readonly consumes: string[];
}

async function match(core: Core, produces: string[], consumes: string[]): Promise<CapabilityMatches> {
  const rows = lineageIndexReady(core.db)
    ? fromIndex(core, produces, consumes)
    : await query(core, produces, consumes);
  const order = KINDS.map(([kind]) => kind as string);
  const found = rows
    .sort(
      (a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || (a.iri < b.iri ? 1 : a.iri > b.iri ? -1 : 0),
    )
    .slice(0, CAPABILITY_LIMIT);
  const items: CapabilityMatch[] = [];
  for (const row of found) {
    items.push({
      iri: row.iri,
      id: idOf(row.iri),
      entity_type: row.kind,
      name: row.name ?? idOf(row.iri),
      ...row.release,
      capability: {
        iri: row.capability,
        produces: (await describeTerms(core, row.produces)) as unknown as JsonObject[],
        consumes: (await describeTerms(core, row.consumes)) as unknown as JsonObject[],
        declared_at: row.kind,
      },
      origin: originOf(row.graph),
    });
  }
  return { items, total: items.length, truncated: rows.length > CAPABILITY_LIMIT };
}

/**
 * One query: the matching records (at most one more than the limit, to tell whether there were more), each
 * with its name (a release's software name and version, a deployment's label) and all its declared types.
 */
async function query(core: Core, produces: string[], consumes: string[]): Promise<Row[]> {
  const declared = [
    ...produces.map((iri) => `?c <${REG('produces')}> ${sparqlIri(iri, 'produces')} .`),
    ...consumes.map((iri) => `?c <${REG('consumes')}> ${sparqlIri(iri, 'consumes')} .`),
  ];
  const classes = new Map<string, CapabilityMatch['entity_type']>(KINDS.map(([kind, type]) => [type, kind]));
  const types = (variable: string) =>
    `(GROUP_CONCAT(DISTINCT STR(${variable}); SEPARATOR=" ") AS ${variable}s)`;
  // The capability's own triples come first, so oxigraph starts from the (indexed) type IRIs; the classes are a
  // filter, not a VALUES join, which oxigraph would start from (every record of the class). Descending class
  // IRIs put software before releases before deployments, so the limit cuts deployments first.
  const bindings = await core.graph.select(
    `SELECT ?s ?g ?class ?c (SAMPLE(?shown) AS ?name) (SAMPLE(?version) AS ?v) (SAMPLE(?software) AS ?sw)
       (SAMPLE(?of) AS ?swName) ${types('?p')} ${types('?u')}
     WHERE {
       { SELECT ?s ?g ?class ?c WHERE {
           GRAPH ?g { ${declared.join(' ')} ?s <${REG('hasCapability')}> ?c . ?s a ?class .
             FILTER(?class IN (${[...classes.keys()].map((type) => `<${type}>`).join(', ')}))
             FILTER NOT EXISTS { ?s <${REG('tombstoned')}> true } }
           FILTER(?g = <${GRAPHS.local}> || STRSTARTS(STR(?g), "${PEER_GRAPH_PREFIX}"))
         } ORDER BY DESC(?class) DESC(STR(?s)) LIMIT ${CAPABILITY_LIMIT + 1} }
       OPTIONAL { GRAPH ?g { ?s <${SCHEMA('name')}>|<${RDFS('label')}> ?own } }
       OPTIONAL { GRAPH ?g { ?s <${DCT('isVersionOf')}> ?software }
         OPTIONAL { GRAPH ?g2 { ?software <${SCHEMA('name')}> ?of } } }
       OPTIONAL { GRAPH ?g { ?s <${SCHEMA('softwareVersion')}> ?version } }
       OPTIONAL { GRAPH ?g { ?c <${REG('produces')}> ?p } }
       OPTIONAL { GRAPH ?g { ?c <${REG('consumes')}> ?u } }
       BIND(COALESCE(?of, ?own) AS ?shown)
     } GROUP BY ?s ?g ?class ?c`,
  );
  return bindings.map((row) => {
    const kind = classes.get(row.class?.value ?? '') ?? 'software';
    const name = row.name?.value;
    const version = row.v?.value;
    const release = kind === 'release' ? releaseFields(row.sw?.value, row.swName?.value, version) : {};
    const split = (text: string | undefined) =>
      text === undefined || text === '' ? [] : text.split(' ').sort();
    return {
      iri: row.s?.value ?? '',
      graph: row.g?.value ?? GRAPHS.local,
      kind,
      capability: row.c?.value ?? '',
      name:
        kind === 'release'
          ? [name, version].filter((part) => part !== undefined).join(' ') || undefined
          : name,
      release,
      produces: split(row.ps?.value),
      consumes: split(row.us?.value),
    };
  });
}

/** The lineage index fact that marks each kind of record that declares capabilities. */
const KIND_FACTS = new Map<number, CapabilityMatch['entity_type']>([
  [FACT.software, 'software'],
  [FACT.release, 'release'],
  [FACT.deployment, 'instance'],
]);

/**
 * `query` from the lineage index (which keeps capability links, the kinds of records, names, labels, versions and
 * withdrawals): three statements whatever the number of matches, the first led by the first type asked for.
 */
function fromIndex(core: Core, produces: string[], consumes: string[]): Row[] {
  const wanted = [
    ...produces.map((iri) => [LINK.produces, iri] as const),
    ...consumes.map((iri) => [LINK.consumes, iri] as const),
  ];
  const [lead, ...rest] = wanted;
  if (lead === undefined) return [];
  const declares = rest.map(
    () =>
      'AND EXISTS (SELECT 1 FROM lineage_link x WHERE x.s = t.s AND x.graph = t.graph AND x.p = ? AND x.o = ?)',
  );
  // Software before releases before deployments (descending class IRI), then descending IRI, as the query orders.
  const found = core.db
    .prepare(
      `SELECT h.s AS iri, h.graph AS graph, h.o AS capability, k.p AS kind FROM lineage_link t
       JOIN lineage_link h ON h.o = t.s AND h.graph = t.graph AND h.p = ${LINK.hasCapability}
       JOIN lineage_node k ON k.iri = h.s AND k.graph = h.graph AND k.p IN (${[...KIND_FACTS.keys()].join(', ')})
       WHERE t.p = ? AND t.o = ? ${declares.join(' ')}
         AND ${recordGraphSql('h.graph').sql} AND ${notWithdrawnSql('h.s', 'h.graph')}
       GROUP BY h.s, h.graph, h.o, k.p
       ORDER BY CASE k.p WHEN ${FACT.software} THEN 0 WHEN ${FACT.release} THEN 1 ELSE 2 END, h.s DESC
       LIMIT ${CAPABILITY_LIMIT + 1}`,
    )
    .all(...lead, ...rest.flat(), ...recordGraphSql('h.graph').params) as {
    iri: string;
    graph: string;
    capability: string;
    kind: number;
  }[];
  const nodes = found.flatMap((row) => [[row.iri, row.graph] as const, [row.capability, row.graph] as const]);
  const facts = factsAt(core.db, nodes, [FACT.name, FACT.label, FACT.softwareVersion]);
  const links = core.db
    .prepare(
      `SELECT l.s AS iri, l.graph AS graph, l.p AS p, l.o AS o,
         (SELECT sn.value FROM lineage_node sn WHERE sn.iri = l.o AND sn.p = ${FACT.name} ORDER BY sn.rowid LIMIT 1) AS name
       FROM json_each(?) c JOIN lineage_link l ON l.s = c.value ->> 0 AND l.graph = c.value ->> 1
       WHERE l.p IN (${LINK.produces}, ${LINK.consumes}, ${LINK.versionOf}) ORDER BY l.rowid`,
    )
    .all(JSON.stringify(nodes)) as {
    iri: string;
    graph: string;
    p: number;
    o: string;
    name: string | null;
  }[];
  const key = (iri: string, graph: string) => `${graph} ${iri}`;
  const factsOf = new Map<string, Map<number, string>>();
  for (const fact of facts) {
    const held = factsOf.get(key(fact.iri, fact.graph)) ?? new Map<number, string>();
    if (!held.has(fact.p)) held.set(fact.p, fact.value);
    factsOf.set(key(fact.iri, fact.graph), held);
  }
  const linksOf = new Map<string, typeof links>();
  for (const link of links)
    linksOf.set(key(link.iri, link.graph), [...(linksOf.get(key(link.iri, link.graph)) ?? []), link]);
  return found.map((row) => {
    const kind = KIND_FACTS.get(row.kind) ?? 'software';
    const own = factsOf.get(key(row.iri, row.graph));
    const ownName = own?.get(FACT.name) ?? own?.get(FACT.label);
    const version = own?.get(FACT.softwareVersion);
    const software = linksOf.get(key(row.iri, row.graph))?.find((link) => link.p === LINK.versionOf);
    const declared = linksOf.get(key(row.capability, row.graph)) ?? [];
    const typesOf = (p: number) =>
      [...new Set(declared.filter((link) => link.p === p).map((link) => link.o))].sort();
    const name = software?.name ?? ownName;
    return {
      iri: row.iri,
      graph: row.graph,
      kind,
      capability: row.capability,
      name:
        kind === 'release'
          ? [name, version].filter((part) => part !== undefined).join(' ') || undefined
          : name,
      release: kind === 'release' ? releaseFields(software?.o, software?.name ?? undefined, version) : {},
      produces: typesOf(LINK.produces),
      consumes: typesOf(LINK.consumes),
    };
  });
}

/** The fields a release match adds, each only when known (a peer's release may name software not held here). */
function releaseFields(
  software: string | undefined,
  softwareName: string | undefined,
  version: string | undefined,
): Row['release'] {
  return {
    ...(software === undefined ? {} : { software }),
    ...(softwareName === undefined ? {} : { software_name: softwareName }),
    ...(version === undefined ? {} : { version }),
  };
}
