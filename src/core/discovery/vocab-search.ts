/**
 * Vocabulary look-up for pickers and clients: search over the terms a write may cite (bundled, minted and
 * adopted here), resolution of IRIs to labels, and the keyword list. Results never name a vocabulary; `source`
 * says only whether a term is bundled, minted here (`local`) or someone else's (`external`).
 */
import { BadRequestError } from '../errors.js';
import { DCT, GRAPHS, RDF, RDFS, REG, SKOS } from '../ns.js';

export { VOCAB_BRANCHES, makeEntry, type VocabBranch, type VocabEntry, type VocabHit };

const P_ALT = SKOS('altLabel');
const P_DEFINITION = SKOS('definition');
const P_MEDIA_TYPE = REG('defaultMediaType');
import { isAbsoluteIri } from '../records/mapper.js';
import { ARTIFACT_KEYWORDS, keywordIri, keywordSchemeIri } from '../vocab/keywords.js';
import {
  makeEntry,
  OFFERED,
  VOCAB_BRANCHES,
  type VocabBranch,
  type VocabEntry,
  type VocabHit,
} from '../vocab/term-catalogue.js';
import { kindPage } from '../store/graph/kind-pages.js';
import { indexQuads } from '../records/mapper.js';
import { parseNQuads } from '../store/nquads.js';
import type { Core } from '../core.js';
import { describeTerm, type TypeRef } from './terms.js';

// Bundles are canonical N-Triples (./ntriples.ts): `<s> <p> object .`, one per line.

/** What search reads of a term: its labels, aliases, definition and default media type. */
const DESCRIBED = [SKOS('prefLabel'), RDFS('label'), P_ALT, P_DEFINITION, P_MEDIA_TYPE];

/**
 * The live terms of this registry's graph (minted and adopted artifact types, adopted licences; `local`) or of
 * peers' caches (artifact types), each with its class and the values search reads, in subject order: listed from
 * the table of records by kind and read as records, so they are answered before the query index has loaded. A
 * term of the local graph with none of the values is left out (a peer's copy of it may then describe it).
 */
