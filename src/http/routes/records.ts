import { Hono, type Context } from 'hono';
import type { Core } from '../../core/core.js';
import { NotAcceptableError, NotFoundError } from '../../core/errors.js';
import type { JsonObject } from '../../core/records/mapper.js';
import {
  readRecordQuads,
  renderRecord,
  type RdfFormat,
  type RecordKind,
} from '../../core/services/representations.js';
import { linkHeader, signpostingLinks } from '../../core/services/signposting.js';
import { getSoftware } from '../../core/services/software.js';
import type { AppEnv } from '../env.js';
import { problemResponse } from '../problem.js';

/** Reads the API JSON of one record by id (the body `GET /api/v1/<kind>/<id>` returns). */
export type RecordReader = (core: Core, id: string) => Promise<JsonObject>;
/** The JSON reader of each dereferenceable kind; kinds without one are not routed. */
export type RecordReaders = Partial<Record<RecordKind, RecordReader>>;

/** Representations a record IRI offers. */
type Form = RdfFormat | 'json' | 'html';

/** Media types of each form; on equal quality the first form listed wins, so `*\/*` gets Turtle. */
const MEDIA_TYPES: readonly (readonly [Form, readonly string[]])[] = [
  ['turtle', ['text/turtle']],
  ['jsonld', ['application/ld+json']],
  ['nquads', ['application/n-quads']],
  ['json', ['application/json']],
  ['html', ['text/html', 'application/xhtml+xml']],
];
const EXTENSIONS: Readonly<Record<string, Form>> = {
  ttl: 'turtle',
  jsonld: 'jsonld',
  nq: 'nquads',
  json: 'json',
  html: 'html',
};
/** The paths each kind's IRIs (and their aliases) are served at. */
const PATHS: Readonly<Record<RecordKind, readonly string[]>> = {
  software: ['software'],
  release: ['release'],
  instance: ['instance', 'instances'],
  type: ['type'],
  run: ['run', 'runs'],
  artifact: ['artifact', 'artifacts'],
};

/**
 * Record IRIs (`{base}/software/<id>`, `/release/<id>`, `/instance/<id>` and `/instances/<id>`, `/type/<slug>`)
 * dereference by Accept (q-values honoured) or by extension (`.ttl .jsonld .nq .json`), with `Vary: Accept`
 * and FAIR Signposting `Link` headers. The web page (HTML) does not exist yet, so browsers get a 404.
 */
export function recordRoutes(readers: RecordReaders = { software: getSoftware }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (const [kind, paths] of Object.entries(PATHS) as [RecordKind, readonly string[]][]) {
    const reader = readers[kind];
    if (reader === undefined) continue;
    for (const path of paths) app.get(`/${path}/:id`, (c) => dereference(c, kind, c.req.param('id'), reader));
  }
  return app;
}

async function dereference(
  c: Context<AppEnv>,
  kind: RecordKind,
  segment: string,
  reader: RecordReader,
): Promise<Response> {
  const core = c.get('core');
  let link: string | undefined;
  try {
    const { id, extension } = splitExtension(segment);
    const record = await readRecordQuads(core, kind, id);
    link = linkHeader(signpostingLinks(core.config.baseIri, record));
    const form = extension ?? negotiate(c.req.header('accept'));
    const headers: Record<string, string> = { vary: 'Accept', link };
    if (form === 'html')
      throw new NotFoundError(
        `${record.iri} has no web page yet; ask for text/turtle, application/ld+json, application/n-quads or application/json`,
      );
    if (form === 'json') return c.json(await reader(core, id), 200, headers);
    const { contentType, body } = renderRecord(record, form);
    return c.body(body, 200, { ...headers, 'content-type': contentType });
  } catch (error) {
    const response = problemResponse(error, c.get('requestId'), core.log, c.req.path);
    response.headers.set('vary', 'Accept');
    if (link !== undefined) response.headers.set('link', link);
    return response;
  }
}

function splitExtension(segment: string): { id: string; extension?: Form } {
  const dot = segment.lastIndexOf('.');
  const form = dot < 0 ? undefined : EXTENSIONS[segment.slice(dot + 1)];
  return form === undefined ? { id: segment } : { id: segment.slice(0, dot), extension: form };
}

/** The offered form the Accept header ranks highest (absent header: any); 406 when it accepts none. */
function negotiate(accept: string | undefined): Form {
  const ranges = parseAccept(accept === undefined || accept.trim() === '' ? '*/*' : accept);
  let best: { form: Form; q: number } | undefined;
  for (const [form, types] of MEDIA_TYPES) {
    const q = Math.max(...types.map((type) => quality(type, ranges)));
    if (q > 0 && (best === undefined || q > best.q)) best = { form, q };
  }
  if (best === undefined) {
    throw new NotAcceptableError(
      'a record is available as text/turtle, application/ld+json, application/n-quads or application/json',
    );
  }
  return best.form;
}

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [media = '', ...params] = part.split(';').map((piece) => piece.trim());
    const [type, subtype] = media.toLowerCase().split('/');
    if (type === undefined || type === '' || subtype === undefined || subtype === '') continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((piece) => piece.trim());
      if (name?.toLowerCase() === 'q') {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0;
      }
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/** The q of the most specific range matching a media type (exact, then `type/*`, then `*\/*`); 0 if none. */
function quality(mediaType: string, ranges: readonly MediaRange[]): number {
  const [type, subtype] = mediaType.split('/');
  let specificity = 0;
  let q = 0;
  for (const range of ranges) {
    const level =
      range.type === type && range.subtype === subtype
        ? 3
        : range.type === type && range.subtype === '*'
          ? 2
          : range.type === '*' && range.subtype === '*'
            ? 1
            : 0;
    if (level > specificity || (level === specificity && level > 0 && range.q > q)) {
      specificity = level;
      q = range.q;
    }
  }
  return q;
}
