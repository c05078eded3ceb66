/**
 * Capability matchmaking on a chosen basis: the declared matches, the observed ones, or both merged (a record
 * found both ways is listed once, with its declared capability and what its runs did), and, asked about one
 * artifact, its types as `consumes` with the deployments that already used it.
 */
import { BadRequestError } from '../errors.js';
import type { CapabilityMatches } from '../discovery/capabilities.js';
import type { Core } from '../core.js';
import {
  artifactUse,
  observedMatches,
  type BasisMatch,
  type BasisMatches,
  type MatchBasis,
} from './observed-matches.js';

/** The most matches returned, as for declared matchmaking. */
const LIMIT = 200;

/** How declared matches are found (the matchmaking of `src/core/discovery`). */
export type DeclaredMatcher = (produces: string[], consumes: string[]) => Promise<CapabilityMatches>;

/**
 * `GET /api/v1/capabilities?basis=observed|both` (or with `artifact`): matches on the basis asked, each saying
 * which basis found it. `artifact` (an id or IRI) adds its types to `consumes` and lists who already consumed it.
 */
export async function matchByBasis(
  core: Core,
  basis: MatchBasis,
  artifact: string | undefined,
  asked: { produces: string[]; consumes: string[] },
  declared: DeclaredMatcher,
): Promise<BasisMatches> {
  const use = artifact === undefined || artifact === '' ? undefined : await artifactUse(core, artifact);
  const produces = asked.produces;
  const consumes = [...new Set([...asked.consumes, ...(use?.types ?? [])])];
  if (produces.length === 0 && consumes.length === 0) {
    const message =
      use === undefined
        ? 'produces or consumes is required'
        : 'the artifact names no type (conforms_to): give produces or consumes';
    throw new BadRequestError(`give produces or consumes (or an artifact that has a type): ${message}`, {
      errors: [{ field: use === undefined ? 'produces' : 'artifact', message }],
    });
  }
  const byIri = new Map<string, BasisMatch>();
  let truncated = false;
  if (basis !== 'observed') {
    const found = await declared(produces, consumes);
    truncated ||= found.truncated;
    for (const item of found.items) byIri.set(item.iri, { ...item, basis: 'declared' });
  }
  if (basis !== 'declared') {
    const found = await observedMatches(core, produces, consumes);
    truncated ||= found.length > LIMIT;
    for (const item of found.slice(0, LIMIT)) {
      const held = byIri.get(item.iri);
      byIri.set(
        item.iri,
        held === undefined
          ? { ...item, basis: 'observed' }
          : { ...held, basis: 'both', observed: item.observed },
      );
    }
  }
  const items = [...byIri.values()].slice(0, LIMIT);
  return {
    basis,
    items,
    total: items.length,
    truncated: truncated || byIri.size > LIMIT,
    ...(use === undefined
      ? {}
      : { artifact: use.iri, artifact_types: use.types, consumed_by: use.consumers }),
  };
}
