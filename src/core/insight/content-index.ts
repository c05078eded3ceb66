/**
 * Content lookups read from the lineage index in `registry.db` (the checksums, SWHIDs and content identifiers of
 * distributions, the image digests and SWHIDs of releases, titles, versions and names), so identifying content and
 * impact by content are answered before the query index has loaded, and from the external store without a query.
 * Each reader gives what its query in `identify.ts` gives, for the graphs, withdrawals and limits that query has.
 */
import type { Core } from '../core.js';
import { spdxAlgorithmIri, type ContentName } from '../records/content-id.js';
import { FACT, LINK, LOOKUP_FACTS, TYPE_FACTS } from '../store/lineage/lineage-facts.js';
import { firstFactSql, notWithdrawnSql, recordGraphSql } from '../store/lineage/lineage-sql.js';
import type { ContentMatch, DistributionNameRow, TitleRow } from '../provenance/identify.js';

interface MatchRow {
  readonly graph: string;
  /** Null for a node carrying a SWHID that no artifact lists as its distribution. */
  readonly record: string | null;
  readonly node: string;
  readonly value: string;
}

/**
 * The records holding the content `name` names, in this registry's graph or a peer's cache and not withdrawn
 * there, at most `limit` of each way of holding it: artifacts whose distributions carry one of its checksums or
 * SWHIDs (a SWHID with qualifiers after `;` too), releases whose image digest is one of its digests (in any case)
 * and nodes outside distributions that carry one of its SWHIDs. Each with the value that matched.
 */
export function contentMatchesFromIndex(core: Core, name: ContentName, limit: number): ContentMatch[] {
  const graphs = recordGraphSql('n.graph');
  const live = (record: string) => `${graphs.sql} AND ${notWithdrawnSql(record, 'n.graph')}`;
  const read = (sql: string, ...params: unknown[]) =>
    core.db.prepare(`${sql} LIMIT ${limit}`).all(...params, ...graphs.params) as MatchRow[];
  const pairs = name.digests.flatMap(({ algorithm, hex }) => {
    const iri = spdxAlgorithmIri(algorithm);
    return iri === undefined ? [] : [[iri, hex]];
  });
  const checksums =
    pairs.length === 0
      ? []
      : read(
          // CROSS JOIN: each asked checksum is looked up by its value, rather than every checksum read.
          `SELECT DISTINCT n.graph AS graph, d.s AS record, k.s AS node, n.value AS value, a.value AS algorithm
           FROM json_each(?) c
           CROSS JOIN lineage_node n ON n.p = ${FACT.checksumValue} AND n.${LOOKUP_FACTS} AND n.value = c.value ->> 1
           JOIN lineage_node a ON a.iri = n.iri AND a.graph = n.graph AND a.p = ${FACT.checksumAlgorithm}
             AND a.value = c.value ->> 0
           JOIN lineage_link k ON k.o = n.iri AND k.graph = n.graph AND k.p = ${LINK.checksum}
           JOIN lineage_link d ON d.o = k.s AND d.graph = n.graph AND d.p = ${LINK.distribution}
           WHERE ${live('d.s')} ORDER BY n.graph, d.s, k.s, n.value, a.value`,
          JSON.stringify(pairs),
        );
  const wanted = name.digests.map(({ algorithm, hex }) => `${algorithm}:${hex}`);
  const images =
    wanted.length === 0
      ? []
      : read(
          `SELECT DISTINCT n.graph AS graph, n.iri AS record, n.iri AS node, n.value AS value FROM lineage_node n
           WHERE n.p = ${FACT.imageDigest} AND n.${LOOKUP_FACTS}
             AND lower_unicode(n.value) IN (SELECT value FROM json_each(?))
             AND ${live('n.iri')} ORDER BY n.graph, n.iri, n.value`,
          JSON.stringify(wanted),
        );
  return [
    ...checksums.map((row) => match('distribution', row, 'distributions.checksum')),
    ...images.map((row) => match('release', row, 'image_digest')),
    ...swhidMatches(name.swhids, read, live),
  ];
}

const match = (kind: ContentMatch['kind'], row: MatchRow, field: string): ContentMatch => ({
  kind,
  iri: row.node,
  record: row.record ?? row.node,
  graph: row.graph,
  matched: [{ field, value: row.value }],
});

