import { GRAPHS } from '../ns.js';
import { createValidator, type RecordValidator } from '../validate/index.js';
import { ValidatorPool } from '../validate/validator-pool.js';
import { appendAudit } from '../store/audit.js';
import { parseNQuads, toNQuads } from '../store/nquads.js';
import type { RecordWrite } from '../store/graph/types.js';
import { buildBundles, type Bundle } from '../vocab/bundles.js';
import { catalogueNTriples, parseCatalogue } from '../vocab/catalogue.js';
import { ReferenceIndex } from '../vocab/reference-index.js';
import { buildTermCatalogue, type BundledCatalogue } from '../vocab/term-catalogue.js';
import type { Core } from '../core.js';
import {
  findStrandedCitations,
  type StrandedCitation,
  type StrandedReason,
} from '../vocab/stranded-terms.js';
import { commitAct } from '../stored/write-path.js';

/** The reference bundles of this package under one base IRI, the index of their terms and the shapes validator. */
export interface ReferenceData {
  readonly bundles: readonly Bundle[];
  readonly index: ReferenceIndex;
  /** The SHACL validator, compiled once from the shapes bundle on first use. */
  readonly validator: RecordValidator;
  /** The searchable catalogue of bundled terms, built on first use. */
  readonly catalogue: BundledCatalogue;
  /** What the start-up check of cited terms found (`reportRetiredCitations`); undefined until it has run. */
  stranded: StrandedTally | undefined;
  /** Stops validation workers, if any were started. */
  close(): Promise<void>;
}

/** How many local records cite terms an edit would refuse, as the start-up check counted them. */
export interface StrandedTally {
  readonly records: number;
  /** Pairs of record and term. */
  readonly citations: number;
  readonly checkedAt: string;
}

/**
 * Builds the bundles; their term index is built on first use, off the start-up path. With `validationWorkers`,
 * SHACL validation runs in that many worker threads instead of on the calling thread.
 */
export function prepareReferenceData(baseIri: string, validationWorkers = 0): ReferenceData {
  const bundles = buildBundles(baseIri);
  let index: ReferenceIndex | undefined;
  let validator: RecordValidator | undefined;
  let pool: ValidatorPool | undefined;
  let catalogue: BundledCatalogue | undefined;
  return {
    bundles,
    get index() {
      return (index ??= ReferenceIndex.fromBundles(bundles));
    },
    get validator() {
      const shapes = bundles.find((bundle) => bundle.graph === GRAPHS.shapes);
      if (shapes === undefined) throw new Error('the shapes bundle is missing');
      if (validator === undefined) {
        if (validationWorkers > 0) validator = pool = new ValidatorPool(shapes.ntriples, validationWorkers);
        else validator = createValidator(shapes.ntriples);
      }
      return validator;
    },
    get catalogue() {
      return (catalogue ??= buildTermCatalogue(bundles, this.index));
    },
    stranded: undefined,
    close: async () => {
      await pool?.close();
    },
  };
}

/**
 * Brings the bundle catalogue up to date: a bundle whose digest (over base IRI and content) differs from the
 * catalogued one is recorded as loaded now. When every digest matches nothing is written.
 */
export async function syncBundleCatalogue(core: Core): Promise<string[]> {
  const changed: Bundle[] = [];
  for (const bundle of core.reference.bundles) {
    const stored = await core.graph.readRecord(GRAPHS.catalogue, bundle.graph);
    if (stored === undefined || parseCatalogue(stored).get(bundle.graph)?.digest !== bundle.digest)
      changed.push(bundle);
  }
  if (changed.length === 0) return [];
  const loadedAt = new Date().toISOString();
  const writes: RecordWrite[] = changed.map((bundle) => ({
    graph: GRAPHS.catalogue,
    subject: bundle.graph,
    quads: parseNQuads(toNQuads(catalogueNTriples(bundle, loadedAt), GRAPHS.catalogue)),
    kind: 'bundle',
  }));
  await commitAct(core, writes, () => {
    for (const bundle of changed) {
      appendAudit(core.db, {
        actor: null,
        actorKind: 'system',
        action: 'bundle.load',
        target: bundle.graph,
        detail: `${bundle.source}: ${bundle.tripleCount} triples, sha256 ${bundle.digest}`,
        at: loadedAt,
      });
    }
  });
  for (const bundle of changed) {
    core.log.info('reference bundle loaded', {
      bundle: bundle.name,
      graph: bundle.graph,
      triples: bundle.tripleCount,
    });
  }
  return changed.map((bundle) => bundle.name);
}

/** How the start-up log says why a record's term no longer counts as held. */
const STRANDED_MESSAGES: Readonly<Record<StrandedReason, string>> = {
  retired: 'record cites a retired vocabulary term',
  unknown: 'record cites a vocabulary term the registry does not hold',
  'wrong-class': 'record cites a term of a class its field does not accept',
};

/**
 * Names, once each, every pair of local record and cited vocabulary term that an edit of the record would refuse
 * (a retired term, one no longer held anywhere, or one of a class the field does not accept), and keeps the tally
 * for status reports. Nothing is changed: such a record stays readable and is refused on its next edit until the
 * term is replaced or cleared. Returns the terms by record; a failed check is logged, not thrown.
 */
export async function reportRetiredCitations(core: Core): Promise<Map<string, string[]>> {
  const byRecord = new Map<string, string[]>();
  let found: StrandedCitation[];
  try {
    found = await findStrandedCitations(core);
  } catch (error) {
    core.log.warn('the start-up check of cited vocabulary terms failed', {
      detail: (error as Error).message,
    });
    return byRecord;
  }
  for (const citation of found) {
    byRecord.set(citation.record, [...(byRecord.get(citation.record) ?? []), citation.term]);
    core.log.warn(
      `${STRANDED_MESSAGES[citation.reason]}; the record is refused on its next edit until the term is replaced or cleared`,
      {
        record: citation.record,
        field: citation.fields.join(', '),
        term: citation.term,
        ...(citation.replacedBy.length > 0 ? { replaced_by: citation.replacedBy } : {}),
      },
    );
  }
  core.reference.stranded = {
    records: byRecord.size,
    citations: found.length,
    checkedAt: new Date().toISOString(),
  };
  return byRecord;
}

/**
 * Warns when the registry's own graph holds records minted under another base IRI, as after restoring a dump
 * taken under a different public URL: identifiers are never rewritten, so those records keep their old IRIs.
 */
export function reportForeignBase(core: Core): number {
  const { count, example } = core.graph.recordsOutside(GRAPHS.local, `${core.config.baseIri}/`);
  if (count > 0) {
    core.log.warn(
      'records in the local graph were minted under another base IRI; their identifiers are kept as they are',
      {
        base_iri: core.config.baseIri,
        records: count,
        example,
      },
    );
  }
  return count;
}
