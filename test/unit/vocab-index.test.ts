import { beforeAll, describe, expect, it } from 'vitest';
import { DCT, GRAPHS, REG, SKOS, SPDX } from '../../src/core/ns.js';
import { buildBundles } from '../../src/core/vocab/bundles.js';
import { ReferenceIndex } from '../../src/core/vocab/reference-index.js';

const EDAM = 'http://edamontology.org/';
const ESV = 'http://data.europa.eu/8mn/euroscivoc/';
const LICENSES = 'https://spdx.org/licenses/';

let index: ReferenceIndex;

beforeAll(() => {
  index = ReferenceIndex.fromBundles(buildBundles('https://reg.example.org'));
});

describe('ReferenceIndex counts', () => {
  it('holds 950 active EDAM data terms as artifact types and 294 active legacy topics', () => {
    const active = index.termsOfClass(REG('ArtifactType'), { includeRetired: false });
    const edamActive = active.filter((t) => t.iri.startsWith(EDAM));
    expect(edamActive).toHaveLength(950);
    expect(edamActive.every((t) => t.graph === GRAPHS.edam)).toBe(true);
    // The registry-defined types come from the vocabulary bundle.
    expect(active.filter((t) => t.graph === GRAPHS.vocab).map((t) => t.iri)).toEqual([
      REG('ContainerImage'),
      REG('TabularDataset'),
      REG('UntypedDataset'),
    ]);
    expect(index.termsOfClass(REG('ArtifactType')).filter((t) => t.iri.startsWith(EDAM))).toHaveLength(
      950 + 546,
    );
    expect(index.termsOfClass(REG('LegacyTopic'), { includeRetired: false })).toHaveLength(294);
  });

  it('holds 1064 EuroSciVoc research topics, 727 SPDX licences and 7 keywords', () => {
    expect(index.termsOfClass(REG('ResearchTopic'))).toHaveLength(1064);
    expect(index.termsOfClass(SPDX('ListedLicense'))).toHaveLength(727);
    expect(index.termsOfClass(DCT('LicenseDocument'))).toHaveLength(727);
    const keywords = index.termsOfClass(REG('ArtifactKeyword'));
    expect(keywords.map((k) => k.label)).toEqual([
      'Embeddings',
      'Mappings',
      'OWL',
      'RDF Graphs',
      'SHACL',
      'SHEX',
      'SPARQL query',
    ]);
    expect(keywords[0]?.iri).toBe('https://reg.example.org/keyword/embeddings');
  });
});

describe('ReferenceIndex lookups', () => {
  it('answers class and label of a held term', () => {
    const data = index.get(`${EDAM}data_0006`);
    expect(data).toMatchObject({ label: 'Data', retired: false, graph: GRAPHS.edam });
    expect(data?.classes).toEqual([SKOS('Concept'), REG('ArtifactType')].sort());
    expect(index.hasClass(`${EDAM}data_0006`, REG('ArtifactType'))).toBe(true);
    expect(index.hasClass(`${EDAM}data_0006`, REG('ResearchTopic'))).toBe(false);
    expect(index.get(`${ESV}00401515-e61c-4f33-bcb0-33ff40c6aa20`)?.label).toBe('relational databases');
    expect(index.get(`${LICENSES}Apache-2.0`)?.label).toBe('Apache License 2.0');
    expect(index.get(REG('TabularDataset'))?.label).toBe('Tabular dataset');
    expect(index.get('https://example.org/nothing')).toBeUndefined();
  });

  it('knows retired terms and their replacements', () => {
    // data_0007 "Tool" is obsolete and replaced by data_0958.
    const tool = index.get(`${EDAM}data_0007`);
    expect(tool).toMatchObject({ retired: true, replacedBy: [`${EDAM}data_0958`], seeAlso: [] });
    // data_0005 "Resource type" is obsolete with only a "consider" hint.
    expect(index.get(`${EDAM}data_0005`)).toMatchObject({
      retired: true,
      replacedBy: [],
      seeAlso: [`${EDAM}data_2337`],
    });
    expect(index.get(`${LICENSES}GPL-2.0`)).toMatchObject({
      retired: true,
      replacedBy: [`${LICENSES}GPL-2.0-only`, `${LICENSES}GPL-2.0-or-later`],
    });
    expect(index.get(`${LICENSES}eCos-2.0`)).toMatchObject({
      retired: true,
      seeAlso: [`${LICENSES}GPL-2.0-or-later`],
    });
    expect(index.get(REG('tagline'))).toMatchObject({ retired: true, replacedBy: [DCT('abstract')] });

    const retired = index.retiredTerms().map((t) => t.iri);
    expect(retired).toContain(`${EDAM}data_0007`);
    expect(retired).toContain(`${EDAM}topic_3361`);
    expect(retired).toContain(REG('conceptBranch'));
    expect(retired).toHaveLength(546 + 190 + 32 + 8);
    expect([...retired].sort()).toEqual(retired);
  });

  it('checks an IRI for a slot: held, retired, wrong class or unknown', () => {
    const typeSlot = [REG('ArtifactType')];
    expect(index.check(`${EDAM}data_0006`, typeSlot).verdict).toBe('held');
    expect(index.check(`${EDAM}data_0007`, typeSlot).verdict).toBe('retired');
    // A topic in a type slot, and a legacy EDAM topic in the topic slot, are both the wrong class.
    expect(index.check(`${ESV}00401515-e61c-4f33-bcb0-33ff40c6aa20`, typeSlot).verdict).toBe('wrong-class');
    expect(index.check(`${EDAM}topic_0003`, [REG('ResearchTopic')]).verdict).toBe('wrong-class');
    expect(index.check('https://reg.example.org/keyword/shacl', typeSlot).verdict).toBe('wrong-class');
    expect(index.check('https://example.org/unknown', typeSlot)).toEqual({ verdict: 'unknown' });
  });

  it('builds quickly from the bundles', () => {
    const bundles = buildBundles('https://reg.example.org');
    const start = performance.now();
    const built = ReferenceIndex.fromBundles(bundles);
    const elapsed = performance.now() - start;
    console.info(`ReferenceIndex.fromBundles: ${elapsed.toFixed(1)} ms, ${built.size} IRIs`);
    expect(built.size).toBe(index.size);
    expect(elapsed).toBeLessThan(300);
  });
});
