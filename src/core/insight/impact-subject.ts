/**
 * What an impact question is about: the artifacts and releases `of` names, whether it names them by IRI, by
 * registry id, by a content identifier of their bytes or by a container image digest. What runs used and what
 * holds some content are read from the lineage index when it is complete, else from the query index.
 */
import { BadRequestError, NotFoundError } from '../errors.js';
import { PROV } from '../ns.js';
import { parseContentName } from '../records/content-id.js';
import { ARTIFACT } from '../records/activity-specs.js';
import { RELEASE } from '../records/specs.js';
import { iriProblem } from '../records/iri.js';
import { findByContent } from '../provenance/identify.js';
import { sparqlIri } from '../discovery/sparql-text.js';
import { requireReadable } from '../stored/records.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import type { Core } from '../core.js';
import { usedByARunInIndex } from './impact-index.js';

/** How `of` named what it is about. */
export type ImpactSubjectKind = 'artifact' | 'release' | 'content';

/** The artifacts and releases an impact question is about, each at most once, in IRI order. */
export interface ImpactSubject {
  readonly kind: ImpactSubjectKind;
  readonly artifacts: readonly string[];
  readonly releases: readonly string[];
}

const FORMS =
  'an artifact IRI or id, a release IRI or id, a content identifier (ni:///sha-256;…, sha256:<hex>, a bare hex digest) or a container image digest (sha256:<hex>)';

function refuse(of: string, why: string): never {
  const message = `of ${why}: give ${FORMS}`;
  throw new BadRequestError(message, { errors: [{ field: 'of', message }], extra: { of } });
}

/** Whether a record of `spec` at `iri` may be read here (this registry's own, or a peer's cached copy). */
async function readable(core: Core, spec: typeof ARTIFACT | typeof RELEASE, iri: string): Promise<boolean> {
  try {
    await requireReadable(core, spec, iri);
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

/** Whether a run this registry holds used `iri` (an artifact of another registry not yet fetched here). */
async function usedByARun(core: Core, iri: string): Promise<boolean> {
  if (lineageIndexReady(core.db)) return usedByARunInIndex(core, iri);
  const rows = await core.graph.select(
    `SELECT ?run WHERE { GRAPH ?g { ?run <${PROV('used')}> ${sparqlIri(iri, 'of')} } } LIMIT 1`,
  );
  return rows.length > 0;
}

/** The subject an IRI names: an artifact or a release held here, or an artifact a run used. */
async function byIri(core: Core, iri: string): Promise<ImpactSubject | undefined> {
  const base = core.config.baseIri;
  if (iri.startsWith(`${base}/release/`))
    return (await readable(core, RELEASE, iri))
      ? { kind: 'release', artifacts: [], releases: [iri] }
      : undefined;
  if (iri.startsWith(`${base}/`) && !iri.startsWith(`${base}/artifact/`))
    refuse(iri, 'names a record that is neither an artifact nor a release');
  if ((await readable(core, ARTIFACT, iri)) || (await usedByARun(core, iri)))
    return { kind: 'artifact', artifacts: [iri], releases: [] };
  if (!iri.startsWith(`${base}/`) && (await readable(core, RELEASE, iri)))
    return { kind: 'release', artifacts: [], releases: [iri] };
  return undefined;
}

/** The records holding the content a content name names: artifacts by their distributions, releases by image. */
async function byContent(core: Core, of: string): Promise<ImpactSubject | undefined> {
  const name = parseContentName(of);
  if (name === undefined) return undefined;
  const matches = await findByContent(core, name);
  const artifacts = matches.filter((m) => m.kind === 'distribution').map((m) => m.record);
  const releases = matches.filter((m) => m.kind === 'release').map((m) => m.record);
  return {
    kind: 'content',
    artifacts: [...new Set(artifacts)].sort(),
    releases: [...new Set(releases)].sort(),
  };
}

/**
 * Reads `of`: an IRI (an artifact or release here or cached from a peer, or an artifact of another registry that
 * a run here used), a registry id (an artifact's, else a release's), or a content name. Missing or in none of
 * these forms is a 400 naming `of`; a well-formed name that nothing here holds is a 404.
 */
export async function impactSubject(core: Core, of: string | undefined): Promise<ImpactSubject> {
  const given = (of ?? '').trim();
  if (given === '') refuse('', 'is required');
  if (/^https?:\/\//i.test(given)) {
    const problem = iriProblem(given);
    if (problem !== undefined) refuse(given, `is not a usable IRI: it ${problem}`);
    const found = await byIri(core, given);
    if (found === undefined) throw new NotFoundError(`nothing here is an artifact or release ${given}`);
    return found;
  }
  if (/^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/.test(given)) {
    for (const [kind, path] of [
      ['artifact', 'artifact'],
      ['release', 'release'],
    ] as const) {
      const iri = `${core.config.baseIri}/${path}/${given}`;
      if (await readable(core, kind === 'artifact' ? ARTIFACT : RELEASE, iri))
        return kind === 'artifact'
          ? { kind, artifacts: [iri], releases: [] }
          : { kind, artifacts: [], releases: [iri] };
    }
  }
  const content = await byContent(core, given);
  if (content === undefined) {
    if (/^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/.test(given))
      throw new NotFoundError(`no artifact or release has the id ${given}`);
    refuse(given, `${JSON.stringify(given)} is in none of the forms it takes`);
  }
  if (content.artifacts.length === 0 && content.releases.length === 0)
    throw new NotFoundError(`no artifact or release here holds the content ${given}`);
  return content;
}
