/**
 * Small pieces every record page shows the same way: links between records, dates, field lists, inline lists,
 * vocabulary terms and agents (status badges are in `badges.tsx`).
 */
import type { ComponentChildren } from 'preact';
import { idOf, isLocal, pageOf, type AgentJson, type TermJson } from '../api';
import './browse.css';

/** The first path segment of each kind of record page the app has (`/artifact-series/…` has none). */
const PAGE_KINDS: Readonly<Record<string, string>> = {
  software: 'software',
  release: 'release',
  instance: 'deployment',
  instances: 'deployment',
  run: 'run',
  runs: 'run',
  artifact: 'artifact',
  artifacts: 'artifact',
  type: 'type',
};

/** The URL when it is one a link may point at (http, https, mailto); record fields are not trusted to be. */
export function safeUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return ['http:', 'https:', 'mailto:'].includes(new URL(url).protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

/** A link out of the registry, or the bare text when the URL is not one to follow. */
export function ExternalLink({ href, children }: { href: string | undefined; children?: ComponentChildren }) {
  const safe = safeUrl(href);
  if (safe === undefined) return <code>{children ?? href}</code>;
  return (
    <a href={safe} rel="external noopener">
      {children ?? href}
    </a>
  );
}

/** "deployment 01a1fdf0…": what a record IRI names when no label is at hand. */
function fallbackLabel(iri: string): string {
  if (!isLocal(iri)) return iri;
  const kind = PAGE_KINDS[pageOf(iri).split('/')[1] ?? ''];
  const id = idOf(iri);
  return `${kind ?? 'record'} ${id.length > 13 ? `${id.slice(0, 13)}…` : id}`;
}

/**
 * A link to a record: its page here when the IRI is this registry's, the IRI itself (marked as at another
 * registry) when foreign, and plain text for local IRIs that have no page (artifact series).
 */
export function RecordLink({ iri, label }: { iri: string; label?: string | undefined }) {
  const text = label ?? fallbackLabel(iri);
  if (!isLocal(iri)) {
    return (
      <span class="foreign">
        <ExternalLink href={iri}>{text}</ExternalLink> <span class="badge">at another registry</span>
      </span>
    );
  }
  const page = pageOf(iri);
  if (PAGE_KINDS[page.split('/')[1] ?? ''] === undefined) return <code>{iri}</code>;
  return <a href={page}>{text}</a>;
}

/** Items as an inline list, each shown by `children`, or nothing when there are none. */
export function InlineList<T>({
  items,
  itemKey,
  children,
}: {
  items: readonly T[] | undefined;
  itemKey: (item: T, n: number) => string | number;
  children: (item: T) => ComponentChildren;
}) {
  if (items === undefined || items.length === 0) return null;
  return (
    <ul class="inline-list">
      {items.map((item, n) => (
        <li key={itemKey(item, n)}>{children(item)}</li>
      ))}
    </ul>
  );
}

/** A list of record links (labelled where `labels` knows the IRI), or nothing when there are none. */
export function RecordLinks({
  iris,
  labels = {},
}: {
  iris: readonly string[] | undefined;
  labels?: Readonly<Record<string, string | undefined>>;
}) {
  return (
    <InlineList items={iris} itemKey={(iri) => iri}>
      {(iri) => <RecordLink iri={iri} label={labels[iri]} />}
    </InlineList>
  );
}

const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A timestamp in the reader's locale, the exact value kept in `datetime` and shown on hover. */
export function When({ at }: { at: string | undefined }) {
  if (at === undefined) return null;
  const date = new Date(at);
  if (Number.isNaN(date.getTime()) || !at.includes('T')) return <time dateTime={at}>{at}</time>;
  return (
    <time dateTime={at} title={at}>
      {DATE_TIME.format(date)}
    </time>
  );
}

/** `2.1 MB (2,136,864 bytes)`. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const exact = `${bytes.toLocaleString()} bytes`;
  return unit === 0 ? exact : `${value.toFixed(1)} ${units[unit]} (${exact})`;
}

/** `1 min 5 s`. */
export function formatDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  return minutes === 0 ? `${rest} s` : `${minutes} min ${rest} s`;
}

/** True when a list has members (the registry leaves empty lists out, or sends them empty). */
export function some(list: readonly unknown[] | undefined): boolean {
  return list !== undefined && list.length > 0;
}

