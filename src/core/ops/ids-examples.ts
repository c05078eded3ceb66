/**
 * The `ids-examples` worked example (contract §7): sixteen artifact types, four software of the Institute of
 * Data Science with one release and a declared capability each, and five deployments. Runs and artifacts are
 * generated from these by the seed service. Data only: nothing here writes.
 */

/** One artifact type minted at `{base}/type/<slug>`. */
export interface SeedType {
  readonly slug: string;
  readonly label: string;
  readonly definition: string;
  readonly mediaType: string;
}

/** One software, its release and what it consumes and produces (type slugs). */
export interface SeedSoftware {
  readonly name: string;
  readonly tagline: string;
  readonly description: string;
  readonly kind: 'service' | 'library' | 'cli';
  readonly version: string;
  readonly keywords: readonly string[];
  /** EuroSciVoc research topics, by preferred label; the seed looks their IRIs up in the bundled vocabulary. */
  readonly topics: readonly string[];
  readonly consumes: readonly string[];
  readonly produces: readonly string[];
}

/** One deployment of a seeded software. */
export interface SeedDeployment {
  readonly label: string;
  readonly software: string;
  readonly description: string;
  readonly endpoint?: string;
  readonly oidcClientId?: string;
}

/** The only worked example `reg seed` knows. */
export const IDS_EXAMPLES = 'ids-examples';

/** Where the seeded software's repositories live. */
export const REPOSITORY_OWNER = 'https://github.com/MaastrichtU-IDS';

/** The publisher of every seeded software, and operator of every seeded deployment. */
export const PUBLISHER = {
  name: 'Maastricht University — Institute of Data Science',
  kind: 'organization',
  identifier: 'https://ror.org/02jz4aj89',
  homepage: 'https://www.maastrichtuniversity.nl/research/institute-data-science',
} as const;

/** The contact of every seeded software. */
export const CONTACT = { name: 'Ensar Emir Erol', kind: 'person' } as const;

/** Licence of the seeded software (SPDX id). */
export const SOFTWARE_LICENSE = 'Apache-2.0';
/** Licence of the seeded artifacts (SPDX id). */
export const ARTIFACT_LICENSE = 'CC-BY-4.0';

/** An artifact at another registry that every first run consumes: the cross-registry example. */
export const FOREIGN_INPUT = 'https://reg.mumc.nl/artifact/01J7ZQK8W0RXAB3M2C7YQ1V4TD';

/** Where the seeded input graphs and reports are kept (behind an API key). */
export const DATA_HOST = 'https://data.ids.unimaas.nl';

/** Research topics every seeded software carries, beside its own. */
export const COMMON_TOPICS = ['computer and information sciences'] as const;

/** The sixteen artifact types of the example. */
export const SEED_TYPES: readonly SeedType[] = [
  {
    slug: 'rdf-graph',
    label: 'RDF graph',
    definition: 'A set of RDF triples describing resources, exchanged as one document.',
    mediaType: 'text/turtle',
  },
  {
    slug: 'shacl-shapes-graph',
    label: 'SHACL shapes graph',
    definition: 'An RDF graph of SHACL shapes stating the constraints a data graph must meet.',
    mediaType: 'text/turtle',
  },
  {
    slug: 'shacl-validation-report',
    label: 'SHACL validation report',
    definition:
      'The validation report a SHACL processor produces when it checks a data graph against shapes.',
    mediaType: 'text/turtle',
  },
  {
    slug: 'conformance-summary',
    label: 'Conformance summary',
    definition: 'A compact summary of a validation: whether the data conforms, and violations per shape.',
    mediaType: 'application/json',
  },
  {
    slug: 'schema-model',
    label: 'Schema model',
    definition:
      'A data model of classes and properties from which ontologies, shapes and diagrams are built.',
    mediaType: 'application/json',
  },
  {
    slug: 'sulo-ontology',
    label: 'SULO ontology',
    definition: 'An ontology built on SULO, the Simple Upper Level Ontology.',
    mediaType: 'text/turtle',
  },
  {
    slug: 'owl-ontology',
    label: 'OWL ontology',
    definition: 'An ontology expressed in the Web Ontology Language (OWL 2).',
    mediaType: 'text/turtle',
  },
  {
    slug: 'mermaid-uml',
    label: 'Mermaid UML diagram',
    definition: 'A UML class diagram written in Mermaid syntax, generated from a schema.',
    mediaType: 'text/vnd.mermaid',
  },
  {
    slug: 'sparql-update',
    label: 'SPARQL update',
    definition: 'A SPARQL 1.1 Update request that changes a graph store.',
    mediaType: 'application/sparql-update',
  },
  {
    slug: 'rdf-quads',
    label: 'RDF quads',
    definition: 'RDF statements together with the named graphs they belong to.',
    mediaType: 'application/n-quads',
  },
  {
    slug: 'patch-log',
    label: 'Hash-chained patch log',
    definition: 'An append-only log of RDF patches, each entry carrying the hash of the one before it.',
    mediaType: 'application/n-quads',
  },
  {
    slug: 'masked-replica',
    label: 'Masked RDF replica',
    definition: 'A copy of an RDF dataset in which sensitive values are masked or pseudonymised.',
    mediaType: 'application/n-quads',
  },
  {
    slug: 'relational-source',
    label: 'Relational source',
    definition: 'A relational database, as an SQL dump of schema and data, used as the source of a mapping.',
    mediaType: 'application/sql',
  },
  {
    slug: 'r2rml-mapping',
    label: 'R2RML/RML mapping',
    definition: 'An R2RML or RML mapping from relational or structured sources to RDF.',
    mediaType: 'text/turtle',
  },
  {
    slug: 'materialised-view',
    label: 'Materialised RDF view',
    definition: 'RDF materialised from a source through a mapping and kept for querying.',
    mediaType: 'application/n-quads',
  },
  {
    slug: 'mapping-coverage-report',
    label: 'Mapping coverage report',
    definition: 'A report of which source tables and columns a mapping covers and which it leaves out.',
    mediaType: 'application/json',
  },
];

