import { DataFactory, Parser } from 'n3';
import * as ox from 'oxigraph';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createValidator,
  type RecordValidator,
  type ValidationReport,
} from '../../src/core/validate/index.js';
import { buildBundles } from '../../src/core/vocab/bundles.js';

const PREFIXES = `
@prefix reg: <https://w3id.org/reg/ns#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix dct: <http://purl.org/dc/terms/> .
@prefix dcat: <http://www.w3.org/ns/dcat#> .
@prefix prov: <http://www.w3.org/ns/prov#> .
@prefix schema: <https://schema.org/> .
@prefix spdx: <http://spdx.org/rdf/terms#> .
@prefix codemeta: <https://codemeta.github.io/terms/> .
@prefix b: <https://reg.example.org/> .
`;

const PUBLISHER = `
<https://ror.org/02jz4aj89> a prov:Agent, prov:Organization ; schema:name "Institute of Data Science" ;
  schema:url <https://www.maastrichtuniversity.nl/ids> .`;

const SOFTWARE = `
<https://reg.example.org/software/s1> a reg:Software, schema:SoftwareApplication, schema:SoftwareSourceCode ;
  schema:name "shacl-manager" ; dct:abstract "Validates RDF against SHACL shapes" ; dct:description "Longer text." ;
  schema:url <https://github.com/example/shacl-manager> ; schema:codeRepository <https://github.com/example/shacl-manager> ;
  schema:softwareHelp <https://github.com/example/shacl-manager#readme> ;
  dct:license <https://spdx.org/licenses/Apache-2.0> ;
  schema:applicationCategory "service", "library" ; codemeta:developmentStatus "active" ; reg:deployable true ;
  dct:subject <http://data.europa.eu/8mn/euroscivoc/00401515-e61c-4f33-bcb0-33ff40c6aa20> ;
  schema:keywords "shacl", "validation" ; dct:publisher <https://ror.org/02jz4aj89> ;
  codemeta:maintainer <https://reg.example.org/agent/a1> ; reg:readme "# shacl-manager" ;
  reg:readmeBaseURL <https://raw.githubusercontent.com/example/shacl-manager/main/> ;
  dcat:endpointDescription <https://reg.example.org/software/s1#api-doc-0> ;
  reg:registrationClient "shacl-manager-ids3" ; reg:registrationIssuer <https://idp.example.org/realms/reg> ;
  reg:sync <https://reg.example.org/software/s1#sync> ; reg:hasCapability <https://reg.example.org/software/s1#capability> ;
  dct:created "2026-01-01T10:00:00Z"^^xsd:dateTime .
<https://reg.example.org/agent/a1> a prov:Agent, prov:Person ; schema:name "Ensar Emir Erol" ; schema:email "e.erol@example.org" .
<https://reg.example.org/software/s1#api-doc-0> a reg:ApiDescription, dct:Standard ;
  schema:url <https://shacl.example.org/openapi.json> ; reg:apiFormat "openapi" ; dct:title "REST API" .
<https://reg.example.org/software/s1#sync> a reg:RepositorySync ; reg:syncSource "github" ;
  reg:syncRepo "example/shacl-manager" ; reg:syncField "tagline", "readme" ; reg:syncEnabled true ;
  reg:syncStatus "never" .
<https://reg.example.org/software/s1#capability> a reg:Capability ;
  reg:produces <https://reg.example.org/type/shacl-validation-report> ; reg:consumes <http://edamontology.org/data_0006> .
${PUBLISHER}`;

