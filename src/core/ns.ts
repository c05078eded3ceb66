/**
 * Namespaces, graph names and terms the registry writes or reads. Every IRI the code needs is declared here,
 * so no module spells one out by hand.
 */

/** Builds a term factory for one namespace: `ns('x')` is the namespace IRI followed by `x`. */
function namespace(base: string): (local: string) => string {
  return (local: string) => base + local;
}

/** Namespace IRIs by their usual prefix. */
export const PREFIXES = {
  reg: 'https://w3id.org/reg/ns#',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  owl: 'http://www.w3.org/2002/07/owl#',
  sh: 'http://www.w3.org/ns/shacl#',
  skos: 'http://www.w3.org/2004/02/skos/core#',
  dct: 'http://purl.org/dc/terms/',
  dcat: 'http://www.w3.org/ns/dcat#',
  prov: 'http://www.w3.org/ns/prov#',
  schema: 'https://schema.org/',
  void: 'http://rdfs.org/ns/void#',
  spdx: 'http://spdx.org/rdf/terms#',
  codemeta: 'https://codemeta.github.io/terms/',
  foaf: 'http://xmlns.com/foaf/0.1/',
  adms: 'http://www.w3.org/ns/adms#',
} as const;

export const REG = namespace(PREFIXES.reg);
export const RDF = namespace(PREFIXES.rdf);
export const RDFS = namespace(PREFIXES.rdfs);
export const XSD = namespace(PREFIXES.xsd);
export const OWL = namespace(PREFIXES.owl);
export const SH = namespace(PREFIXES.sh);
export const SKOS = namespace(PREFIXES.skos);
export const DCT = namespace(PREFIXES.dct);
export const DCAT = namespace(PREFIXES.dcat);
export const PROV = namespace(PREFIXES.prov);
export const SCHEMA = namespace(PREFIXES.schema);
export const VOID = namespace(PREFIXES.void);
export const SPDX = namespace(PREFIXES.spdx);
export const CODEMETA = namespace(PREFIXES.codemeta);
export const FOAF = namespace(PREFIXES.foaf);
export const ADMS = namespace(PREFIXES.adms);

/** Named graphs of the registry's own dataset. */
export const GRAPHS = {
  /** The registry's own records, including minted and adopted types. */
  local: 'urn:reg:local',
  /** One provenance node per bundle graph: digest, size, load time. */
  catalogue: 'urn:reg:bundles',
  shapes: 'urn:reg:shapes',
  vocab: 'urn:reg:bundle:vocab',
  edam: 'urn:reg:bundle:edam',
  euroscivoc: 'urn:reg:bundle:euroscivoc',
  spdx: 'urn:reg:bundle:spdx',
  keywords: 'urn:reg:bundle:keywords',
} as const;

/** Prefix of the graph holding one peer's cached stubs. */
export const PEER_GRAPH_PREFIX = 'urn:reg:peer:';

/** Base of the problem type IRIs of RFC 9457 error bodies. */
export const PROBLEM_BASE = 'https://w3id.org/reg/problem/';

/** Subject IRI of the bootstrap administrator (the root token). */
export const ROOT_SUBJECT = 'urn:reg:root';
