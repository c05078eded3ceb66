/**
 * Content lookups asked of the query index: what `content-index.ts` reads from the lineage index, for while that
 * index is filled (after an upgrade or a restore). Both give the same rows.
 */
import type { Core } from '../core.js';
import { spdxAlgorithmIri, type ContentName } from '../records/content-id.js';
import { DCAT, DCT, GRAPHS, PEER_GRAPH_PREFIX, REG, SCHEMA, SPDX } from '../ns.js';
import type { Binding } from '../store/graph/types.js';
import { sparqlString } from '../discovery/sparql-text.js';
import type { ContentMatch, DistributionNameRow, TitleRow } from '../provenance/identify.js';

// Only the registry's own graph and the cached graphs of peers hold records.
const RECORD_GRAPHS = `FILTER(?g = <${GRAPHS.local}> || STRSTARTS(STR(?g), "${PEER_GRAPH_PREFIX}"))`;
const LIVE = (record: string) => `FILTER NOT EXISTS { ${record} <${REG('tombstoned')}> true }`;
const value = (row: Binding, name: string): string | undefined => row[name]?.value;

/** `contentMatchesFromIndex`, asked of the query index: one query per way of holding content. */
export async function contentMatchesFromQuery(
  core: Core,
  name: ContentName,
  limit: number,
): Promise<ContentMatch[]> {
  const found = await Promise.all([
    checksumMatches(core, name, limit),
    imageMatches(core, name, limit),
    swhidMatches(core, name, limit),
  ]);
  return found.flat();
}

async function checksumMatches(core: Core, name: ContentName, limit: number): Promise<ContentMatch[]> {
  const values = name.digests.flatMap(({ algorithm, hex }) => {
    const iri = spdxAlgorithmIri(algorithm);
    return iri === undefined ? [] : [`(<${iri}> ${sparqlString(hex)})`];
  });
  if (values.length === 0) return [];
  const rows = await core.graph.select(
    `SELECT DISTINCT ?g ?s ?node ?alg ?hex WHERE { VALUES (?alg ?hex) { ${values.join(' ')} }
       GRAPH ?g { ?c <${SPDX('checksumValue')}> ?hex . ?c <${SPDX('algorithm')}> ?alg .
         ?node <${SPDX('checksum')}> ?c . ?s <${DCAT('distribution')}> ?node . ${LIVE('?s')} } ${RECORD_GRAPHS} } LIMIT ${limit}`,
  );
  return rows.map((row) => ({
    kind: 'distribution',
    iri: value(row, 'node')!,
    record: value(row, 's')!,
    graph: value(row, 'g')!,
    matched: [{ field: 'distributions.checksum', value: value(row, 'hex')! }],
  }));
}

async function imageMatches(core: Core, name: ContentName, limit: number): Promise<ContentMatch[]> {
  if (name.digests.length === 0) return [];
  const wanted = name.digests.map(({ algorithm, hex }) => sparqlString(`${algorithm}:${hex}`)).join(', ');
  const rows = await core.graph.select(
    `SELECT DISTINCT ?g ?s ?d WHERE { GRAPH ?g { ?s <${REG('imageDigest')}> ?d .
       FILTER(LCASE(STR(?d)) IN (${wanted})) ${LIVE('?s')} } ${RECORD_GRAPHS} } LIMIT ${limit}`,
  );
  return rows.map((row) => ({
    kind: 'release',
    iri: value(row, 's')!,
    record: value(row, 's')!,
    graph: value(row, 'g')!,
    matched: [{ field: 'image_digest', value: value(row, 'd')! }],
  }));
}

async function swhidMatches(core: Core, name: ContentName, limit: number): Promise<ContentMatch[]> {
  if (name.swhids.length === 0) return [];
  const tests = name.swhids.map(
    (id) => `?w = ${sparqlString(id)} || STRSTARTS(?w, ${sparqlString(`${id};`)})`,
  );
  const rows = await core.graph.select(
    `SELECT DISTINCT ?g ?node ?s ?w WHERE { GRAPH ?g { ?node <${REG('swhid')}> ?w . FILTER(${tests.join(' || ')})
       OPTIONAL { ?s <${DCAT('distribution')}> ?node } BIND(COALESCE(?s, ?node) AS ?r) ${LIVE('?r')} }
       ${RECORD_GRAPHS} } LIMIT ${limit}`,
  );
  return rows.map((row) => {
    const artifact = value(row, 's');
    return {
      kind: artifact === undefined ? 'release' : 'distribution',
      iri: value(row, 'node')!,
      record: artifact ?? value(row, 'node')!,
      graph: value(row, 'g')!,
      matched: [
        { field: artifact === undefined ? 'swhids' : 'distributions.swhids', value: value(row, 'w')! },
      ],
    };
  });
}

/** `distributionNamesFromIndex`, asked of the query index. */
export async function distributionNamesFromQuery(
  core: Core,
  nodes: readonly string[],
): Promise<DistributionNameRow[]> {
  const rows = await core.graph.select(
    `SELECT DISTINCT ?alg ?hex ?w WHERE { VALUES ?node { ${nodes.map((node) => `<${node}>`).join(' ')} } GRAPH ?g {
       { ?node <${SPDX('checksum')}> ?c . ?c <${SPDX('algorithm')}> ?alg ; <${SPDX('checksumValue')}> ?hex }
       UNION { ?node <${REG('swhid')}> ?w } } ${RECORD_GRAPHS} }`,
  );
  return rows.map((row) => ({
    algorithm: value(row, 'alg') ?? null,
    hex: value(row, 'hex') ?? null,
    swhid: value(row, 'w') ?? null,
  }));
}

/** `titleRowsFromIndex`, asked of the query index in one query (a sample of each value: records state one). */
export async function titleRowsFromQuery(
  core: Core,
  records: readonly (readonly [string, string])[],
): Promise<TitleRow[]> {
  const rows = await core.graph.select(
    `SELECT ?g ?r (SAMPLE(?t) AS ?title) (SAMPLE(?v) AS ?version) (SAMPLE(?n) AS ?name) WHERE {
       VALUES (?g ?r) { ${records.map(([graph, record]) => `(<${graph}> <${record}>)`).join(' ')} }
       GRAPH ?g { ?r a ?class . OPTIONAL { ?r <${DCT('title')}> ?t } OPTIONAL { ?r <${SCHEMA('softwareVersion')}> ?v }
         OPTIONAL { ?r <${DCT('isVersionOf')}> ?sw } }
       OPTIONAL { GRAPH ?h { ?sw <${SCHEMA('name')}> ?n } } } GROUP BY ?g ?r`,
  );
  return rows.map((row) => ({
    graph: value(row, 'g')!,
    record: value(row, 'r')!,
    title: value(row, 'title') ?? null,
    version: value(row, 'version') ?? null,
    name: value(row, 'name') ?? null,
  }));
}