type FieldValue = ComponentChildren | undefined | null | false;

/**
 * A `dl.fields` of label/value rows, leaving out rows whose value is absent, `false`, empty text or an empty
 * list, so callers write `value && <View …/>`.
 */
export function Fields({ rows }: { rows: readonly (readonly [string, FieldValue])[] }) {
  const shown = rows.filter(
    ([, value]) =>
      value !== undefined &&
      value !== null &&
      value !== false &&
      value !== '' &&
      !(Array.isArray(value) && value.length === 0),
  );
  if (shown.length === 0) return null;
  return (
    <dl class="fields">
      {shown.map(([label, value]) => (
        <div class="field-row" key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A vocabulary term: its page when minted here, else its IRI; the definition on hover. */
export function Term({ term }: { term: Pick<TermJson, 'iri' | 'label' | 'definition'> }) {
  const label = term.label ?? term.iri;
  if (isLocal(term.iri)) {
    return (
      <a href={pageOf(term.iri)} title={term.definition}>
        {label}
      </a>
    );
  }
  return (
    <span title={term.definition}>
      <ExternalLink href={term.iri}>{label}</ExternalLink>
    </span>
  );
}

/** Terms as an inline list, each linking to its own page or, given `href`, to where `href` says. */
export function Terms({
  terms,
  href,
}: {
  terms: readonly TermJson[] | undefined;
  href?: (term: TermJson) => string;
}) {
  return (
    <InlineList items={terms} itemKey={(term) => term.iri}>
      {(term) =>
        href === undefined ? (
          <Term term={term} />
        ) : (
          <a href={href(term)} title={term.definition}>
            {term.label ?? term.iri}
          </a>
        )
      }
    </InlineList>
  );
}

/** Plain strings as an inline list, each optionally a link. */
export function Words({
  words,
  href,
}: {
  words: readonly string[] | undefined;
  href?: (word: string) => string;
}) {
  return (
    <InlineList items={words} itemKey={(word) => word}>
      {(word) => (href === undefined ? word : <a href={href(word)}>{word}</a>)}
    </InlineList>
  );
}

/** A person, organisation or program: its name, what kind it is, and where to find out more. */
export function AgentView({ agent }: { agent: AgentJson | undefined }) {
  if (agent === undefined) return null;
  const link = safeUrl(agent.homepage) ?? safeUrl(agent.identifier);
  const name = agent.name ?? agent.identifier ?? agent.iri ?? 'unnamed';
  return (
    <span>
      {link === undefined ? name : <ExternalLink href={link}>{name}</ExternalLink>}
      {agent.version !== undefined && ` ${agent.version}`}
      {agent.kind !== undefined && <span class="status"> ({agent.kind})</span>}
      {agent.email !== undefined && (
        <>
          {' · '}
          <ExternalLink href={`mailto:${agent.email}`}>{agent.email}</ExternalLink>
        </>
      )}
      {agent.identifier !== undefined && agent.identifier !== link && (
        <span class="status"> · {agent.identifier}</span>
      )}
    </span>
  );
}

/** A withdrawn record still resolves; this says so before anything else. */
export function Withdrawn({ at, what }: { at?: string | undefined; what: string }) {
  return (
    <div class="notice notice-warn" role="note">
      <strong>Withdrawn.</strong> This {what} was withdrawn{at === undefined ? '' : ' on '}
      <When at={at} /> and no longer appears in lists or search; its address keeps resolving.
    </div>
  );
}

/**
 * Links to the record as data. `target="_top"` makes them full page loads: the app's router takes over every
 * same-origin link, and these are files, not pages.
 */
export function DataLinks({ iri }: { iri: string }) {
  const page = pageOf(iri);
  return (
    <p class="data-links">
      <a href={`${page}.ttl`} target="_top" type="text/turtle">
        Download as Turtle
      </a>{' '}
      ·{' '}
      <a href={`${page}.jsonld`} target="_top" type="application/ld+json">
        Download as JSON-LD
      </a>
    </p>
  );
}

/** A record's fields, ending with its IRI, followed by the links to the record as data. */
export function RecordFields({
  iri,
  rows,
}: {
  iri: string;
  rows: readonly (readonly [string, FieldValue])[];
}) {
  return (
    <>
      <Fields rows={[...rows, ['IRI', <code>{iri}</code>]]} />
      <DataLinks iri={iri} />
    </>
  );
}
