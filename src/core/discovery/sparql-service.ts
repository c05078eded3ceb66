import type { Core } from '../core.js';
import { listGraphs } from '../ops/dump.js';
import { registryTitle } from '../ops/status.js';
import { FORMAT_IRIS, serialiseTriples, type GraphFormat, type SparqlFormat } from './sparql-formats.js';

const SD = 'http://www.w3.org/ns/sparql-service-description#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const RDFS_COMMENT = 'http://www.w3.org/2000/01/rdf-schema#comment';
const DCT_TITLE = 'http://purl.org/dc/terms/title';

/** Every serialisation an answer of /sparql can come in, as the description lists them. */
const ANSWER_FORMATS: readonly SparqlFormat[] = [
  'json',
  'xml',
  'csv',
  'tsv',
  'turtle',
  'ntriples',
  'nquads',
  'jsonld',
  'rdfxml',
];

const iri = (value: string): string => `<${value}>`;
const text = (value: string): string => JSON.stringify(value);

/**
 * The SPARQL 1.1 Service Description of /sparql (https://www.w3.org/TR/sparql11-service-description/): what it
 * speaks, the formats it answers in, and its default dataset: a default graph that is the union of every graph,
 * and each graph as a named graph (reference bundles, the registry's records, peers' copies).
 */
export async function describeSparqlService(core: Core, format: GraphFormat): Promise<string> {
  const endpoint = `${core.config.baseIri}/sparql`;
  const service = iri(`${endpoint}#service`);
  const dataset = '_:dataset';
  const union = '_:union';
  const lines = [
    `${service} ${iri(RDF_TYPE)} ${iri(`${SD}Service`)} .`,
    `${service} ${iri(DCT_TITLE)} ${text(`SPARQL endpoint of the ${registryTitle(core)}`)} .`,
    `${service} ${iri(`${SD}endpoint`)} ${iri(endpoint)} .`,
    `${service} ${iri(`${SD}supportedLanguage`)} ${iri(`${SD}SPARQL11Query`)} .`,
    `${service} ${iri(`${SD}feature`)} ${iri(`${SD}UnionDefaultGraph`)} .`,
    ...ANSWER_FORMATS.map((answer) => `${service} ${iri(`${SD}resultFormat`)} ${iri(FORMAT_IRIS[answer])} .`),
    `${service} ${iri(`${SD}defaultDataset`)} ${dataset} .`,
    `${dataset} ${iri(RDF_TYPE)} ${iri(`${SD}Dataset`)} .`,
    `${dataset} ${iri(`${SD}defaultGraph`)} ${union} .`,
    `${union} ${iri(RDF_TYPE)} ${iri(`${SD}Graph`)} .`,
    `${union} ${iri(RDFS_COMMENT)} ${text(
      'The union of every named graph. A request naming default-graph-uri or named-graph-uri replaces this dataset (and any FROM or FROM NAMED of the query) with the graphs it names.',
    )} .`,
  ];
  listGraphs(core).forEach((graph, i) => {
    const named = `_:graph${i}`;
    lines.push(`${dataset} ${iri(`${SD}namedGraph`)} ${named} .`);
    lines.push(`${named} ${iri(RDF_TYPE)} ${iri(`${SD}NamedGraph`)} .`);
    lines.push(`${named} ${iri(`${SD}name`)} ${iri(graph)} .`);
  });
  return serialiseTriples(`${lines.join('\n')}\n`, format, {
    sd: SD,
    dct: 'http://purl.org/dc/terms/',
    rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
    formats: 'http://www.w3.org/ns/formats/',
  });
}
