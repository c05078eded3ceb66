/**
 * What the lineage index (`lineage-index.ts`) keeps, by code: the links between nodes and the facts about them,
 * which predicates and classes give them, and how they are taken from the lines of a record.
 */
import { ownerOf } from '../nquads.js';
import { DCAT, DCT, PROV, RDF, RDFS, REG, SCHEMA, SKOS, SPDX, XSD } from '../../ns.js';

/** The links between nodes, by code. */
export const LINK = {
  generatedBy: 0,
  used: 1,
  derivedFrom: 2,
  revisionOf: 3,
  instanceOf: 4,
  associatedWith: 5,
  versionOf: 6,
  conformsTo: 7,
  hasCapability: 8,
  produces: 9,
  consumes: 10,
  attributedTo: 11,
  distribution: 12,
  runsRelease: 13,
  usedRelease: 14,
  theme: 15,
  checksum: 16,
  publisher: 17,
  specializationOf: 18,
  // The deployment a run names by the predicate older records used (advertising keys are rebuilt from both).
  atInstance: 19,
} as const;
/** What is kept about a node, by code. */
export const FACT = {
  artifact: 0,
  run: 1,
  series: 2,
  title: 3,
  label: 4,
  created: 5,
  release: 6,
  softwareVersion: 7,
  published: 8,
  tombstoned: 9,
  started: 10,
  artifactType: 11,
  license: 12,
  category: 13,
  topic: 14,
  status: 15,
  deployment: 16,
  availability: 17,
  health: 18,
  name: 19,
  software: 20,
  description: 21,
  abstract: 22,
  identifier: 23,
  externalKey: 24,
  keywords: 25,
  keyword: 26,
  issued: 27,
  version: 28,
  checksumAlgorithm: 29,
  healthEndpoint: 30,
  endpoint: 31,
  healthCheckedAt: 32,
  // The key a run or an artifact carries by the predicate older records used.
  legacyExternalKey: 33,
  concept: 34,
  /** The node is described by a record that does not hold it (not its IRI nor a fragment of it): the row's. */
  describedElsewhere: 35,
  // Values records are looked up by (`LOOKUP_FACTS`): a partial index on (p, value) covers the codes from 100.
  selfRegisteredBy: 100,
  oidcClientId: 101,
  registrationClient: 102,
  publisherIssuer: 103,
  instanceKey: 104,
  imageDigest: 105,
  checksumValue: 106,
  swhid: 107,
  /**
   * A statement linking the node to an IRI by a predicate not kept as a link (nor `rdf:type`), for the graph view
   * and lookups by such links: its value is the target, a space and the predicate, so the statements that link to
   * a target are one range of the index on (p, value).
   */
  linksTo: 116,
  /** The forge a software's repository sync reads (the scheduler lists the connected software by it). */
  syncSource: 117,
} as const;

/** The first code of the facts kept for lookups by value (migration 24 indexes them by value). */
export const FIRST_LOOKUP_FACT = 100;
/** The SQL term that lets a lookup by value use the index on (p, value) of the facts kept for lookups. */
export const LOOKUP_FACTS = `p >= ${FIRST_LOOKUP_FACT}`;

const LINK_PREDICATES = new Map<string, number>([
  [`<${PROV('wasGeneratedBy')}>`, LINK.generatedBy],
  [`<${PROV('used')}>`, LINK.used],
  [`<${PROV('wasDerivedFrom')}>`, LINK.derivedFrom],
  [`<${PROV('wasRevisionOf')}>`, LINK.revisionOf],
  [`<${REG('instanceOf')}>`, LINK.instanceOf],
  [`<${PROV('wasAssociatedWith')}>`, LINK.associatedWith],
  [`<${DCT('isVersionOf')}>`, LINK.versionOf],
  [`<${DCT('conformsTo')}>`, LINK.conformsTo],
  [`<${REG('hasCapability')}>`, LINK.hasCapability],
  [`<${REG('produces')}>`, LINK.produces],
  [`<${REG('consumes')}>`, LINK.consumes],
  [`<${PROV('wasAttributedTo')}>`, LINK.attributedTo],
  [`<${DCAT('distribution')}>`, LINK.distribution],
  [`<${REG('runsRelease')}>`, LINK.runsRelease],
  [`<${DCAT('theme')}>`, LINK.theme],
  [`<${REG('usedRelease')}>`, LINK.usedRelease],
  [`<${SPDX('checksum')}>`, LINK.checksum],
  // What software and artifact lists filter by: a publisher, and the content identifier of a distribution.
  [`<${DCT('publisher')}>`, LINK.publisher],
  [`<${PROV('specializationOf')}>`, LINK.specializationOf],
  [`<${REG('atInstance')}>`, LINK.atInstance],
]);
const TYPES = new Map<string, number>([
  [`<${DCAT('Dataset')}>`, FACT.artifact],
  [`<${PROV('Activity')}>`, FACT.run],
  [`<${REG('ArtifactSeries')}>`, FACT.series],
  [`<${REG('Release')}>`, FACT.release],
  [`<${REG('ArtifactType')}>`, FACT.artifactType],
  [`<${REG('Instance')}>`, FACT.deployment],
  [`<${REG('Software')}>`, FACT.software],
  [`<${SKOS('Concept')}>`, FACT.concept],
]);
/** The facts that say a node is of a class the index keeps (`rdf:type`). */
export const TYPE_FACTS: readonly number[] = [...TYPES.values()];
/**
 * Facts kept with the value of their object, an IRI or a literal's lexical form: list facets and filters, and the
 * values records are looked up by.
 */
