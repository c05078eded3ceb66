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

/**
 * The Signposting links of a record: `cite-as` (its IRI), `describedby` (its Turtle and JSON-LD), `alternate`
 * (its Markdown page), `type` (its classes and artifact type), `license`, `author` (publisher and creators),
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
    { href: `${iri}.ttl`, rel: 'describedby', type: 'text/turtle' },
    { href: `${iri}.jsonld`, rel: 'describedby', type: 'application/ld+json' },
    { href: `${iri}.md`, rel: 'alternate', type: 'text/markdown' },
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
