/**
 * The lineage index: what it takes from a record's lines, and the steps it answers (both ways, with `as_of`, in
 * pages), on a real database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/core/store/database.js';
import {
  claimLineageIndex,
  indexRecordLineage,
  lineageIndexReady,
  lineageRefillPosition,
  refillLineage,
} from '../../src/core/store/lineage/lineage-index.js';
import { FACT, LINK, lineageFactsOf } from '../../src/core/store/lineage/lineage-facts.js';
import { lineageNodeRows, lineageStepLines } from '../../src/core/store/lineage/lineage-walk.js';
import { tempDir } from '../helpers.js';

const PROV = 'http://www.w3.org/ns/prov#';
const G = '<urn:g>';
const line = (s: string, p: string, o: string) => `<${s}> <${p}> ${o} ${G} .`;

describe('lineageFactsOf', () => {
  it('takes links, kinds, titles and creation times, and passes everything else over', () => {
    const { links, nodes } = lineageFactsOf([
      line('urn:a2', `${PROV}wasGeneratedBy`, '<urn:run>'),
      line('urn:run', `${PROV}used`, '<urn:a1>'),
      line('urn:a2', `${PROV}wasDerivedFrom`, '"not a node"'),
      `_:b1 <${PROV}used> <urn:a1> ${G} .`,
      line(
        'urn:a2',
        'http://www.w3.org/1999/02/22-rdf-syntax-ns#type',
        '<http://www.w3.org/ns/dcat#Dataset>',
      ),
      line('urn:a2', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', '<http://example.org/Other>'),
      line('urn:a2', 'http://purl.org/dc/terms/title', '"orders \\"daily\\"\\u00e9"@en'),
      line(
        'urn:run',
        'http://purl.org/dc/terms/created',
        '"2026-04-01T03:00:00+02:00"^^<http://www.w3.org/2001/XMLSchema#dateTime>',
      ),
      line(
        'urn:a2',
        'http://purl.org/dc/terms/created',
        '"2026-04-01"^^<http://www.w3.org/2001/XMLSchema#date>',
      ),
      line('urn:a2', 'http://purl.org/dc/terms/format', '"text/csv"'),
    ]);
    expect(links).toEqual([
      { s: 'urn:a2', p: LINK.generatedBy, o: 'urn:run' },
      { s: 'urn:run', p: LINK.used, o: 'urn:a1' },
    ]);
    expect(nodes).toEqual([
      { s: 'urn:a2', p: FACT.artifact, o: '' },
      { s: 'urn:a2', p: FACT.title, o: 'orders "daily"é' },
      { s: 'urn:run', p: FACT.created, o: '2026-04-01T01:00:00.000Z' },
    ]);
  });
});

describe('lineageFactsOf, for lists filtered by words and keywords', () => {
  it('takes descriptions, taglines, identifiers, keywords and themes as their text', () => {
    const DCT = 'http://purl.org/dc/terms/';
    const { links, nodes } = lineageFactsOf([
      line('urn:sw', `${DCT}description`, '"Validates \\"shapes\\"\\nfast"@en'),
      line('urn:sw', `${DCT}abstract`, '"Σύνοψη"'),
      line('urn:sw', 'https://schema.org/keywords', '"SHACL"'),
      line('urn:run', 'https://schema.org/identifier', '"run-1"'),
      line('urn:run', `${DCT}identifier`, '"key:1"'),
      line('urn:a', 'http://www.w3.org/ns/dcat#keyword', '"rdf"'),
      line('urn:a', 'http://www.w3.org/ns/dcat#theme', '<urn:keyword/rdf>'),
      line('urn:a', 'http://www.w3.org/ns/dcat#theme', '"not a link"'),
    ]);
    expect(links).toEqual([{ s: 'urn:a', p: LINK.theme, o: 'urn:keyword/rdf' }]);
    expect(nodes).toEqual([
      { s: 'urn:sw', p: FACT.description, o: 'Validates "shapes"\nfast' },
      { s: 'urn:sw', p: FACT.abstract, o: 'Σύνοψη' },
      { s: 'urn:sw', p: FACT.keywords, o: 'SHACL' },
      { s: 'urn:run', p: FACT.identifier, o: 'run-1' },
      { s: 'urn:run', p: FACT.externalKey, o: 'key:1' },
      { s: 'urn:a', p: FACT.keyword, o: 'rdf' },
    ]);
  });
});

describe('lineageFactsOf, for lookups by value and series versions', () => {
  it('takes the values records are looked up by, and issue times in UTC', () => {
    const REG = 'https://w3id.org/reg/ns#';
    const XSD = 'http://www.w3.org/2001/XMLSchema#';
    const { nodes } = lineageFactsOf([
      line('urn:i', `${REG}selfRegisteredBy`, '"urn:reg:token:t1"'),
      line('urn:i', `${REG}instanceKey`, '"node-a"'),
      line('urn:i', `${REG}oidcClientId`, '"client"'),
      line('urn:sw', `${REG}registrationClient`, '"runner"'),
      line('urn:sw#publisher-1', `${REG}publisherIssuer`, '<https://issuer.example>'),
      line('urn:r', `${REG}imageDigest`, '"sha256:ab"'),
      line('urn:v', 'http://purl.org/dc/terms/issued', `"2026-01-01T10:00:00+02:00"^^<${XSD}dateTime>`),
      line('urn:v', 'http://www.w3.org/ns/dcat#version', '"4"'),
    ]);
    expect(nodes).toEqual([
      { s: 'urn:i', p: FACT.selfRegisteredBy, o: 'urn:reg:token:t1' },
      { s: 'urn:i', p: FACT.instanceKey, o: 'node-a' },
      { s: 'urn:i', p: FACT.oidcClientId, o: 'client' },
      { s: 'urn:sw', p: FACT.registrationClient, o: 'runner' },
      { s: 'urn:sw#publisher-1', p: FACT.linksTo, o: `https://issuer.example ${REG}publisherIssuer` },
      { s: 'urn:sw#publisher-1', p: FACT.publisherIssuer, o: 'https://issuer.example' },
      { s: 'urn:r', p: FACT.imageDigest, o: 'sha256:ab' },
      { s: 'urn:v', p: FACT.issued, o: '2026-01-01T08:00:00.000Z' },
      { s: 'urn:v', p: FACT.version, o: '4' },
    ]);
  });
});

describe('lineageFactsOf, for counts, lists and facets', () => {
  const REG = 'https://w3id.org/reg/ns#';
  const SCHEMA = 'https://schema.org/';
  const XSD = 'http://www.w3.org/2001/XMLSchema#';
  it('takes deployments, releases with their versions and dates, run starts and withdrawals', () => {
    const { links, nodes } = lineageFactsOf([
      line('urn:i1', `${REG}instanceOf`, '<urn:sw>'),
      line('urn:r1', 'http://purl.org/dc/terms/isVersionOf', '<urn:sw>'),
      line('urn:r1', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', `<${REG}Release>`),
      line('urn:r1', `${SCHEMA}softwareVersion`, '"1.2.0"'),
      line('urn:r1', `${SCHEMA}datePublished`, `"2026-01-01"^^<${XSD}date>`),
      line('urn:run', `${PROV}wasAssociatedWith`, '<urn:i1>'),
      line('urn:run', `${PROV}startedAtTime`, `"2026-04-01T03:00:00+02:00"^^<${XSD}dateTime>`),
      line('urn:old', `${PROV}startedAtTime`, '"yesterday"'),
      line('urn:i2', `${REG}tombstoned`, `"true"^^<${XSD}boolean>`),
      line('urn:i3', `${REG}tombstoned`, `"false"^^<${XSD}boolean>`),
      line('urn:i4', `${REG}tombstoned`, '"true"'),
    ]);
    expect(links).toEqual([
      { s: 'urn:i1', p: LINK.instanceOf, o: 'urn:sw' },
      { s: 'urn:r1', p: LINK.versionOf, o: 'urn:sw' },
      { s: 'urn:run', p: LINK.associatedWith, o: 'urn:i1' },
    ]);
    expect(nodes).toEqual([
      { s: 'urn:r1', p: FACT.release, o: '' },
      { s: 'urn:r1', p: FACT.softwareVersion, o: '1.2.0' },
      { s: 'urn:r1', p: FACT.published, o: '2026-01-01' },
      { s: 'urn:run', p: FACT.started, o: '2026-04-01T01:00:00.000Z' },
      { s: 'urn:i2', p: FACT.tombstoned, o: 'true' },
    ]);
  });

  it('takes the links and facts lists, activity, run reads, matchmaking and impact read', () => {
    const DCT = 'http://purl.org/dc/terms/';
    const SPDX = 'http://spdx.org/rdf/terms#';
    const { links, nodes } = lineageFactsOf([
      line('urn:a', `${DCT}conformsTo`, '<urn:type>'),
      line('urn:a', `${DCT}conformsTo`, '"not an IRI"'),
      line('urn:a', `${PROV}wasAttributedTo`, '<urn:i1>'),
      line('urn:sw', `${REG}hasCapability`, '<urn:sw#capability>'),
      line('urn:sw#capability', `${REG}produces`, '<urn:type>'),
      line('urn:sw#capability', `${REG}consumes`, '<urn:other>'),
      line('urn:type', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', `<${REG}ArtifactType>`),
      line('urn:i1', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', `<${REG}Instance>`),
      line('urn:run', `${REG}status`, '"failed"'),
      line('urn:sw', `${DCT}license`, '<https://spdx.org/licenses/MIT>'),
      line('urn:sw', `${DCT}license`, '"see the file LICENSE"'),
      line('urn:sw', `${SCHEMA}applicationCategory`, '"library"'),
      line('urn:sw', `${DCT}subject`, '<urn:topic>'),
      line('urn:sw', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', `<${REG}Software>`),
      line('urn:sw', `${SCHEMA}name`, '"Converter"'),
      line('urn:a', 'http://www.w3.org/ns/dcat#distribution', '<urn:a#distribution-1>'),
      line('urn:a#distribution-1', `${REG}availability`, '"restricted"'),
      line('urn:i1', `${REG}runsRelease`, '<urn:r1>'),
      line('urn:run', `${REG}usedRelease`, '<urn:r1>'),
      line('urn:i1', `${REG}health`, '"up"'),
      line('urn:a#distribution-1', `${SPDX}checksum`, '<urn:a#distribution-1-checksum>'),
      line('urn:a#distribution-1-checksum', `${SPDX}algorithm`, `<${SPDX}checksumAlgorithm_sha256>`),
      line('urn:a#distribution-1-checksum', `${SPDX}checksumValue`, '"c4c4"'),
      line('urn:a#distribution-1', `${REG}swhid`, '"swh:1:cnt:e6e6;origin=urn:repo"'),
      line('urn:r1', `${REG}imageDigest`, '"sha256:D5D5"'),
    ]);
    expect(links).toEqual([
      { s: 'urn:a', p: LINK.conformsTo, o: 'urn:type' },
      { s: 'urn:a', p: LINK.attributedTo, o: 'urn:i1' },
      { s: 'urn:sw', p: LINK.hasCapability, o: 'urn:sw#capability' },
      { s: 'urn:sw#capability', p: LINK.produces, o: 'urn:type' },
      { s: 'urn:sw#capability', p: LINK.consumes, o: 'urn:other' },
      { s: 'urn:a', p: LINK.distribution, o: 'urn:a#distribution-1' },
      { s: 'urn:i1', p: LINK.runsRelease, o: 'urn:r1' },
      { s: 'urn:run', p: LINK.usedRelease, o: 'urn:r1' },
      { s: 'urn:a#distribution-1', p: LINK.checksum, o: 'urn:a#distribution-1-checksum' },
    ]);
    expect(nodes).toEqual([
      { s: 'urn:type', p: FACT.artifactType, o: '' },
      { s: 'urn:i1', p: FACT.deployment, o: '' },
      { s: 'urn:run', p: FACT.status, o: 'failed' },
      { s: 'urn:sw', p: FACT.linksTo, o: `https://spdx.org/licenses/MIT ${DCT}license` },
      { s: 'urn:sw', p: FACT.license, o: 'https://spdx.org/licenses/MIT' },
      { s: 'urn:sw', p: FACT.license, o: 'see the file LICENSE' },
      { s: 'urn:sw', p: FACT.category, o: 'library' },
      { s: 'urn:sw', p: FACT.linksTo, o: `urn:topic ${DCT}subject` },
      { s: 'urn:sw', p: FACT.topic, o: 'urn:topic' },
      { s: 'urn:sw', p: FACT.software, o: '' },
      { s: 'urn:sw', p: FACT.name, o: 'Converter' },
      { s: 'urn:a#distribution-1', p: FACT.availability, o: 'restricted' },
      { s: 'urn:i1', p: FACT.health, o: 'up' },
      {
        s: 'urn:a#distribution-1-checksum',
        p: FACT.linksTo,
        o: `${SPDX}checksumAlgorithm_sha256 ${SPDX}algorithm`,
      },
      { s: 'urn:a#distribution-1-checksum', p: FACT.checksumAlgorithm, o: `${SPDX}checksumAlgorithm_sha256` },
      { s: 'urn:a#distribution-1-checksum', p: FACT.checksumValue, o: 'c4c4' },
      { s: 'urn:a#distribution-1', p: FACT.swhid, o: 'swh:1:cnt:e6e6;origin=urn:repo' },
      { s: 'urn:r1', p: FACT.imageDigest, o: 'sha256:D5D5' },
    ]);
  });
});

describe("lineageFactsOf, for the graph view and peers' concepts", () => {
  it('takes every other statement linking to an IRI as its target and predicate, and concepts', () => {
    const SCHEMA = 'https://schema.org/';
    const { links, nodes } = lineageFactsOf([
      line('urn:sw', `${SCHEMA}codeRepository`, '<https://git.example/tool>'),
      line('urn:sw', `${SCHEMA}codeRepository`, '"https://git.example/text"'),
      line('urn:sw', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', '<http://example.org/Other>'),
      line('urn:sw', `${PROV}wasDerivedFrom`, '<urn:older>'),
      line(
        'urn:term',
        'http://www.w3.org/1999/02/22-rdf-syntax-ns#type',
        '<http://www.w3.org/2004/02/skos/core#Concept>',
      ),
    ]);
    expect(links).toEqual([{ s: 'urn:sw', p: LINK.derivedFrom, o: 'urn:older' }]);
    expect(nodes).toEqual([
      { s: 'urn:sw', p: FACT.linksTo, o: `https://git.example/tool ${SCHEMA}codeRepository` },
      { s: 'urn:term', p: FACT.concept, o: '' },
    ]);
  });
});

describe('the lineage index on a database', () => {
  let db: Database;
  beforeEach(() => {
    db = openDatabase(tempDir());
  });
  afterEach(() => db.close());

  const created = (iri: string, at: string) =>
    line(iri, 'http://purl.org/dc/terms/created', `"${at}"^^<http://www.w3.org/2001/XMLSchema#dateTime>`);

  it('answers a step both ways, leaves out what was created after as_of, and pages in line order', () => {
    // A new database holds no records: the index is complete from the start.
    expect(claimLineageIndex(db, 'embedded', false)).toBe(false);
    expect(lineageIndexReady(db)).toBe(true);
    db.transaction(() => {
      indexRecordLineage(db, 'urn:g', 'urn:run1', [
        line('urn:run1', `${PROV}used`, '<urn:in>'),
        line('urn:run1', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', `<${PROV}Activity>`),
        line('urn:run1', 'http://www.w3.org/2000/01/rdf-schema#label', '"nightly"'),
        created('urn:run1', '2026-01-01T00:00:00Z'),
      ]);
      indexRecordLineage(db, 'urn:g', 'urn:out', [
        line('urn:out', `${PROV}wasGeneratedBy`, '<urn:run1>'),
        created('urn:out', '2026-01-01T00:00:00Z'),
      ]);
      indexRecordLineage(db, 'urn:g', 'urn:late', [
        line('urn:late', `${PROV}wasDerivedFrom`, '<urn:in>'),
        created('urn:late', '2026-03-01T00:00:00Z'),
      ]);
    });
    expect(lineageStepLines(db, [['down', ['urn:in']]], 10, undefined)).toEqual([
      'down urn:in derivedFrom  urn:late',
      'down urn:in used urn:run1 urn:out',
    ]);
    expect(lineageStepLines(db, [['down', ['urn:in']]], 10, '2026-02-01T00:00:00.000Z')).toEqual([
      'down urn:in used urn:run1 urn:out',
    ]);
    expect(lineageStepLines(db, [['up', ['urn:out']]], 10, undefined)).toEqual([
      'up urn:out generated urn:run1 urn:in',
    ]);
    expect(lineageStepLines(db, [['down', ['urn:in']]], 1, undefined, 1)).toEqual([
      'down urn:in used urn:run1 urn:out',
    ]);
    expect(lineageNodeRows(db, [], ['urn:run1'])).toEqual([
      { iri: 'urn:run1', kind: 'run', graph: 'urn:g', title: 'nightly' },
    ]);
    // A record written again replaces what it said; a deleted one says nothing.
    db.transaction(() => indexRecordLineage(db, 'urn:g', 'urn:late', null));
    expect(lineageStepLines(db, [['down', ['urn:in']]], 10, undefined)).toEqual([
      'down urn:in used urn:run1 urn:out',
    ]);
  });

  it('is filled again when another store claims it, and a refill leaves records written meanwhile alone', () => {
    expect(claimLineageIndex(db, 'embedded', true)).toBe(true);
    refillLineage(db, [], undefined, true);
    expect(claimLineageIndex(db, 'embedded', true)).toBe(false);
    // The data directory moved to the other store: its records are read again, from the first.
    expect(claimLineageIndex(db, 'sparql', true)).toBe(true);
    expect(lineageIndexReady(db)).toBe(false);
    expect(lineageRefillPosition(db)).toEqual({ graph: '', subject: '' });
    // Written by a commit while its batch was being read: the commit's lines stay.
    db.transaction(() =>
      indexRecordLineage(db, 'urn:g', 'urn:b', [line('urn:b', `${PROV}wasDerivedFrom`, '<urn:new>')]),
    );
    refillLineage(
      db,
      [
        { graph: 'urn:g', subject: 'urn:a', lines: [line('urn:a', `${PROV}wasDerivedFrom`, '<urn:x>')] },
        {
          graph: 'urn:g',
          subject: 'urn:b',
          lines: [line('urn:b', `${PROV}wasDerivedFrom`, '<urn:old>')],
          current: () => false,
        },
      ],
      { graph: 'urn:g', subject: 'urn:b' },
      false,
    );
    expect(lineageRefillPosition(db)).toEqual({ graph: 'urn:g', subject: 'urn:b' });
    refillLineage(db, [], undefined, true);
    expect(lineageIndexReady(db)).toBe(true);
    expect(lineageStepLines(db, [['up', ['urn:a', 'urn:b']]], 10, undefined)).toEqual([
      'up urn:a derivedFrom  urn:x',
      'up urn:b derivedFrom  urn:new',
    ]);
  });
});