const VALUES = new Map<string, number>([
  [`<${DCT('license')}>`, FACT.license],
  [`<${SCHEMA('applicationCategory')}>`, FACT.category],
  [`<${DCT('subject')}>`, FACT.topic],
  [`<${REG('availability')}>`, FACT.availability],
  [`<${REG('health')}>`, FACT.health],
  [`<${SCHEMA('name')}>`, FACT.name],
  [`<${REG('selfRegisteredBy')}>`, FACT.selfRegisteredBy],
  [`<${REG('oidcClientId')}>`, FACT.oidcClientId],
  [`<${REG('registrationClient')}>`, FACT.registrationClient],
  [`<${REG('publisherIssuer')}>`, FACT.publisherIssuer],
  [`<${REG('instanceKey')}>`, FACT.instanceKey],
  [`<${REG('imageDigest')}>`, FACT.imageDigest],
  [`<${REG('syncSource')}>`, FACT.syncSource],
  // Content names: checksums of distributions, SWHIDs of distributions and releases.
  [`<${SPDX('algorithm')}>`, FACT.checksumAlgorithm],
  [`<${SPDX('checksumValue')}>`, FACT.checksumValue],
  [`<${REG('swhid')}>`, FACT.swhid],
  // What the health probe reads of deployments: their endpoints, and when it last probed them.
  [`<${REG('healthEndpoint')}>`, FACT.healthEndpoint],
  [`<${DCAT('endpointURL')}>`, FACT.endpoint],
]);
const LITERALS = new Map<string, number>([
  [`<${DCT('title')}>`, FACT.title],
  [`<${RDFS('label')}>`, FACT.label],
  [`<${DCT('created')}>`, FACT.created],
  [`<${SCHEMA('softwareVersion')}>`, FACT.softwareVersion],
  [`<${SCHEMA('datePublished')}>`, FACT.published],
  [`<${REG('tombstoned')}>`, FACT.tombstoned],
  [`<${PROV('startedAtTime')}>`, FACT.started],
  [`<${REG('status')}>`, FACT.status],
  // The text lists filter by words and keywords (`q`, `keyword`).
  [`<${DCT('description')}>`, FACT.description],
  [`<${DCT('abstract')}>`, FACT.abstract],
  [`<${SCHEMA('identifier')}>`, FACT.identifier],
  [`<${DCT('identifier')}>`, FACT.externalKey],
  [`<${SCHEMA('keywords')}>`, FACT.keywords],
  [`<${DCAT('keyword')}>`, FACT.keyword],
  // The versions of an artifact series, as OpenLineage intake finds the current one or one by its name.
  [`<${DCT('issued')}>`, FACT.issued],
  [`<${DCAT('version')}>`, FACT.version],
  [`<${REG('healthCheckedAt')}>`, FACT.healthCheckedAt],
  [`<${REG('externalKey')}>`, FACT.legacyExternalKey],
]);
/** The predicate of each link code. */
export const LINK_PREDICATE_OF: ReadonlyMap<number, string> = new Map(
  [...LINK_PREDICATES].map(([predicate, code]) => [code, predicate.slice(1, -1)]),
);

/** The value of a `FACT.linksTo` fact: the target, a space and the predicate (IRIs hold no spaces). */
export function linksToValue(target: string, predicate: string): string {
  return `${target} ${predicate}`;
}

/** The fact that keeps the nodes of a class, if the index keeps them. */
export function typeFactOf(cls: string): number | undefined {
  return TYPES.get(`<${cls}>`);
}

/** The fact that keeps the values of a predicate for list facets, if the index keeps them. */
export function valueFactOf(predicate: string): number | undefined {
  return VALUES.get(`<${predicate}>`);
}

/** Facts kept as their time in UTC (as `Date.toISOString` writes it), and only when they are `xsd:dateTime`. */
const TIMES = new Set<number>([FACT.created, FACT.started, FACT.issued, FACT.healthCheckedAt]);

/**
 * How the index keeps a predicate's statements, for list filters: as links (IRI objects), as facts with their
 * value (an IRI or a literal's lexical form), or not at all (times are kept in UTC and withdrawals as a flag, so
 * neither is matched against a value).
 */
export function indexedAs(predicate: string): { link: number } | { fact: number } | undefined {
  const key = `<${predicate}>`;
  const link = LINK_PREDICATES.get(key);
  if (link !== undefined) return { link };
  const fact = VALUES.get(key) ?? LITERALS.get(key);
  return fact === undefined || TIMES.has(fact) || fact === FACT.tombstoned ? undefined : { fact };
}
const TYPE = `<${RDF('type')}>`;
const DATE_TIME = XSD('dateTime');
const BOOLEAN = XSD('boolean');

