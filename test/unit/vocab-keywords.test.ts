import { describe, expect, it } from 'vitest';
import {
  ARTIFACT_KEYWORDS,
  foldKeyword,
  keywordIri,
  keywordSchemeIri,
  matchKeyword,
  matchKeywordFilter,
  normaliseKeywords,
} from '../../src/core/vocab/keywords.js';

describe('keyword list', () => {
  it('has the seven entries with unique slugs and a one-sentence definition each', () => {
    expect(ARTIFACT_KEYWORDS.map((k) => k.slug)).toEqual([
      'embeddings',
      'owl',
      'rdf-graphs',
      'shacl',
      'shex',
      'mappings',
      'sparql-query',
    ]);
    for (const entry of ARTIFACT_KEYWORDS) expect(entry.definition).toMatch(/^[A-Z][^.]*\.$/);
    // No fold is claimed by two entries, or matching would depend on list order.
    const folds = ARTIFACT_KEYWORDS.flatMap((k) => [
      ...new Set([k.label, k.slug, ...k.aliases].map(foldKeyword)),
    ]);
    expect(new Set(folds).size).toBe(folds.length);
  });

  it('folds to lower-case alphanumerics', () => {
    expect(foldKeyword('  SHACL-Shapes Graph! ')).toBe('shaclshapesgraph');
    expect(foldKeyword('OWL 2')).toBe('owl2');
    expect(foldKeyword('---')).toBe('');
  });

  it('builds concept and scheme IRIs under the base', () => {
    expect(keywordIri('https://reg.example.org/', 'shacl')).toBe('https://reg.example.org/keyword/shacl');
    expect(keywordSchemeIri('https://reg.example.org')).toBe(
      'https://reg.example.org/scheme/artifact-keywords',
    );
  });
});

describe('normaliseKeywords', () => {
  it('follows the contract example', () => {
    const result = normaliseKeywords(
      ['shacl', 'SHACL Shapes', 'rml', 'pizza-ontology', 'RDF'],
      'https://reg.example.org',
    );
    expect(result.labels).toEqual(['SHACL', 'Mappings', 'pizza-ontology', 'RDF Graphs']);
    expect(result.concepts).toEqual([
      'https://reg.example.org/keyword/shacl',
      'https://reg.example.org/keyword/mappings',
      'https://reg.example.org/keyword/rdf-graphs',
    ]);
  });

  it('drops blanks, keeps unmatched values verbatim and removes duplicates', () => {
    const result = normaliseKeywords(['', '  ', 'Pizza', 'r2rml', 'Pizza', 'YARRRML', ' Sparql Queries ']);
    expect(result).toEqual({
      labels: ['Pizza', 'Mappings', 'SPARQL query'],
      concepts: ['mappings', 'sparql-query'],
    });
  });

  it('matches label, slug and alias, but not punctuation-only values', () => {
    expect(matchKeyword('Web Ontology Language')?.slug).toBe('owl');
    expect(matchKeyword('rdf_graphs')?.slug).toBe('rdf-graphs');
    expect(matchKeyword('...')).toBeUndefined();
    expect(matchKeyword('pizza')).toBeUndefined();
  });

  it('resolves filter values given as IRI, slug, label or alias', () => {
    expect(matchKeywordFilter('https://reg.example.org/keyword/shex')?.label).toBe('SHEX');
    expect(matchKeywordFilter('sparql-query')?.label).toBe('SPARQL query');
    expect(matchKeywordFilter('Vector Embeddings')?.label).toBe('Embeddings');
    expect(matchKeywordFilter('https://example.org/pizza')).toBeUndefined();
  });
});
