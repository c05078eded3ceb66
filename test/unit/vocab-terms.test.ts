import { readFileSync } from 'node:fs';
import { DataFactory, Parser, Store } from 'n3';
import { describe, expect, it } from 'vitest';
import { DCT, OWL, PREFIXES, RDF, RDFS, REG, SKOS } from '../../src/core/ns.js';

const namedNode = (iri: string) => DataFactory.namedNode(iri);
const literal = (value: string, lang: string) => DataFactory.literal(value, lang);
const vocab = new Store(
  new Parser({ format: 'text/turtle' }).parse(
    readFileSync(new URL('../../shapes/vocab.ttl', import.meta.url), 'utf8'),
  ),
);
const objects = (s: string, p: string) =>
  vocab.getObjects(namedNode(s), namedNode(p), null).map((o) => o.value);

const PROPERTIES = [
  'hasCapability',
  'environment',
  'deployedVersion',
  'deployedArtifact',
  'removedAt',
  'produces',
  'consumes',
  'runsRelease',
  'instanceOf',
  'usedRelease',
  'sync',
  'availability',
  'accessProtocol',
  'authMethod',
  'accessRequestURL',
  'defaultMediaType',
  'status',
  'openLineagePayload',
  'claimedNamespace',
  'tombstoned',
  'tombstonedAt',
  'health',
  'healthCheckedAt',
  'healthDetail',
  'lastSeenAt',
  'deployable',
  'readme',
  'readmeBaseURL',
  'registrationClient',
  'registrationIssuer',
  'containerImage',
  'imageDigest',
  'installCommand',
  'healthEndpoint',
  'jurisdiction',
  'selfRegisteredBy',
  'instanceKey',
  'oidcClientId',
  'oidcIssuer',
  'allowedScope',
  'apiFormat',
  'temporalStart',
  'temporalEnd',
  'rowCount',
  'datasetNamespace',
  'datasetName',
  'byteSize',
  'fileCount',
  'openLineageFacets',
  'syncSource',
  'syncRepo',
  'syncField',
  'syncEnabled',
  'syncedAt',
  'syncStatus',
  'syncError',
  'syncChanged',
  'inBroader',
  'jsonField',
];

describe('vocab.ttl', () => {
  it('declares every registry property with a label and a comment saying why it exists', () => {
    for (const name of PROPERTIES) {
      const iri = REG(name);
      expect(objects(iri, RDF('type')).length, name).toBeGreaterThan(0);
      expect(objects(iri, RDFS('label')), name).toHaveLength(1);
      expect(objects(iri, RDFS('comment'))[0]?.length ?? 0, name).toBeGreaterThan(30);
    }
  });

  it('declares the record classes and the concept classes as kinds of skos:Concept', () => {
    for (const name of [
      'Software',
      'Release',
      'Instance',
      'Capability',
      'ArtifactSeries',
      'RepositorySync',
    ]) {
      expect(objects(REG(name), RDF('type')), name).toContain(OWL('Class'));
    }
    for (const name of ['ArtifactType', 'ResearchTopic', 'ArtifactKeyword', 'LegacyTopic']) {
      expect(objects(REG(name), RDFS('subClassOf')), name).toEqual([SKOS('Concept')]);
    }
    expect(objects(REG('producingSystem'), RDF('type'))).toEqual([`${PREFIXES.prov}Role`]);
    expect(objects(REG('producingUser'), RDF('type'))).toEqual([`${PREFIXES.prov}Role`]);
  });

  it('defines registry artifact types, including the tabular dataset', () => {
    expect(objects(REG('TabularDataset'), RDF('type')).sort()).toEqual(
      [REG('ArtifactType'), SKOS('Concept')].sort(),
    );
    expect(
      vocab.has(
        DataFactory.quad(
          namedNode(REG('TabularDataset')),
          namedNode(SKOS('prefLabel')),
          literal('Tabular dataset', 'en'),
        ),
      ),
    ).toBe(true);
    expect(objects(REG('TabularDataset'), SKOS('definition'))).toHaveLength(1);
  });

  it('keeps the eight retired terms, flagged deprecated, with replacements where there is one', () => {
    const deprecated = vocab
      .getSubjects(namedNode(OWL('deprecated')), null, null)
      .map((s) => s.value.slice(PREFIXES.reg.length))
      .sort();
    expect(deprecated).toEqual(
      [
        'atInstance',
        'conceptBranch',
        'contact',
        'externalKey',
        'homeRegistry',
        'kind',
        'maturity',
        'tagline',
      ].sort(),
    );
    expect(objects(REG('tagline'), DCT('isReplacedBy'))).toEqual([DCT('abstract')]);
    expect(objects(REG('atInstance'), DCT('isReplacedBy'))).toEqual([`${PREFIXES.prov}wasAssociatedWith`]);
    expect(objects(REG('maturity'), DCT('isReplacedBy'))).toEqual([`${PREFIXES.codemeta}developmentStatus`]);
    expect(objects(REG('conceptBranch'), DCT('isReplacedBy'))).toEqual([]);
    for (const name of deprecated) expect(objects(REG(name), OWL('deprecated')), name).toEqual(['true']);
  });
});