async function termRecords(
  core: Core,
  local: boolean,
): Promise<[string, { cls: string; values: Map<string, string[]> }][]> {
  const kinds = local ? ['type', 'license'] : ['type'];
  const rows = kindPage(core.db, core.graph.recordTables, {
    kinds,
    graph: local ? GRAPHS.local : undefined,
    limit: Number.MAX_SAFE_INTEGER,
  }).filter((row) => local || row.graph !== GRAPHS.local);
  const byGraph = new Map<string, string[]>();
  for (const row of rows) byGraph.set(row.graph, [...(byGraph.get(row.graph) ?? []), row.subject]);
  const out: [string, { cls: string; values: Map<string, string[]> }][] = [];
  for (const [graph, subjects] of byGraph) {
    const texts = await core.graph.readRecords(graph, subjects);
    for (const subject of subjects) {
      const text = texts.get(subject);
      const byPredicate = text === undefined ? undefined : indexQuads(parseNQuads(text)).get(subject);
      if (byPredicate === undefined) continue;
      const types = (byPredicate.get(RDF('type')) ?? []).map((term) => term.value);
      const cls = types.includes(REG('ArtifactType')) ? REG('ArtifactType') : DCT('LicenseDocument');
      const values = new Map<string, string[]>();
      for (const predicate of DESCRIBED) {
        const held = (byPredicate.get(predicate) ?? []).map((term) => term.value);
        if (held.length > 0) values.set(predicate, held);
      }
      if (values.size > 0) out.push([subject, { cls, values }]);
    }
  }
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The terms held in the local graph that search offers: minted and adopted artifact types (branch `data`) and
 * adopted licences (branch `license`), and the artifact types cached from peers (which a write may cite too).
 * Read a page of terms per query and cached until the next write.
 */
export async function localEntries(core: Core): Promise<readonly VocabEntry[]> {
  const cached = core.memo.get<VocabEntry[]>('vocab local-entries', core.graph.generation);
  if (cached !== undefined) return cached;
  const generation = core.graph.generation;
  const drafts = new Map<string, { cls: string; values: Map<string, string[]> }>();
  // This registry's own copy of a term wins over a peer's.
  for (const [s, draft] of [...(await termRecords(core, true)), ...(await termRecords(core, false))])
    if (!drafts.has(s)) drafts.set(s, draft);
  const bundled = core.reference.catalogue.byIri;
  const entries: VocabEntry[] = [];
  for (const [iri, { cls, values }] of drafts) {
    const label = values.get(SKOS('prefLabel'))?.[0] ?? values.get(RDFS('label'))?.[0];
    if (label === undefined || bundled.has(iri)) continue;
    const isType = cls === REG('ArtifactType');
    const minted = `${core.config.baseIri}/${isType ? 'type/' : ''}`;
    const definition = values.get(P_DEFINITION)?.[0];
    const mediaType = values.get(P_MEDIA_TYPE)?.[0];
    entries.push(
      makeEntry({
        iri,
        branch: isType ? 'data' : 'license',
        label,
        source: iri.startsWith(minted) ? 'local' : 'external',
        aliases: values.get(P_ALT) ?? [],
        ...(definition === undefined ? {} : { definition }),
        ...(mediaType === undefined ? {} : { defaultMediaType: mediaType }),
      }),
    );
  }
  core.memo.set('vocab local-entries', generation, entries);
  return entries;
}

/** Scores one entry against a lower-cased query: 1.0 exact, 0.8 prefix, 0.6 substring, 0.3 synonym, else 0. */
export function scoreEntry(entry: VocabEntry, q: string): number {
  let best = 0;
  for (const name of entry.names) {
    if (name === q) return 1;
    if (name.startsWith(q)) best = 0.8;
    else if (best === 0 && name.includes(q)) best = 0.6;
  }
  if (best > 0) return best;
  return entry.synonyms.some((synonym) => synonym.includes(q)) ? 0.3 : 0;
}

/** Matches entries against `q` and orders them by score, then shorter label, then label and IRI. */
export function rankEntries(
  entries: Iterable<VocabEntry>,
  q: string,
): { entry: VocabEntry; score: number }[] {
  const needle = q.trim().toLowerCase();
  const hits: { entry: VocabEntry; score: number }[] = [];
  for (const entry of entries) {
    const score = scoreEntry(entry, needle);
    if (score > 0) hits.push({ entry, score });
  }
  return hits.sort(
    (a, b) =>
      b.score - a.score ||
      a.entry.label.length - b.entry.label.length ||
      compare(a.entry.label, b.entry.label) ||
      compare(a.entry.iri, b.entry.iri),
  );
}

/** Every entry of the given branches: bundled first, then the local graph's. */
export async function entriesOf(core: Core, branches: readonly VocabBranch[]): Promise<VocabEntry[]> {
  const wanted = new Set(branches);
  const local = branches.some((b) => b === 'data' || b === 'license') ? await localEntries(core) : [];
  return [...core.reference.catalogue.entries, ...local].filter((entry) => wanted.has(entry.branch));
}

/** Parses a `limit` query parameter, clamped to 1–`max`; anything but a number is a 400. */
export function parseLimit(raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new BadRequestError(`limit must be a number, got "${raw}"`);
  return Math.min(max, Math.max(1, Math.trunc(value)));
}

/** Query parameters of `GET /api/v1/vocab/search`. */
export type VocabSearchParams = Partial<Record<'q' | 'branch' | 'limit', string>>;

/**
 * Searches the terms a write may cite: case-insensitive substring over labels and alternative labels, queries
 * under two characters find nothing, an unknown branch finds nothing, no branch searches every offered one.
 */
export async function searchVocabulary(
  core: Core,
  params: VocabSearchParams,
): Promise<{ items: VocabHit[]; total: number }> {
  const limit = parseLimit(params.limit, 20, 100);
  const q = (params.q ?? '').trim();
  const branch = params.branch?.trim() ?? '';
  const branches = branch === '' ? OFFERED : VOCAB_BRANCHES.filter((candidate) => candidate === branch);
  if (q.length < 2 || branches.length === 0) return { items: [], total: 0 };
  const ranked = rankEntries(await entriesOf(core, branches), q);
  const items = ranked.slice(0, limit).map(({ entry, score }) => ({
    iri: entry.iri,
    label: entry.label,
    ...(entry.definition === undefined ? {} : { definition: entry.definition }),
    source: entry.source,
    branch: entry.branch,
    score,
  }));
  return { items, total: ranked.length };
}

/** Most IRIs one `resolve` call describes. */
export const RESOLVE_MAX = 100;

/** Describes up to 100 comma-separated IRIs, in the order given, with label, definition and source. */
export async function resolveTerms(core: Core, iris: string | undefined): Promise<TypeRef[]> {
  const list = [...new Set((iris ?? '').split(',').map((iri) => iri.trim()))].filter((iri) => iri !== '');
  if (list.length > RESOLVE_MAX)
    throw new BadRequestError(`iris takes at most ${RESOLVE_MAX} IRIs, got ${list.length}`);
  const bad = list.find((iri) => !isAbsoluteIri(iri));
  if (bad !== undefined)
    throw new BadRequestError(`iris must be absolute IRIs separated by commas, got "${bad}"`);
  const bundled = core.reference.catalogue.byIri;
  return Promise.all(
    list.map(async (iri) => {
      const entry = bundled.get(iri);
      if (entry === undefined) return describeTerm(core, iri);
      return {
        iri,
        label: entry.label,
        ...(entry.definition === undefined ? {} : { definition: entry.definition }),
        source: entry.source,
      };
    }),
  );
}

/** The artifact keyword list with its concept IRIs, as `GET /api/v1/keywords` returns it. */
export function listKeywords(core: Core): {
  scheme: string;
  items: { iri: string; slug: string; label: string; definition: string; aliases: string[] }[];
  total: number;
  note: string;
} {
  const base = core.config.baseIri;
  const items = ARTIFACT_KEYWORDS.map((entry) => ({
    iri: keywordIri(base, entry.slug),
    slug: entry.slug,
    label: entry.label,
    definition: entry.definition,
    aliases: [...entry.aliases],
  }));
  return {
    scheme: keywordSchemeIri(base),
    items,
    total: items.length,
    note:
      'An artifact keyword that matches an entry by label, slug or alias (ignoring case, spaces and punctuation) ' +
      'is stored as the entry label and linked to its concept; any other keyword is kept as sent.',
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
