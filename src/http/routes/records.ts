import { Hono, type Context } from 'hono';
import type { Core } from '../../core/core.js';
import { NotAcceptableError, NotFoundError } from '../../core/errors.js';
import type { JsonObject } from '../../core/records/mapper.js';
import {
  readRecordQuads,
  renderRecord,
  RECORD_KINDS,
  type RdfFormat,
  type RecordKind,
  type RecordQuads,
  type StoredRecordQuads,
} from '../../core/discovery/representations.js';
import { entityTag, versionOf } from '../../core/stored/record-version.js';
import {
  describesLink,
  linkHeader,
  LINKSET_JSON,
  LINKSET_TEXT,
  linksetJson,
  linksetText,
  signpostingLinks,
  type SignpostLink,
} from '../../core/discovery/signposting.js';
import { getSoftware } from '../../core/catalogue/software.js';
import type { AppEnv } from '../env.js';
import { preferred } from '../accept.js';
import { problemResponse } from '../problem.js';
import { notModified, storedVersion } from '../record-conditions.js';
import type { WebPage } from '../web.js';
import { DEREFERENCEABLE } from '../../core/records/kind-registry.js';
import { contentNameQuads, contentNames } from '../../core/records/content-id.js';
import { MARKDOWN_CONTENT_TYPE, markdownTag, recordMarkdown } from '../../core/discovery/markdown.js';
import { DCT, REG } from '../../core/ns.js';

/** Reads the API JSON of one record by id (the body `GET /api/v1/<kind>/<id>` returns). */
export type RecordReader = (core: Core, id: string) => Promise<JsonObject>;
/** The JSON reader of each dereferenceable kind; kinds without one are not routed. */
export type RecordReaders = Partial<Record<RecordKind, RecordReader>>;

/** Representations a record IRI offers. */
type Form = RdfFormat | 'json' | 'markdown' | 'linkset' | 'html';

/** Media types of each form; on equal quality the first form listed wins, so `*\/*` gets Turtle. */
const MEDIA_TYPES: readonly (readonly [Form, readonly string[]])[] = [
  // Turtle is N3 too: an N3 client (rdflib names `text/rdf+n3`) reads it.
  ['turtle', ['text/turtle', 'text/n3', 'text/rdf+n3']],
  ['jsonld', ['application/ld+json']],
  ['nquads', ['application/n-quads']],
  ['ntriples', ['application/n-triples']],
  ['rdfxml', ['application/rdf+xml']],
  ['json', ['application/json']],
  ['markdown', ['text/markdown']],
  ['linkset', [LINKSET_JSON, LINKSET_TEXT]],
  ['html', ['text/html', 'application/xhtml+xml']],
];
const EXTENSIONS: Readonly<Record<string, Form>> = {
  ttl: 'turtle',
  jsonld: 'jsonld',
  nq: 'nquads',
  nt: 'ntriples',
  rdf: 'rdfxml',
  json: 'json',
  md: 'markdown',
  linkset: 'linkset',
  html: 'html',
};
/** The extension that marks each RDF form's entity tag (as in the record IRI's own extensions). */
const FORM_EXTENSIONS: Readonly<Record<RdfFormat, string>> = {
  turtle: 'ttl',
  jsonld: 'jsonld',
  nquads: 'nq',
  ntriples: 'nt',
  rdfxml: 'rdf',
};
/** The paths each kind's IRIs (and their aliases) are served at, as each kind declares them. */
const PATHS: readonly (readonly [RecordKind, readonly string[]])[] = [...DEREFERENCEABLE].map(
  ([kind, declared]) => [kind, [declared.segment, ...declared.aliases]] as const,
);

/**
 * The API paths that read one record: the kind each reads and the path parameter naming the record (an id, or
 * a full IRI).
 */
const API_READS: readonly (readonly [path: string, kind: RecordKind, param: string])[] = [
  ['/api/v1/software/:id', 'software', 'id'],
  ['/api/v1/software/:id/releases/:release_id', 'release', 'release_id'],
  ['/api/v1/instances/:id', 'instance', 'id'],
  ['/api/v1/types/:id{.+}', 'type', 'id'],
  ['/api/v1/runs/:id', 'run', 'id'],
  ['/api/v1/artifacts/:id', 'artifact', 'id'],
];

/**
 * FAIR Signposting and entity tags on the API's reads of one record: a successful `GET` of any path in
 * `API_READS` gets the same `Link` header as the record's IRI, and the `ETag` of the stored record's version (see
 * `versionOf`: it covers the stored record, not the counts and labels the JSON derives from other records), which
 * `If-Match` on an edit names. Mounted before the routes it wraps, so those routes only return the JSON.
 */
