/**
 * FAIR Signposting (https://signposting.org/FAIR/) for record responses: the typed links a machine needs to
 * cite a record, find its metadata, its licence, its author and the bytes it describes, read from the
 * record's own quads.
 */
import { DCAT, DCT, RDF, REG, SCHEMA } from '../ns.js';
import type { Quad } from '../store/nquads.js';
import { RECORD_KINDS, type RecordQuads } from './representations.js';

/** One typed link of a `Link` header (RFC 8288). */
export interface SignpostLink {
  readonly href: string;
  readonly rel: string;
  readonly type?: string;
}

/** Predicates whose objects hold the bytes a record describes, directly. */
const DIRECT_ITEMS = [SCHEMA('codeRepository'), DCAT('endpointURL')];
/** Predicates linking owned nodes (downloads, distributions) whose download URL is an item. */
const ITEM_NODES = [REG('download'), DCAT('distribution')];
/** Predicates naming the record a record belongs to (a release's software, a deployment's software). */
const PARENTS = [DCT('isVersionOf'), REG('instanceOf')];
const AUTHORS = [DCT('publisher'), DCT('creator')];

/** The two serialisations of a linkset (RFC 9264). */
export const LINKSET_JSON = 'application/linkset+json';
export const LINKSET_TEXT = 'application/linkset';

/** The metadata documents of a record, each named by `describedby` and answering with `describes`. */
const METADATA_DOCUMENTS: readonly (readonly [extension: string, type: string])[] = [
  ['ttl', 'text/turtle'],
  ['jsonld', 'application/ld+json'],
];

/**
 * The Signposting links of a record: `cite-as` (its IRI), `describedby` (its Turtle and JSON-LD), `alternate`
 * (its Markdown page), `linkset` (the same links as a linkset, FAIR Signposting level 2), `type` (its classes and artifact type), `license`, `author` (publisher and creators),
 * `item` (code repository, endpoint, downloads and distributions whose bytes exist) and `collection` (the
 * record it belongs to, else the API list of its kind).
 */
export function signpostingLinks(baseIri: string, record: RecordQuads): SignpostLink[] {
  const { iri, quads } = record;
  const objects = (subject: string, predicate: string): string[] =>
    quads
      .filter((quad) => quad.subject.value === subject && quad.predicate.value === predicate)
      .map((quad) => quad.object.value);
  const links: SignpostLink[] = [
    { href: iri, rel: 'cite-as' },
    ...METADATA_DOCUMENTS.map(([extension, type]) => ({
      href: `${iri}.${extension}`,
      rel: 'describedby',
      type,
    })),
    { href: `${iri}.md`, rel: 'alternate', type: 'text/markdown' },
    { href: `${iri}.linkset`, rel: 'linkset', type: LINKSET_JSON },
    { href: `${iri}.linkset`, rel: 'linkset', type: LINKSET_TEXT },
  ];
  for (const type of [...objects(iri, RDF('type')), ...objects(iri, DCT('conformsTo'))])
    links.push({ href: type, rel: 'type' });
  for (const licence of objects(iri, DCT('license'))) links.push({ href: licence, rel: 'license' });
  for (const predicate of AUTHORS)
    for (const agent of objects(iri, predicate)) {
      const href = agentHref(iri, agent, quads);
      if (href !== undefined) links.push({ href, rel: 'author' });
    }
  for (const predicate of DIRECT_ITEMS)
    for (const href of objects(iri, predicate)) links.push({ href, rel: 'item' });
  for (const predicate of ITEM_NODES)
    for (const node of objects(iri, predicate)) {
      if (objects(node, REG('availability')).includes('metadata-only')) continue;
      const type = objects(node, DCAT('mediaType'))[0];
      for (const href of objects(node, DCAT('downloadURL')))
        links.push(type === undefined ? { href, rel: 'item' } : { href, rel: 'item', type });
    }
  const parents = PARENTS.flatMap((predicate) => objects(iri, predicate));
  const collections = parents.length > 0 ? parents : [`${baseIri}/${RECORD_KINDS[record.kind].listing}`];
  for (const href of collections) links.push({ href, rel: 'collection' });
  return dedupe(links);
}

/** Formats links as the value of one `Link` header. */
export function linkHeader(links: readonly SignpostLink[]): string {
  return links
    .map(
      (link) => `<${link.href}>; rel="${link.rel}"${link.type === undefined ? '' : `; type="${link.type}"`}`,
    )
    .join(', ');
}

// An agent with an identifier IRI (ORCID, ROR) is that IRI; an owned `#publisher` node is only a name, so it
// is linked through its homepage when it has one and left out otherwise.
function agentHref(record: string, agent: string, quads: readonly Quad[]): string | undefined {
  if (!agent.startsWith(`${record}#`)) return agent;
  return quads.find((quad) => quad.subject.value === agent && quad.predicate.value === SCHEMA('url'))?.object
    .value;
}

function dedupe(links: SignpostLink[]): SignpostLink[] {
  const seen = new Set<string>();
  return links.filter((link) => {
    const key = `${link.rel} ${link.href} ${link.type ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The link a metadata document of a record carries back to what it describes (FAIR Signposting: `describes` on a
 * metadata resource), for a document served at one of the record's extensions.
 */
export function describesLink(iri: string): SignpostLink {
  return { href: iri, rel: 'describes', type: 'text/html' };
}

/** One anchored set of links: the record's own, then each metadata document's `describes` link back. */
function linksetContexts(iri: string, links: readonly SignpostLink[]): [string, SignpostLink[]][] {
  return [
    [iri, links.filter((link) => link.rel !== 'linkset')],
    ...METADATA_DOCUMENTS.map(([extension]): [string, SignpostLink[]] => [
      `${iri}.${extension}`,
      [describesLink(iri)],
    ]),
  ];
}

/** A record's links as an `application/linkset+json` document (RFC 9264 section 4.2). */
export function linksetJson(iri: string, links: readonly SignpostLink[]): string {
  const linkset = linksetContexts(iri, links).map(([anchor, anchored]) => {
    const context: Record<string, unknown> = { anchor };
    for (const link of anchored) {
      const target = link.type === undefined ? { href: link.href } : { href: link.href, type: link.type };
      const targets = (context[link.rel] ??= []) as unknown[];
      targets.push(target);
    }
    return context;
  });
  return `${JSON.stringify({ linkset }, null, 2)}\n`;
}

/** A record's links as an `application/linkset` document (RFC 9264 section 4.1): one anchored link a line. */
export function linksetText(iri: string, links: readonly SignpostLink[]): string {
  const lines = linksetContexts(iri, links).flatMap(([anchor, anchored]) =>
    anchored.map(
      (link) =>
        `<${link.href}>; rel="${link.rel}"${link.type === undefined ? '' : `; type="${link.type}"`}; anchor="${anchor}"`,
    ),
  );
  return `${lines.join(',\n')}\n`;
}