/** The nodes carrying one of `swhids` (or it with qualifiers): distributions with their artifact, else alone. */
function swhidMatches(
  swhids: readonly string[],
  read: (sql: string, ...params: unknown[]) => MatchRow[],
  live: (record: string) => string,
): ContentMatch[] {
  if (swhids.length === 0) return [];
  // A value that starts with `id;` sorts from `id;` to before `id<` (the next code point): each id is one range of
  // the index by value, from `id` itself to before `id<`, less what sorts between `id` and `id;`.
  const ranges = swhids
    .map(
      () => `SELECT iri, graph, value FROM lineage_node WHERE p = ${FACT.swhid} AND ${LOOKUP_FACTS}
        AND value >= ? AND value < ? AND (value = ? OR value >= ?)`,
    )
    .join(' UNION ALL ');
  const rows = read(
    `SELECT DISTINCT n.graph AS graph, d.s AS record, n.iri AS node, n.value AS value FROM (${ranges}) n
     LEFT JOIN lineage_link d ON d.o = n.iri AND d.graph = n.graph AND d.p = ${LINK.distribution}
     WHERE ${live('coalesce(d.s, n.iri)')}
     ORDER BY n.graph, n.iri, d.s, n.value`,
    ...swhids.flatMap((id) => [id, `${id}<`, id, `${id};`]),
  );
  return rows.map((row) =>
    row.record === null
      ? match('release', row, 'swhids')
      : match('distribution', row, 'distributions.swhids'),
  );
}

/**
 * The checksums (algorithm IRI and hex value) and SWHIDs of distribution nodes, as the records of this registry
 * and of cached peers state them, each once.
 */
export function distributionNamesFromIndex(core: Core, nodes: readonly string[]): DistributionNameRow[] {
  const [checksums, swhids] = [recordGraphSql('k.graph'), recordGraphSql('w.graph')];
  return core.db
    .prepare(
      `SELECT a.value AS algorithm, v.value AS hex, NULL AS swhid FROM json_each(?) c
         JOIN lineage_link k ON k.s = c.value AND k.p = ${LINK.checksum}
         JOIN lineage_node a ON a.iri = k.o AND a.graph = k.graph AND a.p = ${FACT.checksumAlgorithm}
         JOIN lineage_node v ON v.iri = k.o AND v.graph = k.graph AND v.p = ${FACT.checksumValue}
         WHERE ${checksums.sql}
       UNION
       SELECT NULL, NULL, w.value FROM json_each(?) c
         JOIN lineage_node w ON w.iri = c.value AND w.p = ${FACT.swhid}
         WHERE ${swhids.sql}`,
    )
    .all(
      JSON.stringify(nodes),
      ...checksums.params,
      JSON.stringify(nodes),
      ...swhids.params,
    ) as DistributionNameRow[];
}

/**
 * What titles records (pairs of graph and IRI) typed in their graph: the title stated there, the version stated
 * there and the name (in any graph) of what it is a version of; each the first one stated, null when none.
 */
export function titleRowsFromIndex(core: Core, records: readonly (readonly [string, string])[]): TitleRow[] {
  return core.db
    .prepare(
      `SELECT c.g AS graph, c.r AS record, ${firstFactSql('c.r', 'c.g', FACT.title)} AS title,
         ${firstFactSql('c.r', 'c.g', FACT.softwareVersion)} AS version,
         (SELECT n.value FROM lineage_link sw JOIN lineage_node n ON n.iri = sw.o AND n.p = ${FACT.name}
           WHERE sw.s = c.r AND sw.graph = c.g AND sw.p = ${LINK.versionOf} ORDER BY sw.rowid, n.rowid LIMIT 1) AS name
       FROM (SELECT value ->> 0 AS g, value ->> 1 AS r FROM json_each(?)) c
       WHERE EXISTS (SELECT 1 FROM lineage_node t WHERE t.iri = c.r AND t.graph = c.g
         AND t.p IN (${TYPE_FACTS.join(', ')}))`,
    )
    .all(JSON.stringify(records)) as TitleRow[];
}