const RELEASE = `
<https://reg.example.org/release/r1> a reg:Release, schema:SoftwareApplication, prov:Plan ;
  schema:softwareVersion "2.1.0" ; dct:isVersionOf <https://reg.example.org/software/s1> ;
  schema:datePublished "2026-01-15"^^xsd:date ; reg:containerImage "ghcr.io/example/shacl-manager:2.1.0" ;
  reg:imageDigest "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" ;
  reg:installCommand "docker pull ghcr.io/example/shacl-manager:2.1.0" ;
  schema:releaseNotes <https://github.com/example/shacl-manager/releases> ;
  reg:download <https://reg.example.org/release/r1#download-0> ;
  reg:hasCapability <https://reg.example.org/release/r1#capability> .
<https://reg.example.org/release/r1#download-0> a reg:Download ;
  dcat:downloadURL <https://github.com/example/shacl-manager/releases/download/v2.1.0/sm-linux-amd64> ;
  reg:platform "linux-amd64" ; dcat:byteSize 10485760 ; reg:availability "public" .
<https://reg.example.org/release/r1#capability> a reg:Capability ; reg:produces <http://edamontology.org/data_0006> .`;

const INSTANCE = `
<https://reg.example.org/instance/i1> a reg:Instance, prov:SoftwareAgent, dcat:DataService ;
  rdfs:label "shacl.ids.example.org" ; dct:description "Production deployment" ;
  reg:instanceOf <https://reg.example.org/software/s1> ; reg:runsRelease <https://reg.example.org/release/r1> ;
  dcat:endpointURL <https://shacl.ids.example.org> ; reg:healthEndpoint <https://shacl.ids.example.org/healthz> ;
  schema:provider <https://ror.org/02jz4aj89> ; reg:availability "restricted" ; reg:jurisdiction "NL" ;
  reg:oidcClientId "shacl-manager-ids3" ; reg:oidcIssuer <https://idp.example.org/realms/reg> ;
  reg:allowedScope "advertise:produce", "advertise:consume" ; reg:instanceKey "cluster-a" ;
  reg:hasCapability <https://reg.example.org/instance/i1#capability> .
<https://reg.example.org/instance/i1#capability> a reg:Capability ; reg:consumes <http://edamontology.org/data_0006> .
${PUBLISHER}`;

const RUN = `
<https://reg.example.org/run/u1> a prov:Activity ;
  dct:identifier "gh-actions/123457/attempt-1" ; reg:status "success" ; schema:actionStatus schema:CompletedActionStatus ;
  prov:startedAtTime "2026-02-01T10:00:00Z"^^xsd:dateTime ; prov:endedAtTime "2026-02-01T10:00:38Z"^^xsd:dateTime ;
  rdfs:label "validate-batch-1" ; prov:wasAssociatedWith <https://reg.example.org/instance/i1> ;
  reg:usedRelease <https://reg.example.org/release/r1> ; prov:used <https://reg.mumc.nl/artifact/01J7ZQK8W0RXAB3M2C7YQ1V4TD> .`;

const ARTIFACT = `
<https://reg.example.org/artifact/a1> a dcat:Dataset, prov:Entity ;
  dct:title "Validation report - batch 1" ; dct:description "Report" ;
  dct:conformsTo <https://reg.example.org/type/shacl-validation-report> ;
  dct:license <https://spdx.org/licenses/CC-BY-4.0> ; dcat:keyword "SHACL", "pizza-ontology" ;
  dcat:theme <https://reg.example.org/keyword/shacl> ;
  prov:wasDerivedFrom <https://reg.mumc.nl/artifact/01J7ZQK8W0RXAB3M2C7YQ1V4TD> ;
  dct:isVersionOf <https://reg.example.org/artifact-series/x1> ; dct:identifier "report-1" ;
  prov:wasGeneratedBy <https://reg.example.org/run/u1> ; prov:wasAttributedTo <https://reg.example.org/instance/i1> ;
  dct:issued "2026-02-01T10:00:38Z"^^xsd:dateTime ;
  dcat:distribution <https://reg.example.org/artifact/a1#distribution-0>, <https://reg.example.org/artifact/a1#distribution-1> ;
  prov:qualifiedAttribution <https://reg.example.org/artifact/a1#producingSystem>, <https://reg.example.org/artifact/a1#producingUser> .
<https://reg.example.org/artifact/a1#distribution-0> a dcat:Distribution ;
  dcat:downloadURL <https://data.example.org/reports/1.ttl> ; dcat:mediaType "text/turtle" ; dcat:byteSize 2100000 ;
  spdx:checksum <https://reg.example.org/artifact/a1#distribution-0-checksum> ;
  prov:specializationOf <ni:///sha-256;47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU> ;
  reg:accessProtocol "https" ; reg:authMethod "apikey" ; reg:availability "restricted" .
<https://reg.example.org/artifact/a1#distribution-0-checksum> a spdx:Checksum ;
  spdx:algorithm spdx:checksumAlgorithm_sha256 ;
  spdx:checksumValue "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" .
<https://reg.example.org/artifact/a1#distribution-1> a dcat:Distribution ; reg:availability "metadata-only" ;
  reg:accessRequestURL <https://data.example.org/request> .
<https://reg.example.org/artifact/a1#producingSystem> a prov:Attribution ;
  prov:agent <https://reg.example.org/agent/sys> ; prov:hadRole reg:producingSystem .
<https://reg.example.org/artifact/a1#producingUser> a prov:Attribution ;
  prov:agent <https://orcid.org/0000-0002-1825-0097> ; prov:hadRole reg:producingUser .
<https://reg.example.org/agent/sys> a prov:Agent, prov:SoftwareAgent ; schema:name "shacl-manager" ;
  schema:softwareVersion "2.1.0" ; prov:actedOnBehalfOf <https://orcid.org/0000-0002-1825-0097> .
<https://orcid.org/0000-0002-1825-0097> a prov:Agent, prov:Person ; schema:name "Josiah Carberry" .`;

