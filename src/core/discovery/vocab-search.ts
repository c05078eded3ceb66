/**
 * Vocabulary look-up for pickers and clients: search over the terms a write may cite (bundled, minted and
 * adopted here), resolution of IRIs to labels, and the keyword list. Results never name a vocabulary; `source`
 * says only whether a term is bundled, minted here (`local`) or someone else's (`external`).
 */
import { BadRequestError } from '../errors.js';
import { DCT, GRAPHS, PEER_GRAPH_PREFIX, RDFS, REG, SKOS } from '../ns.js';

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
import type { Binding } from '../store/graph/types.js';
import type { Core } from '../core.js';
import { selectByKey } from '../stored/keyset.js';
import { describeTerm, type TypeRef } from './terms.js';

// Bundles are canonical N-Triples (./ntriples.ts): `<s> <p> object .`, one per line.

/**
 * The live terms of the given classes in `graph` (an IRI, or `?g` narrowed by `filter`) with the values search
 * reads, a page of terms per query: a solution per value, or one without `?p` for a term that has none.
 */
function describedTerms(
  core: Core,
  graph: string,
  classes: readonly string[],
  filter: string,
): Promise<Binding[]> {
  const values = `VALUES ?c { ${classes.map((cls) => `<${cls}>`).join(' ')} }`;
  const live = `FILTER NOT EXISTS { ?s <${REG('tombstoned')}> true }`;
  const described = `VALUES ?p { <${SKOS('prefLabel')}> <${RDFS('label')}> <${P_ALT}> <${P_DEFINITION}> <${P_MEDIA_TYPE}> }`;
  return selectByKey(
    core,
    's',
    ({ after, order }) =>
      `SELECT ?s ?c ?p ?o WHERE {
         { SELECT DISTINCT ?s WHERE { GRAPH ${graph} { ${values} ?s a ?c . ${live} } ${filter} ${after} } ${order} }
         GRAPH ${graph} { ${values} ?s a ?c . ${live} OPTIONAL { ${described} ?s ?p ?o } } ${filter} }`,
    // Aliases make several solutions per term: fewer terms per page keep an answer small.
    { rows: 200 },
  );
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
  const rows = await describedTerms(
    core,
    `<${GRAPHS.local}>`,
    [REG('ArtifactType'), DCT('LicenseDocument')],
    '',
  );
  const peerRows = await describedTerms(
    core,
    '?g',
    [REG('ArtifactType')],
    `FILTER(STRSTARTS(STR(?g), "${PEER_GRAPH_PREFIX}"))`,
  );
  const drafts = new Map<string, { cls: string; values: Map<string, string[]> }>();
  const held = new Set(rows.filter((row) => row.p !== undefined).map((row) => row.s?.value));
  // This registry's own copy of a term wins over a peer's.
  for (const row of [...rows, ...peerRows.filter((peerRow) => !held.has(peerRow.s?.value))]) {
    const [s, c, p, o] = [row.s?.value, row.c?.value, row.p?.value, row.o?.value];
    if (s === undefined || c === undefined || p === undefined || o === undefined) continue;
    let draft = drafts.get(s);
    if (draft === undefined) drafts.set(s, (draft = { cls: c, values: new Map() }));
    draft.values.set(p, [...(draft.values.get(p) ?? []), o]);
  }
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
