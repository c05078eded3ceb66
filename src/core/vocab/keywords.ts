/**
 * The registry's artifact keyword list and the matching of free-text keywords against it. A keyword that
 * matches is stored under the entry's preferred label (and linked to the entry's concept), so that "rdf",
 * "RDF" and "rdf graph" all find the same artifacts; a keyword that matches nothing is kept as sent.
 */

/** One entry of the keyword list. */
export interface KeywordEntry {
  /** Last segment of the concept IRI `{base}/keyword/<slug>`. */
  readonly slug: string;
  /** Preferred label; matched keywords are stored as this text. */
  readonly label: string;
  /** One-sentence definition shown with the entry. */
  readonly definition: string;
  /** Other spellings that match the entry. */
  readonly aliases: readonly string[];
}

/** The seven entries of the artifact keyword list, in display order. */
export const ARTIFACT_KEYWORDS: readonly KeywordEntry[] = Object.freeze([
  {
    slug: 'embeddings',
    label: 'Embeddings',
    definition:
      'Numeric vector representations of words, entities or other items, computed so that similar items lie close together.',
    aliases: ['embedding', 'vector embeddings', 'embedding vectors', 'word embeddings'],
  },
  {
    slug: 'owl',
    label: 'OWL',
    definition: 'Ontologies whose classes, properties and axioms are written in the Web Ontology Language.',
    aliases: ['owl ontology', 'owl 2', 'owl2', 'web ontology language'],
  },
  {
    slug: 'rdf-graphs',
    label: 'RDF Graphs',
    definition: 'Data expressed as RDF triples or quads, in any serialisation.',
    aliases: ['rdf graph', 'rdf', 'rdf data', 'rdf dataset', 'triples', 'quads'],
  },
  {
    slug: 'shacl',
    label: 'SHACL',
    definition: 'Shapes written in the Shapes Constraint Language, used to validate RDF data, and reports of such validations.',
    aliases: ['shacl shapes', 'shapes constraint language', 'shacl shapes graph'],
  },
  {
    slug: 'shex',
    label: 'SHEX',
    definition: 'Schemas written as Shape Expressions, which describe and check the structure of RDF data.',
    aliases: ['shex', 'shape expressions', 'shex schema'],
  },
  {
    slug: 'mappings',
    label: 'Mappings',
    definition: 'Declarative rules, such as RML or R2RML documents, that turn tables, files or databases into RDF.',
    aliases: ['mapping', 'rml', 'rml mapping', 'r2rml', 'yarrrml', 'obda mapping'],
  },
  {
    slug: 'sparql-query',
    label: 'SPARQL query',
    definition: 'Queries written in the SPARQL query language for RDF.',
    aliases: ['sparql', 'sparql queries', 'sparql query'],
  },
] satisfies KeywordEntry[]);

/** Path segment under the base IRI for keyword concepts: `{base}/keyword/<slug>`. */
export const KEYWORD_PATH = 'keyword';

/** Path under the base IRI of the keyword concept scheme. */
export const KEYWORD_SCHEME_PATH = 'scheme/artifact-keywords';

/** Folds a keyword for comparison: alphanumerics only, lower-case, so case, spaces and punctuation never matter. */
export function foldKeyword(value: string): string {
  return value.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** IRI of a keyword concept under the given base IRI. */
export function keywordIri(baseIri: string, slug: string): string {
  return `${trimBase(baseIri)}/${KEYWORD_PATH}/${slug}`;
}

/** IRI of the keyword concept scheme under the given base IRI. */
export function keywordSchemeIri(baseIri: string): string {
  return `${trimBase(baseIri)}/${KEYWORD_SCHEME_PATH}`;
}

/** Each folded label, slug and alias of the list, mapped to its entry (the first entry wins, as in list order). */
const FOLDED_KEYWORDS: ReadonlyMap<string, KeywordEntry> = (() => {
  const folded = new Map<string, KeywordEntry>();
  for (const entry of ARTIFACT_KEYWORDS)
    for (const name of [entry.label, entry.slug, ...entry.aliases]) {
      const key = foldKeyword(name);
      if (!folded.has(key)) folded.set(key, entry);
    }
  return folded;
})();

/** Finds the list entry whose label, slug or alias folds to the same text as `value`. */
export function matchKeyword(value: string): KeywordEntry | undefined {
  const folded = foldKeyword(value);
  return folded === '' ? undefined : FOLDED_KEYWORDS.get(folded);
}

/** Resolves a `?keyword=` filter value given as concept IRI, slug, label or alias to its list entry. */
export function matchKeywordFilter(value: string): KeywordEntry | undefined {
  // The last path segment is tried first (an IRI or a path), then the whole value.
  const trimmed = value.trim().replace(/\/+$/, '');
  const lastSegment = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  return (lastSegment !== trimmed ? matchKeyword(lastSegment) : undefined) ?? matchKeyword(trimmed);
}

/**
 * Normalises artifact keywords: matched values become the entry's label and its concept (an IRI under
 * `baseIri`, or the slug when no base is given), unmatched ones are kept trimmed, blanks and duplicates dropped.
 */
export function normaliseKeywords(
  values: readonly string[],
  baseIri?: string,
): { labels: string[]; concepts: string[] } {
  // Sets keep first-seen order and find duplicates without a scan per keyword.
  const labels = new Set<string>();
  const concepts = new Set<string>();
  for (const raw of values) {
    const value = raw.trim();
    if (value === '') continue;
    const entry = matchKeyword(value);
    labels.add(entry?.label ?? value);
    if (entry !== undefined) concepts.add(baseIri === undefined ? entry.slug : keywordIri(baseIri, entry.slug));
  }
  return { labels: [...labels], concepts: [...concepts] };
}

function trimBase(baseIri: string): string {
  return baseIri.replace(/\/+$/, '');
}
