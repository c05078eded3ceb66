/**
 * The example queries of the README ("Writing SPARQL queries"), which work against a registry loaded with
 * `reg seed`. Keep them in step with the README.
 */

export interface Example {
  readonly title: string;
  readonly query: string;
}

export const EXAMPLES: readonly Example[] = [
  {
    title: 'What each software produces',
    query: `PREFIX reg: <https://w3id.org/reg/ns#>
PREFIX schema: <https://schema.org/>
SELECT ?name ?type WHERE {
  GRAPH <urn:reg:local> {
    ?software a reg:Software ; schema:name ?name ; reg:hasCapability ?capability .
    ?capability reg:produces ?type .
    FILTER NOT EXISTS { ?software reg:tombstoned true }
  }
} ORDER BY ?name ?type LIMIT 50`,
  },
  {
    title: 'Labels of the types anything consumes',
    query: `PREFIX reg: <https://w3id.org/reg/ns#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
SELECT DISTINCT ?type ?label WHERE {
  GRAPH <urn:reg:local> { ?capability reg:consumes ?type }
  GRAPH ?vocabulary { ?type skos:prefLabel|rdfs:label ?label }
} ORDER BY ?label LIMIT 50`,
  },
  {
    title: 'Latest runs of one deployment',
    query: `PREFIX reg: <https://w3id.org/reg/ns#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT ?run ?status ?started WHERE {
  GRAPH <urn:reg:local> {
    ?deployment a reg:Instance ; rdfs:label "shacl.ids.unimaas.nl" .
    ?run prov:wasAssociatedWith ?deployment ; reg:status ?status ; prov:startedAtTime ?started .
  }
} ORDER BY DESC(?started) LIMIT 20`,
  },
  {
    title: 'Everything a report was derived from',
    query: `PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX dct: <http://purl.org/dc/terms/>
SELECT ?report ?title ?input WHERE {
  GRAPH <urn:reg:local> {
    ?report dct:title ?title ; prov:wasDerivedFrom+ ?input .
    FILTER(STRSTARTS(?title, "Validation report"))
  }
} LIMIT 10`,
  },
  {
    title: 'Statements per graph',
    query: `SELECT ?graph (COUNT(*) AS ?quads) WHERE { GRAPH ?graph { ?s ?p ?o } } GROUP BY ?graph ORDER BY ?graph`,
  },
];
