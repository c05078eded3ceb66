/**
 * What OpenLineage intake looks up before it writes: the version of a dataset's series current at an event's time,
 * the version a `version` facet names, and whether a dataset's IRI is an artifact a peer's copy describes. Read
 * from the lineage index in `registry.db` when it is complete, so intake does not wait for the query index after
 * a start, and costs no query on an external store; else from the query index.
 */
import { DCAT, DCT, GRAPHS, PROV, REG, XSD } from '../ns.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { FACT, LINK } from '../store/lineage/lineage-facts.js';
import { notWithdrawnSql } from '../store/lineage/lineage-sql.js';
import { nodesLinkingTo } from '../stored/stating.js';
import type { Core } from '../core.js';

const LOCAL = `<${GRAPHS.local}>`;

/** The last version of a series issued at or before `time`, other than those `exceptRun` generated. */
export async function currentVersion(
  core: Core,
  series: string,
  time: string,
  exceptRun: string | undefined,
): Promise<string | undefined> {
  const at = Date.parse(time);
  if (lineageIndexReady(core.db) && !Number.isNaN(at))
    // Issue times are kept in UTC, as `toISOString` writes them, so they compare as text.
    return core.db
      .prepare(
        `SELECT l.s FROM lineage_link l
           JOIN lineage_node t ON t.iri = l.s AND t.graph = l.graph AND t.p = ${FACT.issued}
           WHERE l.o = ? AND l.p = ${LINK.versionOf} AND l.graph = ? AND t.value <= ?
             AND ${notWithdrawnSql('l.s', 'l.graph')}
             AND NOT EXISTS (SELECT 1 FROM lineage_link g WHERE g.s = l.s AND g.p = ${LINK.generatedBy}
               AND g.o = ? AND g.graph = l.graph)
           ORDER BY t.value DESC, l.s DESC LIMIT 1`,
      )
      .pluck()
      .get(series, GRAPHS.local, new Date(at).toISOString(), exceptRun ?? '') as string | undefined;
  const except =
    exceptRun === undefined ? '' : `FILTER NOT EXISTS { ?v <${PROV('wasGeneratedBy')}> <${exceptRun}> }`;
  const rows = await core.graph.select(`SELECT ?v ?t WHERE {
      GRAPH ${LOCAL} { ?v <${DCT('isVersionOf')}> <${series}> ; <${DCT('issued')}> ?t .
        FILTER NOT EXISTS { ?v <${REG('tombstoned')}> true } ${except} }
      FILTER(?t <= "${time}"^^<${XSD('dateTime')}>)
    } ORDER BY DESC(?t) DESC(STR(?v)) LIMIT 1`);
  return rows[0]?.v?.value;
}

/** The version of a series with this `version`, if one was recorded (the greatest IRI of several). */
export async function versionNamed(core: Core, series: string, version: string): Promise<string | undefined> {
  const named = await nodesLinkingTo(core, DCT('isVersionOf'), series, {
    predicate: DCAT('version'),
    value: version,
  });
  return named.at(-1);
}

/** Whether a record here (this registry's or a peer's copy) describes `iri` as a dataset. */
export async function knownElsewhere(core: Core, iri: string): Promise<boolean> {
  if (lineageIndexReady(core.db))
    return (
      core.db
        .prepare(`SELECT 1 FROM lineage_node WHERE iri = ? AND p = ${FACT.artifact} LIMIT 1`)
        .get(iri) !== undefined
    );
  try {
    return await core.graph.ask(`ASK { GRAPH ?g { <${iri}> a <${DCAT('Dataset')}> } }`);
  } catch {
    // An index that cannot answer is not evidence: the dataset then gets an artifact of its own.
    return false;
  }
}
