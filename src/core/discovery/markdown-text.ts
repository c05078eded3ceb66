/**
 * The text of Markdown pages: the escaping of values the registry did not choose (names, descriptions, URLs
 * users sent), which reads each as text that can never open a link, an image, a heading, a list, a code span or
 * an HTML tag of its own, and the parts every record's page is built from (sections, one line per field, links
 * to terms, agents and other records).
 */
import type { AgentJson, CapabilityJson, OriginJson, TermJson } from '../../api/records.js';
import { DEREFERENCEABLE } from '../records/kind-registry.js';

/**
 * Characters that open or close inline structure wherever they stand (code spans, emphasis, links and images,
 * autolinks and HTML, entities, tables, strikethrough, closing heading marks); CommonMark reads each of them as
 * itself when a backslash precedes it.
 */
const INLINE = /[\\`*_{}[\]()<>#!|~&]/g;
/** Line breaks of every kind, and the other control characters, none of which belongs in one line of text. */
const BREAKS = /[\r\n\t\f\v\u0085\u2028\u2029]+/g;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const CONTROLS = /[\u0000-\u0008\u000e-\u001f\u007f]/g;
/** What opens a block at the start of a line once inline marks are escaped: list items, setext underlines. */
const BLOCK_START = /^([-+=])|^(\d{1,9})([.)])/;

/** A user's text as one line of Markdown text: line breaks become spaces, every mark is escaped. */
export function inline(text: string): string {
  return text.replace(CONTROLS, '').replace(BREAKS, ' ').trim().replace(INLINE, '\\$&');
}

/**
 * A user's text as one line of Markdown of at most `max` characters, escapes included, escaped as `inline` does;
 * an ellipsis marks a cut.
 */
export function clipped(text: string, max: number): string {
  const whole = inline(text);
  if ([...whole].length <= max) return whole;
  let out = '';
  let length = 0;
  for (const char of text.replace(CONTROLS, '').replace(BREAKS, ' ').trim()) {
    const escaped = inline(char) || char;
    if (length + [...escaped].length > max - 1) break;
    out += escaped;
    length += [...escaped].length;
  }
  return `${out.trimEnd()}…`;
}

/**
 * A user's multi-line text (a description, a README) as a block quote: its paragraphs kept, each line escaped
 * as `inline` does and kept from opening a block of its own; leading indentation is dropped, so no line
 * becomes code.
 */
export function quoted(text: string): string[] {
  const lines = text.replace(CONTROLS, '').split(/\r\n|[\r\n\u0085\u2028\u2029]/);
  const out: string[] = [];
  for (const line of lines) {
    const escaped = inline(line).replace(BLOCK_START, (_all, mark?: string, digits?: string, end?: string) =>
      mark !== undefined ? `\\${mark}` : `${digits ?? ''}\\${end ?? ''}`,
    );
    if (escaped === '' && (out.length === 0 || out[out.length - 1] === '>')) continue;
    out.push(escaped === '' ? '>' : `> ${escaped}`);
  }
  while (out[out.length - 1] === '>') out.pop();
  return out;
}

/** Whether a URL may be a link target: http and https only (never `javascript:`, `data:` or the like). */
export function isWebUrl(url: string): boolean {
  if (!/^https?:\/\//i.test(url)) return false;
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

/** A link destination in angle brackets, with what could end it early percent-encoded. */
function destination(url: string): string {
  return `<${url.replace(/[<>\\\s\p{Cc}]/gu, (char) => encodeURIComponent(char))}>`;
}

/**
 * A link whose label is text (escaped) and whose target is a web URL; any other target is written as text
 * after the label, so a `javascript:` IRI is shown and never followed.
 */
export function link(label: string, url: string): string {
  if (isWebUrl(url)) return `[${inline(label) || inline(url)}](${destination(url)})`;
  return label === url || label === '' ? inline(url) : `${inline(label)} (${inline(url)})`;
}

/** A URL as a link labelled with itself. */
export function bareLink(url: string): string {
  return link(url, url);
}

/** A block of literal text (an install command): fenced with more backticks than any run inside it. */
export function fenced(text: string): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence, ...text.replace(CONTROLS, '').split(/\r\n|[\r\n]/), fence];
}

/** What a page needs to know beyond the record: where this registry's record IRIs live. */
export interface PageContext {
  readonly baseIri: string;
}

/** One `##` section of a page: its heading and its Markdown lines (none: the section is left out). */
export interface Section {
  readonly heading: string;
  readonly lines: readonly string[];
}

/** The Markdown page of one record: its title (user text, escaped when written), lines under it, its sections. */
export interface RecordPage {
  readonly title: string;
  /** Lines between the representations and the first section (a tagline, the deployability verdict). */
  readonly lead?: readonly string[];
  readonly sections: readonly Section[];
}

/** A list item naming a field and its value (Markdown already); nothing when the value is absent or empty. */
export function field(name: string, value: string | undefined): string[] {
  return value === undefined || value === '' ? [] : [`- **${name}:** ${value}`];
}

/** A user's text on one line, or undefined when there is none. */
export function text(value: string | undefined | null): string | undefined {
  return value === undefined || value === null || value.trim() === '' ? undefined : inline(value);
}

/** A value the registry computed (a count, a status, a date), as text; undefined stays undefined. */
export function plain(value: string | number | boolean | undefined | null): string | undefined {
  return value === undefined || value === null ? undefined : inline(String(value));
}

/** Several values joined with commas; undefined when there are none. */
export function joined(values: readonly string[] | undefined): string | undefined {
  return values === undefined || values.length === 0 ? undefined : values.join(', ');
}

/** A label linked to a target when there is one, else the label alone (`unnamed` without either). */
export function linked(label: string | undefined, target: string | undefined): string {
  const name = label ?? target ?? 'unnamed';
  return target === undefined ? inline(name) : link(name, target);
}

/** A count of things, named in the singular or the plural as the count needs (`1 release`, `2 releases`). */
export function counted(count: number | undefined, singular: string, plural = `${singular}s`): string {
  const n = count ?? 0;
  return `${n} ${n === 1 ? singular : plural}`;
}

/** A URL as a link to itself (undefined stays undefined). */
export function url(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : link(value, value);
}

/**
 * A link to a record: to its Markdown page when it is a record of this registry that dereferences here, else
 * to the IRI itself.
 */
export function recordLink(context: PageContext, label: string | undefined, iri: string): string {
  const name = label === undefined || label.trim() === '' ? iri : label;
  return link(name, dereferences(context, iri) ? `${iri}.md` : iri);
}

function dereferences(context: PageContext, iri: string): boolean {
  const prefix = `${context.baseIri}/`;
  if (!iri.startsWith(prefix)) return false;
  const [segment, id, ...rest] = iri.slice(prefix.length).split('/');
  if (id === undefined || id === '' || rest.length > 0 || id.includes('#')) return false;
  return [...DEREFERENCEABLE.values()].some(
    (declared) => declared.segment === segment || declared.aliases.includes(segment ?? ''),
  );
}

/** How the API names a record in a path or query: its id when it is this registry's, else its encoded IRI. */
export function apiName(json: {
  readonly iri: string;
  readonly id: string;
  readonly origin?: OriginJson;
}): string {
  return json.origin?.kind === 'peer' ? encodeURIComponent(json.iri) : json.id;
}

/** A vocabulary term: its label linked to its IRI. */
export function term(value: TermJson): string {
  return link(value.label ?? value.iri, value.iri);
}

/** Vocabulary terms, comma-separated; undefined when there are none. */
export function terms(values: readonly TermJson[] | undefined): string | undefined {
  return joined(values?.map(term));
}

/**
 * An agent: its name (linked to its homepage, or to its identifier IRI), its kind, identifier and email. A node
 * of the record (`…#publisher`) is a name, never a link.
 */
export function agent(value: AgentJson | undefined): string | undefined {
  if (value === undefined) return undefined;
  const target =
    value.homepage ?? (value.iri !== undefined && !value.iri.includes('#') ? value.iri : undefined);
  const name = value.name ?? value.iri ?? 'unnamed';
  const first = target !== undefined && isWebUrl(target) ? link(name, target) : inline(name);
  const details = [value.kind, value.identifier, value.email, value.version]
    .filter((detail): detail is string => detail !== undefined && detail !== '')
    .map(inline);
  return details.length === 0 ? first : `${first} (${details.join(', ')})`;
}

/** Agents, semicolon-separated; undefined when there are none. */
export function agents(values: readonly AgentJson[] | undefined): string | undefined {
  const written = (values ?? []).map(agent).filter((value): value is string => value !== undefined);
  return written.length === 0 ? undefined : written.join('; ');
}

/** A user's multi-line text as a section holding it as a block quote. */
export function quotedSection(heading: string, value: string | undefined | null): Section {
  return { heading, lines: value === undefined || value === null ? [] : quoted(value) };
}

/** The section of a declared capability: what it produces and consumes, and which record declared it. */
export function capabilitySection(capability: CapabilityJson | undefined): Section {
  if (capability === undefined) return { heading: 'Capability', lines: [] };
  return {
    heading: 'Capability',
    lines: [
      ...field('Produces', terms(capability.produces) ?? 'nothing declared'),
      ...field('Consumes', terms(capability.consumes) ?? 'nothing declared'),
      ...field('Declared by', `the ${capability.declared_at}`),
    ],
  };
}

/** Where a peer's copy comes from, for a record cached from another registry; nothing for a local record. */
export function provenanceSection(origin: OriginJson | undefined): Section {
  if (origin?.kind !== 'peer') return { heading: 'Provenance', lines: [] };
  const peer = origin.peer_title ?? origin.peer_base_iri ?? origin.peer_id ?? 'a peer registry';
  return {
    heading: 'Provenance',
    lines: [
      `This is a copy cached from the peer registry ${origin.peer_base_iri === undefined ? inline(peer) : link(peer, origin.peer_base_iri)}; that registry holds the record itself.`,
      '',
      ...field('Peer', text(origin.peer_title)),
      ...field('Peer base IRI', url(origin.peer_base_iri)),
      ...field('Cached at', plain(origin.cached_at)),
      ...field('Last resolved', plain(origin.resolve_status)),
      ...field(
        'Stale',
        origin.stale === true
          ? 'yes — the peer has not been reached for a long time, so this copy may be out of date'
          : 'no',
      ),
      ...field('Note', text(origin.reason)),
    ],
  };
}