const TYPE = `
<https://reg.example.org/type/shacl-validation-report> a reg:ArtifactType, skos:Concept ;
  skos:prefLabel "SHACL validation report" ; skos:definition "A report of a SHACL validation." ;
  reg:defaultMediaType "text/turtle" .`;

function quads(turtle: string) {
  return new Parser({ format: 'text/turtle' }).parse(PREFIXES + turtle);
}

function violations(report: ValidationReport): string[] {
  return report.results.filter((r) => r.severity === 'violation').map((r) => r.field);
}

let validator: RecordValidator;

beforeAll(() => {
  const shapes = buildBundles('https://reg.example.org').find((bundle) => bundle.name === 'shapes');
  if (shapes === undefined) throw new Error('no shapes bundle');
  validator = createValidator(shapes.ntriples);
});

describe('valid records conform', () => {
  it.each([
    ['software', SOFTWARE],
    ['release', RELEASE],
    ['instance', INSTANCE],
    ['run', RUN],
    ['artifact', ARTIFACT],
    ['artifact type', TYPE],
  ])('%s', async (_kind, turtle) => {
    const report = await validator.validate(quads(turtle));
    expect(report.results).toEqual([]);
    expect(report.conforms).toBe(true);
  });

  it('accepts records whose quads sit in a named graph', async () => {
    const inLocalGraph = (turtle: string) =>
      quads(turtle).map((q) =>
        DataFactory.quad(q.subject, q.predicate, q.object, DataFactory.namedNode('urn:reg:local')),
      );
    const named = inLocalGraph(SOFTWARE);
    expect(named[0]?.graph.value).toBe('urn:reg:local');
    expect((await validator.validate(named)).conforms).toBe(true);
    const broken = inLocalGraph('<https://reg.example.org/software/s2> a reg:Software .');
    expect(violations(await validator.validate(broken))).toContain('name');
  });
});

describe('input from other RDF libraries', () => {
  it('validates quads made by oxigraph, as the store hands them out', async () => {
    const store = new ox.Store();
    store.load(
      PREFIXES + '<https://reg.example.org/software/s9> a reg:Software ; schema:applicationCategory "x" .',
      {
        format: 'text/turtle',
        to_graph_name: ox.namedNode('urn:reg:local'),
      },
    );
    const report = await validator.validate(store.match(null, null, null, null));
    expect(report.results.map((r) => [r.severity, r.field])).toEqual([
      ['violation', 'kinds'],
      ['violation', 'name'],
      ['warning', 'license'],
    ]);
  });
});