export function signpostedReads(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (const [path, kind, param] of API_READS)
    app.get(path, async (c, next) => {
      const named = c.req.param(param);
      // Read before the body: a write in between leaves a tag older than the body, which a conditional edit then
      // refuses, never a tag newer than what the client saw. One read gives both the tag and the links of a
      // record minted here; a record held here under another registry's IRI (an adopted type) has a tag only.
      const core = c.get('core');
      const record = named === undefined ? undefined : await mintedRecord(core, kind, named);
      const version =
        record?.version ?? (named === undefined ? undefined : await storedVersion(core, kind, named));
      await next();
      if (c.res.status !== 200) return;
      if (version !== undefined) c.res.headers.set('etag', entityTag(version));
      if (record !== undefined) c.res.headers.set('link', linkOf(core, record));
    });
  return app;
}

/**
 * A record this registry minted, named by id or IRI, as its quads; none for a record it did not mint (a peer's,
 * read from its cache, or an adopted type), whose links are the record's home registry's to give.
 */
async function mintedRecord(
  core: Core,
  kind: RecordKind,
  idOrIri: string,
): Promise<StoredRecordQuads | undefined> {
  const prefix = `${core.config.baseIri}/${RECORD_KINDS[kind].segment}/`;
  const id = !/^https?:\/\//.test(idOrIri)
    ? idOrIri
    : idOrIri.startsWith(prefix)
      ? idOrIri.slice(prefix.length)
      : undefined;
  if (id === undefined) return undefined;
  try {
    return await readRecordQuads(core, kind, id);
  } catch (error) {
    // A path that answered 200 without naming a record of the kind (`/api/v1/artifacts/identify`) has no links.
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/**
 * The record's Signposting links, then the names of the content it describes (`ni:`, `hash://`, SWHID), each
 * under the extension relation type `reg:contentName` (RFC 8288 section 2.1.2): Signposting has no relation
 * for another name of an item's bytes, and `cite-as` stays the record's IRI.
 */
function linkOf(core: Core, record: RecordQuads): string {
  return linkHeader(linksOf(core, record));
}

function linksOf(core: Core, record: RecordQuads): SignpostLink[] {
  const names = contentNames(record.iri, record.quads).flatMap((node) => node.names);
  const rel = REG('contentName');
  return [
    ...signpostingLinks(core.config.baseIri, record),
    ...[...new Set(names)].map((href) => ({ href, rel })),
  ];
}

/** When the record last changed (its `dct:modified`), as an HTTP date; undefined when it does not say. */
function lastModified(record: RecordQuads): string | undefined {
  const modified = record.quads.find(
    (quad) => quad.subject.value === record.iri && quad.predicate.value === DCT('modified'),
  )?.object.value;
  const time = modified === undefined ? NaN : Date.parse(modified);
  return Number.isNaN(time) ? undefined : new Date(time).toUTCString();
}

/**
 * Record IRIs (`{base}/software/<id>`, `/release/<id>`, `/instance/<id>` and `/instances/<id>`, `/type/<slug>`,
 * `/run/<id>`, `/artifact/<id>`) dereference by Accept (q-values honoured) or by extension
 * (`.ttl .jsonld .nq .nt .rdf .json .md .html`), with `Vary: Accept`, FAIR Signposting `Link` headers and
 * `Last-Modified` (the record's `dct:modified`). Browsers get the
 * web page, which shows the record (status 404 when there is no such record; the page says so).
 */
export function recordRoutes(
  readers: RecordReaders = { software: getSoftware },
  web?: WebPage,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (const [kind, paths] of PATHS) {
    const reader = readers[kind];
    if (reader === undefined) continue;
    for (const path of paths)
      app.get(`/${path}/:id`, (c) => dereference(c, kind, c.req.param('id'), reader, web));
  }
  return app;
}

async function dereference(
  c: Context<AppEnv>,
  kind: RecordKind,
  segment: string,
  reader: RecordReader,
  web: WebPage | undefined,
): Promise<Response> {
  const core = c.get('core');
  let link: string | undefined;
  try {
    const { id, extension } = splitExtension(segment);
    const form = extension ?? negotiate(c.req.header('accept'));
    if (form === 'html') return await recordPage(c, installed(web), kind, id);
    const record = await readRecordQuads(core, kind, id);
    const links = linksOf(core, record);
    if (form === 'linkset') return linksetOf(c, record, links);
    // A document named by its extension is a metadata document of the record: it says what it describes.
    link = linkHeader(extension === undefined ? links : [...links, describesLink(record.iri)]);
    const modified = lastModified(record);
    const dated: Record<string, string> = modified === undefined ? {} : { 'last-modified': modified };
    if (form === 'markdown') return markdownOf(c, record, await reader(core, id), link, dated);
    const etag = entityTag(record.version, form === 'json' ? undefined : FORM_EXTENSIONS[form]);
    const headers: Record<string, string> = { vary: 'Accept', link, etag, ...dated };
    if (form === 'json') return c.json(await reader(core, id), 200, headers);
    // An RDF form is the stored record and nothing else, so its tag vouches for every byte: a match is a 304.
    if (notModified(c, etag)) return c.body(null, 304, headers);
    // The content names are derived from the stored quads alone, so the tag of the stored record still holds.
    const named = { ...record, quads: [...record.quads, ...contentNameQuads(record.iri, record.quads)] };
    const { contentType, body } = await renderRecord(named, form);
    return c.body(body, 200, { ...headers, 'content-type': contentType });
  } catch (error) {
    const response = problemResponse(error, c.get('requestId'), core.log, c.req.path);
    response.headers.set('vary', 'Accept');
    if (link !== undefined) response.headers.set('link', link);
    return response;
  }
}

/**
 * The Markdown page of a record, written from the JSON its reader returns. Its entity tag names the stored
 * version and the page's bytes (which also show counts derived from other records), so a match is a 304 only
 * when the page is byte for byte the one the client holds.
 */
function markdownOf(
  c: Context<AppEnv>,
  record: StoredRecordQuads,
  json: JsonObject,
  link: string,
  dated: Record<string, string>,
): Response {
  const body = recordMarkdown(record.kind, json, { baseIri: c.get('core').config.baseIri });
  const etag = markdownTag(record.version, body);
  const headers: Record<string, string> = { vary: 'Accept', link, etag, ...dated };
  if (notModified(c, etag)) return c.body(null, 304, headers);
  return c.body(body, 200, { ...headers, 'content-type': MARKDOWN_CONTENT_TYPE });
}

/**
 * The record's links as a linkset (RFC 9264; FAIR Signposting level 2): `application/linkset+json` unless the
 * Accept header prefers `application/linkset`. Its tag covers its bytes, so a match is a 304.
 */
function linksetOf(c: Context<AppEnv>, record: StoredRecordQuads, links: readonly SignpostLink[]): Response {
  const text = preferred(c.req.header('accept'), LINKSET_FORMS) === 'text';
  const body = text ? linksetText(record.iri, links) : linksetJson(record.iri, links);
  const etag = entityTag(
    `${record.version}.${versionOf(body).slice(0, 16)}`,
    text ? 'linkset' : 'linkset.json',
  );
  const headers: Record<string, string> = { vary: 'Accept', etag };
  if (notModified(c, etag)) return c.body(null, 304, headers);
  return c.body(body, 200, { ...headers, 'content-type': text ? LINKSET_TEXT : LINKSET_JSON });
}

const LINKSET_FORMS: readonly (readonly ['json' | 'text', readonly string[]])[] = [
  ['json', [LINKSET_JSON, 'application/json']],
  ['text', [LINKSET_TEXT]],
];

function splitExtension(segment: string): { id: string; extension?: Form } {
  const dot = segment.lastIndexOf('.');
  const form = dot < 0 ? undefined : EXTENSIONS[segment.slice(dot + 1)];
  return form === undefined ? { id: segment } : { id: segment.slice(0, dot), extension: form };
}

/**
 * The web page at a record IRI, with the record's Signposting links; 404 with the page for no such record, except
 * `/software/new` and `/instances/new`, which are the page's forms.
 */
async function recordPage(c: Context<AppEnv>, web: WebPage, kind: RecordKind, id: string): Promise<Response> {
  const core = c.get('core');
  try {
    const record = await readRecordQuads(core, kind, id);
    return web.respond(c, 200, { link: linkOf(core, record) });
  } catch (error) {
    if (error instanceof NotFoundError) return web.respond(c, id === 'new' ? 200 : 404);
    throw error;
  }
}

/** The web page, when this registry serves one; 406 otherwise. */
function installed(web: WebPage | undefined): WebPage {
  if (web?.installed !== true) {
    throw new NotAcceptableError(
      'this registry serves no web page; ask for text/turtle, application/ld+json, application/n-quads, application/n-triples, application/rdf+xml, application/json or text/markdown',
    );
  }
  return web;
}

/** The offered form the Accept header ranks highest (absent header: any); 406 when it accepts none. */
function negotiate(accept: string | undefined): Form {
  const form = preferred(accept, MEDIA_TYPES);
  if (form === undefined) {
    throw new NotAcceptableError(
      'a record is available as text/turtle, application/ld+json, application/n-quads, application/n-triples, application/rdf+xml, application/json, text/markdown or text/html',
    );
  }
  return form;
}
