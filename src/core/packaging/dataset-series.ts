/**
 * An artifact series as a DCAT 3 dataset series: the series a `dcat:DatasetSeries` with its members
 * (`dcat:seriesMember`), its first and last (`dcat:first`, `dcat:last`), and each member a `dcat:Dataset` in the
 * series (`dcat:inSeries`) after the one before it (`dcat:prev`). Members are ordered by when they were issued,
 * then registered; withdrawn ones are left out.
 */
import { BadRequestError, NotFoundError } from '../errors.js';
import { DCT, GRAPHS, PREFIXES, REG } from '../ns.js';
import { ARTIFACT_SERIES } from '../records/activity-specs.js';
import { isAbsoluteIri, type JsonObject } from '../records/mapper.js';
import { readStored } from '../stored/records.js';
import { sparqlIri } from '../discovery/sparql-text.js';
import type { Core } from '../core.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { FACT, LINK } from '../store/lineage/lineage-facts.js';
import { firstFactSql, notWithdrawnSql } from '../store/lineage/lineage-sql.js';
import { getArtifact } from '../provenance/artifact-view.js';
import { present, ref, text } from './crate-entities.js';

/** Most members one answer lists; a longer series is answered without `dcat:last`, which it does not reach. */
export const SERIES_MEMBER_LIMIT = 1000;

/** The IRI of a series named by id or IRI. */
function seriesIri(core: Core, id: string): string {
  if (isAbsoluteIri(id)) return id;
  if (!/^[A-Za-z0-9._-]+$/.test(id)) {
    const message = `"${id}" is not the id or IRI of an artifact series`;
    throw new BadRequestError(message, { errors: [{ field: 'id', message }] });
  }
  return `${core.config.baseIri}/${ARTIFACT_SERIES.path}/${id}`;
}

/**
 * The live versions of a series, in order of issue (then creation, then IRI; those without a time first), at most
 * one more than are shown: from the lineage index, which keeps both times in UTC, or by a query while it is
 * filled.
 */
async function seriesMembers(core: Core, iri: string): Promise<string[]> {
  if (lineageIndexReady(core.db)) {
    const first = (fact: number) => firstFactSql('l.s', 'l.graph', fact);
    return core.db
      .prepare(
        `SELECT l.s FROM lineage_link l
         WHERE l.o = ? AND l.p = ${LINK.versionOf} AND l.graph = ? AND ${notWithdrawnSql('l.s', 'l.graph')}
         GROUP BY l.s ORDER BY ${first(FACT.issued)}, ${first(FACT.created)}, l.s LIMIT ?`,
      )
      .pluck()
      .all(iri, GRAPHS.local, SERIES_MEMBER_LIMIT + 1) as string[];
  }
  const rows = await core.graph.select(
    `SELECT ?a (SAMPLE(?issued) AS ?when) (SAMPLE(?created) AS ?made) WHERE {
       GRAPH <${GRAPHS.local}> { ?a <${DCT('isVersionOf')}> ${sparqlIri(iri, 'series')} }
       FILTER NOT EXISTS { GRAPH <${GRAPHS.local}> { ?a <${REG('tombstoned')}> true } }
       OPTIONAL { GRAPH <${GRAPHS.local}> { ?a <${DCT('issued')}> ?issued } }
       OPTIONAL { GRAPH <${GRAPHS.local}> { ?a <${DCT('created')}> ?created } }
     } GROUP BY ?a ORDER BY ?when ?made ?a LIMIT ${SERIES_MEMBER_LIMIT + 1}`,
  );
  return rows.map((row) => row.a?.value ?? '').filter((member) => member !== '');
}

/** `GET /api/v1/artifact-series/{id}`: the series and its versions as DCAT 3 JSON-LD. */
export async function datasetSeries(core: Core, id: string): Promise<JsonObject> {
  const iri = seriesIri(core, id);
  const stored = await readStored(core, ARTIFACT_SERIES, iri);
  if (stored === undefined) throw new NotFoundError(`no artifact series ${iri}`);
  const iris = await seriesMembers(core, iri);
  const truncated = iris.length > SERIES_MEMBER_LIMIT;
  const members = truncated ? iris.slice(0, SERIES_MEMBER_LIMIT) : iris;
  const datasets: JsonObject[] = [];
  for (const [at, member] of members.entries()) {
    const artifact = await getArtifact(core, member);
    const before = at > 0 ? members[at - 1] : undefined;
    datasets.push({
      '@id': member,
      '@type': 'dcat:Dataset',
      ...present({
        'dct:title': text(artifact.title),
        'dcat:version': text(artifact.version),
        'dct:issued': dateTime(text(artifact.issued)),
      }),
      'dcat:inSeries': ref(iri),
      ...(before === undefined ? {} : { 'dcat:prev': ref(before) }),
    });
  }
  const first = members[0];
  const last = members.at(-1);
  const series: JsonObject = {
    '@id': iri,
    '@type': 'dcat:DatasetSeries',
    ...present({
      'dct:title': text(stored.json.title),
      'dct:created': dateTime(text(stored.json.created)),
    }),
    'dcat:seriesMember': members.map(ref),
    ...(first === undefined ? {} : { 'dcat:first': ref(first) }),
    ...(last === undefined || truncated ? {} : { 'dcat:last': ref(last) }),
  };
  return {
    '@context': { dcat: PREFIXES.dcat, dct: PREFIXES.dct, xsd: PREFIXES.xsd },
    '@graph': [series, ...datasets],
  };
}

function dateTime(value: string | undefined): JsonObject | undefined {
  return value === undefined ? undefined : { '@value': value, '@type': 'xsd:dateTime' };
}