describe('invalid records name every violation by JSON field', () => {
  it('software without name and with a bad kind value', async () => {
    const report = await validator.validate(
      quads(`<https://reg.example.org/software/s2> a reg:Software ;
        schema:applicationCategory "daemon", "cli" ; dct:license "Apache-2.0" ; reg:deployable "yes" .`),
    );
    expect(report.conforms).toBe(false);
    expect(violations(report)).toEqual(['deployable', 'kinds', 'license', 'name']);
    const kind = report.results.find((r) => r.field === 'kinds');
    expect(kind?.value).toBe('daemon');
    expect(kind?.message).toMatch(/^kinds must each be one of service, library, cli, desktop, workflow/);
    expect(report.results.find((r) => r.field === 'name')?.component).toMatch(/MinCountConstraintComponent$/);
  });

  it('software without licence gets a warning, not a violation', async () => {
    const report = await validator.validate(
      quads('<https://reg.example.org/software/s3> a reg:Software ; schema:name "x" .'),
    );
    expect(report.conforms).toBe(true);
    expect(report.results).toHaveLength(1);
    expect(report.results[0]).toMatchObject({ severity: 'warning', field: 'license' });
  });

  it('distribution byte_size that is not an integer, named with its position', async () => {
    const turtle = ARTIFACT.replace('dcat:byteSize 2100000', 'dcat:byteSize "2.1 MB"');
    const plain = await validator.validate(quads(turtle));
    expect(violations(plain)).toEqual(['distributions.byte_size']);
    const located = await validator.validate(quads(turtle), {
      locate: new Map([['https://reg.example.org/artifact/a1#distribution-0', 'distributions[0]']]),
    });
    const result = located.results[0];
    expect(result).toMatchObject({
      field: 'distributions[0].byte_size',
      value: '2.1 MB',
      valueType: 'literal',
    });
    expect(result?.message).toMatch(/^distributions\[0\]\.byte_size must be a whole number/);
  });

  it('metadata-only distribution with a download URL, and an obtainable one without any URL', async () => {
    const report = await validator.validate(
      quads(`<https://reg.example.org/artifact/a2> a dcat:Dataset ; dct:title "t" ;
        dct:conformsTo <https://reg.example.org/type/x> ;
        dcat:distribution <https://reg.example.org/artifact/a2#distribution-0>, <https://reg.example.org/artifact/a2#distribution-1> .
      <https://reg.example.org/artifact/a2#distribution-0> a dcat:Distribution ; reg:availability "metadata-only" ;
        dcat:downloadURL <https://data.example.org/x> .
      <https://reg.example.org/artifact/a2#distribution-1> a dcat:Distribution ; reg:availability "public" ;
        reg:accessProtocol "gopher" .`),
      {
        locate: new Map([
          ['https://reg.example.org/artifact/a2#distribution-0', 'distributions[0]'],
          ['https://reg.example.org/artifact/a2#distribution-1', 'distributions[1]'],
        ]),
      },
    );
    expect(violations(report)).toEqual([
      'distributions[0].download_url',
      'distributions[1].access_protocol',
      'distributions[1].download_url',
    ]);
  });

  it('run without started_at, with a bad status and ending before it starts', async () => {
    const report = await validator.validate(
      quads(`<https://reg.example.org/run/u2> a prov:Activity ; reg:status "done" ;
        prov:endedAtTime "2026-02-01T10:00:00Z"^^xsd:dateTime ; prov:wasAssociatedWith <https://reg.example.org/instance/i1> .`),
    );
    expect(violations(report)).toEqual(['run.started_at', 'run.status']);
    const backwards = await validator.validate(
      quads(`<https://reg.example.org/run/u3> a prov:Activity ; reg:status "success" ;
        prov:startedAtTime "2026-02-01T11:00:00Z"^^xsd:dateTime ; prov:endedAtTime "2026-02-01T10:00:00Z"^^xsd:dateTime ;
        prov:wasAssociatedWith <https://reg.example.org/instance/i1> .`),
    );
    expect(backwards.conforms).toBe(true);
    expect(backwards.results.map((r) => [r.severity, r.field])).toEqual([['warning', 'run.ended_at']]);
  });

  it('run with an ill-formed timestamp', async () => {
    const report = await validator.validate(
      quads(`<https://reg.example.org/run/u4> a prov:Activity ; prov:startedAtTime "2026-13-99T00:00:00Z"^^xsd:dateTime ;
        prov:wasAssociatedWith <https://reg.example.org/instance/i1> .`),
    );
    expect(violations(report)).toEqual(['run.started_at']);
  });

  it('instance with a bad availability, an issuer without client id and no software', async () => {
    const report = await validator.validate(
      quads(`<https://reg.example.org/instance/i2> a reg:Instance ; rdfs:label "x" ; reg:availability "open" ;
        reg:oidcIssuer <https://idp.example.org> ; reg:allowedScope "advertise:everything" .`),
    );
    expect(violations(report)).toEqual(['allowed_scopes', 'availability', 'oidc_issuer', 'software']);
    expect(report.results.find((r) => r.field === 'availability')?.value).toBe('open');
  });

  it('release without version, with a malformed digest and a download without URL', async () => {
    const report = await validator.validate(
      quads(`<https://reg.example.org/release/r2> a reg:Release ; dct:isVersionOf <https://reg.example.org/software/s1> ;
        reg:imageDigest "9f86d081" ; schema:datePublished "yesterday"^^xsd:date ;
        reg:download <https://reg.example.org/release/r2#download-0> .
      <https://reg.example.org/release/r2#download-0> a reg:Download ; dcat:byteSize -5 .`),
    );
    expect(violations(report)).toEqual([
      'date_published',
      'downloads.byte_size',
      'downloads.url',
      'image_digest',
      'version',
    ]);
  });

  it('agent without name or kind, referenced as publisher', async () => {
    const report = await validator.validate(
      quads(`<https://reg.example.org/software/s4> a reg:Software ; schema:name "x" ;
        dct:license <https://spdx.org/licenses/MIT> ; dct:publisher <https://reg.example.org/agent/p> .
      <https://reg.example.org/agent/p> a prov:Agent ; schema:email "not-an-address" .`),
      { locate: new Map([['https://reg.example.org/agent/p', 'publisher']]) },
    );
    expect(violations(report)).toEqual(['publisher.email', 'publisher.kind', 'publisher.name']);
  });

  it('publisher whose type is missing from the candidate fails sh:class', async () => {
    const report = await validator.validate(
      quads(`<https://reg.example.org/software/s5> a reg:Software ; schema:name "x" ;
        dct:license <https://spdx.org/licenses/MIT> ; dct:publisher <https://ror.org/02jz4aj89> .`),
    );
    expect(violations(report)).toEqual(['publisher']);
  });

  it('checksum with an unknown algorithm and a non-hex value', async () => {
    const turtle = ARTIFACT.replace('spdx:checksumAlgorithm_sha256', 'spdx:checksumAlgorithm_crc7').replace(
      '"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"',
      '"not hex"',
    );
    const report = await validator.validate(quads(turtle));
    expect(violations(report)).toEqual(['distributions.checksum.algorithm', 'distributions.checksum.value']);
  });

  it('artifact type without a preferred label', async () => {
    const report = await validator.validate(
      quads('<https://reg.example.org/type/t> a reg:ArtifactType, skos:Concept ; skos:definition "d" .'),
    );
    expect(violations(report)).toEqual(['label']);
  });

  it('artifact without title, with two types and a literal licence', async () => {
    const report = await validator.validate(
      quads(`<https://reg.example.org/artifact/a3> a dcat:Dataset ;
        dct:conformsTo <https://reg.example.org/type/a>, <https://reg.example.org/type/b> ; dct:license "CC-BY-4.0" .`),
    );
    expect(violations(report)).toEqual(['conforms_to', 'license', 'title']);
    expect(report.results.filter((r) => r.severity === 'warning').map((r) => r.field)).toEqual([
      'distributions',
    ]);
  });
});