/** The four software of the example, in the order they are registered. */
export const SEED_SOFTWARE: readonly SeedSoftware[] = [
  {
    name: 'shacl-manager',
    tagline: 'Manage SHACL shapes and validate RDF graphs against them.',
    description:
      'A service that keeps SHACL shapes graphs, validates RDF graphs against them and reports the outcome as a SHACL validation report and a conformance summary.',
    kind: 'service',
    version: '2.1.0',
    keywords: ['shacl', 'validation', 'rdf', 'data quality'],
    topics: ['semantic web', 'software'],
    consumes: ['rdf-graph', 'shacl-shapes-graph'],
    produces: ['shacl-validation-report', 'conformance-summary'],
  },
  {
    name: 'sulo-schema-builder',
    tagline: 'Build SULO ontologies, SHACL shapes and UML diagrams from one schema model.',
    description:
      'A service that turns a schema model into an OWL ontology aligned with SULO, the SHACL shapes that check data against it, and a Mermaid UML diagram.',
    kind: 'service',
    version: '0.9.2',
    keywords: ['sulo', 'ontology', 'owl', 'shacl', 'uml'],
    topics: ['ontology', 'knowledge engineering'],
    consumes: ['schema-model', 'sulo-ontology'],
    produces: ['rdf-graph', 'owl-ontology', 'shacl-shapes-graph', 'mermaid-uml'],
  },
  {
    name: 'rdf_tx',
    tagline: 'Transactional RDF updates with a hash-chained patch log and masked replicas.',
    description:
      'A library that applies SPARQL updates and RDF quads as transactions, records every change in a hash-chained patch log and keeps masked replicas for sharing.',
    kind: 'library',
    version: '0.4.0',
    keywords: ['rdf', 'sparql', 'transactions', 'provenance'],
    topics: ['databases', 'semantic web'],
    consumes: ['sparql-update', 'rdf-quads'],
    produces: ['patch-log', 'masked-replica'],
  },
  {
    name: 'obda-lazy-cache-demo',
    tagline: 'Ontology-based data access over relational sources with a lazily materialised RDF cache.',
    description:
      'A command-line demonstration of ontology-based data access: it maps a relational source to RDF with R2RML/RML, materialises views lazily and reports mapping coverage.',
    kind: 'cli',
    version: '0.2.0',
    keywords: ['obda', 'r2rml', 'rml', 'rdf', 'caching'],
    topics: ['databases', 'data science'],
    consumes: ['relational-source', 'r2rml-mapping'],
    produces: ['materialised-view', 'mapping-coverage-report'],
  },
];

/** The five deployments; the first four advertise runs. */
export const SEED_DEPLOYMENTS: readonly SeedDeployment[] = [
  {
    label: 'shacl.ids.unimaas.nl',
    software: 'shacl-manager',
    description: 'The shared SHACL validation service of the Institute of Data Science.',
    endpoint: 'https://shacl.ids.unimaas.nl',
    oidcClientId: 'shacl-manager-ids3',
  },
  {
    label: 'laptop-eerol',
    software: 'shacl-manager',
    description: 'A developer laptop running shacl-manager for local validation batches.',
  },
  {
    label: 'sulo.ids.unimaas.nl',
    software: 'sulo-schema-builder',
    description: 'The schema builder service of the Institute of Data Science.',
    endpoint: 'https://sulo.ids.unimaas.nl',
    oidcClientId: 'sulo-schema-builder-ids3',
  },
  {
    label: 'rdf-tx-idsg2',
    software: 'rdf_tx',
    description: 'rdf_tx embedded in a data pipeline on the idsg2 cluster.',
    oidcClientId: 'rdf-tx-idsg2',
  },
  {
    label: 'obda-demo-ids3',
    software: 'obda-lazy-cache-demo',
    description: 'A public demonstration of the lazy OBDA cache.',
    endpoint: 'https://obda-demo.ids.unimaas.nl',
  },
];

/** Deployments that advertise runs: the first four (all but the OBDA demo). */
export const RUNNING_DEPLOYMENTS = 4;
/** Runs each running deployment advertises. */
export const RUNS_PER_DEPLOYMENT = 3;
/** Duration of run i (0-based) in seconds. */
export const RUN_SECONDS: readonly number[] = [38, 49, 60];
/** The one failed run: deployment index 2 (sulo.ids.unimaas.nl), run index 1. */
export const FAILED_RUN = { deployment: 2, run: 1 } as const;