/* The tables (`lineage_link`, `lineage_node`, `lineage_state`) are created by migration 20. */

interface Fact {
  readonly s: string;
  readonly p: number;
  readonly o: string;
}

/** The end of an IRI term starting at `from` (the index of its `>`), or -1. */
const iriEnd = (line: string, from: number): number => (line[from] === '<' ? line.indexOf('>', from) : -1);

/**
 * The links and node facts in the lines of one record (canonical N-Quads or N-Triples). Lines whose predicate
 * says nothing the index keeps are passed over without their object being parsed; only subjects and link targets
 * that are IRIs are kept (as the walk reads them), a statement linking to an IRI by any other predicate (but
 * `rdf:type`) as a `linksTo` fact, a creation or start time only as an `xsd:dateTime`, in its UTC form, and a
 * withdrawal only as the boolean true. With `record`, the nodes it describes without holding them are noted.
 */
export function lineageFactsOf(lines: readonly string[], record?: string): { links: Fact[]; nodes: Fact[] } {
  const links: Fact[] = [];
  const nodes: Fact[] = [];
  const elsewhere = new Set<string>();
  for (const line of lines) {
    const subjectEnd = iriEnd(line, 0);
    if (subjectEnd < 0) continue;
    const predicateEnd = iriEnd(line, subjectEnd + 2);
    if (predicateEnd < 0) continue;
    const s = line.slice(1, subjectEnd);
    if (record !== undefined && ownerOf(s) !== record && !elsewhere.has(s)) {
      elsewhere.add(s);
      nodes.push({ s, p: FACT.describedElsewhere, o: '' });
    }
    const predicate = line.slice(subjectEnd + 2, predicateEnd + 1);
    const objectStart = predicateEnd + 2;
    const link = LINK_PREDICATES.get(predicate);
    if (link !== undefined) {
      const end = iriEnd(line, objectStart);
      if (end >= 0) links.push({ s, p: link, o: line.slice(objectStart + 1, end) });
      continue;
    }
    if (predicate === TYPE) {
      const end = iriEnd(line, objectStart);
      const type = end < 0 ? undefined : TYPES.get(line.slice(objectStart, end + 1));
      if (type !== undefined) nodes.push({ s, p: type, o: '' });
      continue;
    }
    const target = iriEnd(line, objectStart);
    if (target >= 0)
      nodes.push({
        s,
        p: FACT.linksTo,
        o: linksToValue(line.slice(objectStart + 1, target), predicate.slice(1, -1)),
      });
    const valued = VALUES.get(predicate);
    if (valued !== undefined) {
      const end = iriEnd(line, objectStart);
      const value = end >= 0 ? line.slice(objectStart + 1, end) : literalAt(line, objectStart)?.value;
      if (value !== undefined) nodes.push({ s, p: valued, o: value });
      continue;
    }
    const fact = LITERALS.get(predicate);
    const literal = fact === undefined ? undefined : literalAt(line, objectStart);
    if (fact === undefined || literal === undefined) continue;
    if (fact === FACT.tombstoned) {
      // As the pattern `?s reg:tombstoned true` matches: the boolean true, written as such.
      if (literal.datatype === BOOLEAN && literal.value === 'true') nodes.push({ s, p: fact, o: 'true' });
      continue;
    }
    if (!TIMES.has(fact)) {
      nodes.push({ s, p: fact, o: literal.value });
      continue;
    }
    if (literal.datatype !== DATE_TIME) continue;
    const time = Date.parse(literal.value);
    if (!Number.isNaN(time)) nodes.push({ s, p: fact, o: new Date(time).toISOString() });
  }
  return { links, nodes };
}

const ESCAPES: Readonly<Record<string, string>> = {
  t: '\t',
  b: '\b',
  n: '\n',
  r: '\r',
  f: '\f',
  '"': '"',
  "'": "'",
  '\\': '\\',
};

/**
 * The literal starting at `from` in an N-Quads line (its lexical form unescaped, and its datatype IRI, empty for
 * a language-tagged string), or undefined when none starts there. Only the lines lineage keeps a literal of are
 * read, so no parser is built per line.
 */
function literalAt(line: string, from: number): { value: string; datatype: string } | undefined {
  if (line[from] !== '"') return undefined;
  let end = from + 1;
  while (end < line.length && line[end] !== '"') end += line[end] === '\\' ? 2 : 1;
  if (end >= line.length) return undefined;
  const raw = line.slice(from + 1, end);
  const value = raw.includes('\\')
    ? raw.replace(/\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))/g, (_, u4: string, u8: string, c: string) =>
        u4 !== undefined || u8 !== undefined
          ? String.fromCodePoint(parseInt(u4 ?? u8, 16))
          : (ESCAPES[c] ?? c),
      )
    : raw;
  const datatype = line.startsWith('^^<', end + 1) ? line.slice(end + 4, line.indexOf('>', end + 4)) : '';
  return { value, datatype };
}
