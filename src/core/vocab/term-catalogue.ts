/**
 * The searchable catalogue of bundled terms: each offered term (retired ones left out) with its label,
 * alternative labels, definition and short id, lower-cased once for matching. A pure function of the bundles,
 * built once per start on first use.
 */
import { DCT, REG, SKOS, SPDX } from '../ns.js';
import type { Bundle } from './bundles.js';
import { unescapeNTriples } from './ntriples.js';
import type { ReferenceIndex } from './reference-index.js';

/** Where a term comes from, as clients see it. */
export type TermSource = 'bundled' | 'local' | 'external';

/** Branches a search can be narrowed to; `topic-edam` holds legacy topics kept only to label old records. */
export const VOCAB_BRANCHES = ['data', 'topic', 'keyword', 'license', 'topic-edam'] as const;
/** One search branch. */
export type VocabBranch = (typeof VOCAB_BRANCHES)[number];

// Legacy topics are never offered unless asked for by name: no write accepts them.
/** Branches searched when none is named. */
export const OFFERED: readonly VocabBranch[] = ['data', 'topic', 'keyword', 'license'];
const BRANCH_OF_CLASS: readonly (readonly [string, VocabBranch])[] = [
  [REG('ArtifactType'), 'data'],
  [REG('ResearchTopic'), 'topic'],
  [REG('ArtifactKeyword'), 'keyword'],
  [SPDX('ListedLicense'), 'license'],
  [DCT('LicenseDocument'), 'license'],
  [REG('LegacyTopic'), 'topic-edam'],
];
const P_ALT = SKOS('altLabel');
const P_DEFINITION = SKOS('definition');
const P_BROADER = SKOS('broader');
const P_LICENSE_ID = SPDX('licenseId');
const P_MEDIA_TYPE = REG('defaultMediaType');
const EXTRA = new Set([P_ALT, P_DEFINITION, P_BROADER, P_LICENSE_ID, P_MEDIA_TYPE]);

/** A term as search sees it, with its match strings lower-cased once. */
export interface VocabEntry {
  readonly iri: string;
  readonly branch: VocabBranch;
  readonly label: string;
  readonly definition?: string;
  readonly defaultMediaType?: string;
  /** Short identifier: a licence's SPDX id, else the IRI's last segment. */
  readonly shortId: string;
  readonly source: TermSource;
  /** Lower-cased label (and licence id): scored exact, prefix or substring. */
  readonly names: readonly string[];
  /** Lower-cased alternative labels: a match here alone scores as a synonym. */
  readonly synonyms: readonly string[];
}

/** One search hit. */
export interface VocabHit {
  readonly iri: string;
  readonly label: string;
  readonly definition?: string;
  readonly source: TermSource;
  readonly branch: VocabBranch;
  readonly score: number;
}

/** The bundled terms a search offers (retired ones left out), built once per set of bundles. */
export interface BundledCatalogue {
  readonly entries: readonly VocabEntry[];
  readonly byIri: ReadonlyMap<string, VocabEntry>;
}


interface Extras {
  alt: string[];
  definition?: string;
  broader?: string;
  licenseId?: string;
  mediaType?: string;
}

/** Builds the searchable catalogue of bundled terms: labels, alternative labels, definitions, licence ids. */
export function buildTermCatalogue(bundles: readonly Bundle[], index: ReferenceIndex): BundledCatalogue {
  const extras = new Map<string, Extras>();
  for (const bundle of bundles) {
    if (bundle.name === 'shapes') continue;
    for (const line of bundle.ntriples.split('\n')) readExtra(line, extras);
  }
  const byIri = new Map<string, VocabEntry>();
  for (const [cls, branch] of BRANCH_OF_CLASS) {
    for (const term of index.termsOfClass(cls, { includeRetired: false })) {
      if (byIri.has(term.iri) || term.label === undefined) continue;
      const extra = extras.get(term.iri);
      const broader = extra?.broader === undefined ? undefined : index.get(extra.broader)?.label;
      const definition =
        extra?.definition ?? (branch === 'topic' && broader !== undefined ? `in ${broader}` : undefined);
      byIri.set(
        term.iri,
        makeEntry({
          iri: term.iri,
          branch,
          label: term.label,
          source: 'bundled',
          aliases: extra?.alt ?? [],
          ...(definition === undefined ? {} : { definition }),
          ...(extra?.mediaType === undefined ? {} : { defaultMediaType: extra.mediaType }),
          ...(extra?.licenseId === undefined ? {} : { shortId: extra.licenseId }),
        }),
      );
    }
  }
  return { entries: [...byIri.values()], byIri };
}

/** What `makeEntry` needs to describe one term. */
export interface EntryInput {
  readonly iri: string;
  readonly branch: VocabBranch;
  readonly label: string;
  readonly source: TermSource;
  readonly aliases: readonly string[];
  readonly definition?: string;
  readonly defaultMediaType?: string;
  readonly shortId?: string;
}

/** Builds a search entry, lower-casing its match strings once. */
export function makeEntry(input: EntryInput): VocabEntry {
  const shortId = input.shortId ?? input.iri.slice(input.iri.search(/[^/#]*$/));
  const names = [input.label.toLowerCase()];
  // A licence is as often asked for by its id (MIT, Apache-2.0) as by its name.
  if (input.branch === 'license' && input.shortId !== undefined) names.push(input.shortId.toLowerCase());
  return {
    iri: input.iri,
    branch: input.branch,
    label: input.label,
    shortId,
    source: input.source,
    names,
    synonyms: input.aliases.map((alias) => alias.toLowerCase()),
    ...(input.definition === undefined ? {} : { definition: input.definition }),
    ...(input.defaultMediaType === undefined ? {} : { defaultMediaType: input.defaultMediaType }),
  };
}

function readExtra(line: string, extras: Map<string, Extras>): void {
  const subjectEnd = line.indexOf('> <');
  if (!line.startsWith('<') || subjectEnd < 0) return;
  const predicateEnd = line.indexOf('> ', subjectEnd + 3);
  const predicate = line.slice(subjectEnd + 3, predicateEnd);
  if (predicateEnd < 0 || !EXTRA.has(predicate)) return;
  const subject = unescapeNTriples(line.slice(1, subjectEnd));
  const object = line.slice(predicateEnd + 2, line.length - 2);
  let extra = extras.get(subject);
  if (extra === undefined) extras.set(subject, (extra = { alt: [] }));
  if (predicate === P_BROADER) {
    if (object.startsWith('<')) extra.broader ??= object.slice(1, -1);
    return;
  }
  const close = object.lastIndexOf('"');
  const suffix = object.slice(close + 1);
  if (!object.startsWith('"') || close <= 0 || (suffix.startsWith('@') && suffix !== '@en')) return;
  const value = unescapeNTriples(object.slice(1, close));
  if (predicate === P_ALT) extra.alt.push(value);
  else if (predicate === P_DEFINITION) extra.definition ??= value;
  else if (predicate === P_LICENSE_ID) extra.licenseId = value;
  else extra.mediaType = value;
}
