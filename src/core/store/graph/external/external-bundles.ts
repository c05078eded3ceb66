/**
 * Reference bundles in the external store. Each bundle graph is written only when its digest differs from the
 * one the catalogue graph records, so a warm start writes nothing; the catalogue entry itself is then recorded
 * through the write path (`syncBundleCatalogue`), after the bundle is in place, so an interrupted load is simply
 * done again at the next start.
 */
import { GRAPHS } from '../../../ns.js';
import type { Logger } from '../../../log.js';
import { parseCatalogue } from '../../../vocab/catalogue.js';
import { appendAudit } from '../../audit.js';
import type { Database } from '../../database.js';
import { ownerOf } from '../../nquads.js';
import { deleteExternalRecord, readExternalRecord, writeExternalRecord } from './external-table.js';
import { postBodies } from './external-commit.js';
import { iriRef } from './external-read.js';
import type { SparqlClient } from './sparql-client.js';
import { normaliseTerm } from '../sparql-terms.js';
import { dataOperations, lineOfSolution, pairRewrites } from '../sparql-terms.js';
import type { BundleGraph } from '../types.js';

/** A bundle as the external store needs it: its graph, its N-Triples, its source file and its digest. */
export interface DigestedBundle extends BundleGraph {
  readonly name: string;
  readonly source: string;
  readonly digest: string;
}

/** Lines per request of a bundle load: larger INSERT DATA operations are slower per line, or refused. */
const LOAD_LINES = 500;

/**
 * Compares the catalogue on the server with the package's bundles: a bundle whose digest matches is left alone
 * (and its catalogue entry taken into the subject table if this data directory did not know it yet); any other is
 * dropped and written again, and its old catalogue entry removed. Returns the names of the bundles written.
 */
export async function syncExternalBundles(
  client: SparqlClient,
  db: Database,
  bundles: readonly DigestedBundle[],
  log: Logger,
): Promise<string[]> {
  const catalogue = GRAPHS.catalogue;
  const rows = await client.selectRaw(`SELECT ?s ?p ?o WHERE { GRAPH ${iriRef(catalogue)} { ?s ?p ?o } }`);
  const byOwner = new Map<string, { server: string[]; written: string[]; subjects: Set<string> }>();
  for (const { s, p, o } of rows) {
    if (s === undefined || p === undefined || o === undefined) continue;
    const owner = ownerOf(s.value);
    let entry = byOwner.get(owner);
    if (entry === undefined) byOwner.set(owner, (entry = { server: [], written: [], subjects: new Set() }));
    entry.server.push(lineOfSolution(s, p, o, catalogue));
    // The registry writes load times with milliseconds; a server may have kept another lexical form.
    entry.written.push(lineOfSolution(s, p, normaliseTerm(o), catalogue));
    entry.subjects.add(s.value);
  }
  const entries = parseCatalogue(
    [...byOwner.values()].flatMap((entry) => entry.written.map((line) => `${line}\n`)).join(''),
  );
  const written: string[] = [];
  for (const bundle of bundles) {
    const held = byOwner.get(bundle.graph);
    if (held !== undefined && entries.get(bundle.graph)?.digest === bundle.digest) {
      if (readExternalRecord(db, catalogue, bundle.graph) === undefined) {
        // A new data directory on a server that holds the bundle already: its catalogue entry is taken into the
        // subject table, and the audit log says when this registry took the bundle into use.
        const { pairs } = pairRewrites(new Set(held.written), new Set(held.server));
        db.transaction(() => {
          appendAudit(db, {
            actor: null,
            actorKind: 'system',
            action: 'bundle.load',
            target: bundle.graph,
            detail: `${bundle.source}: ${bundle.tripleCount} triples, sha256 ${bundle.digest}, already in the external graph store`,
          });
          writeExternalRecord(db, {
            graph: catalogue,
            subject: bundle.graph,
            kind: 'bundle',
            quadCount: new Set(held.written).size,
            subjects: [...held.subjects].sort(),
            sharedLines: [],
            rewrites: pairs,
            unverified: [],
          });
        });
      }
      continue;
    }
    const started = Date.now();
    await loadBundle(client, bundle, held?.server ?? []);
    db.transaction(() => deleteExternalRecord(db, catalogue, bundle.graph));
    log.info('reference bundle written to the external graph store', {
      bundle: bundle.name,
      graph: bundle.graph,
      triples: bundle.tripleCount,
      ms: Date.now() - started,
    });
    written.push(bundle.name);
  }
  return written;
}

/** Drops a bundle graph (and its stale catalogue entry) and writes the bundle, a few hundred lines per request. */
async function loadBundle(
  client: SparqlClient,
  bundle: BundleGraph,
  staleEntry: readonly string[],
): Promise<void> {
  const drop = [`DROP SILENT GRAPH ${iriRef(bundle.graph)}`];
  if (staleEntry.length > 0)
    drop.push(...dataOperations('DELETE DATA', new Map([[GRAPHS.catalogue, staleEntry]])));
  await client.update(drop.join(' ;\n'));
  const plain: string[] = [];
  const blank: string[] = [];
  for (const line of bundle.ntriples.split('\n')) {
    if (line === '') continue;
    (hasBlankNode(line) ? blank : plain).push(line);
  }
  if (client.postsGraphs) {
    // A Graph Store Protocol POST: one or two requests for a bundle instead of one per 500 lines.
    for (const body of postBodies(plain)) await client.postGraph(bundle.graph, body);
  } else {
    for (let start = 0; start < plain.length; start += LOAD_LINES) {
      const triples = plain.slice(start, start + LOAD_LINES).join('\n');
      await client.update(`INSERT DATA { GRAPH ${iriRef(bundle.graph)} {\n${triples}\n} }`);
    }
  }
  // INSERT DATA may not carry blank nodes on every server (Virtuoso refuses them), and blank nodes are scoped to
  // one operation: each group of lines that shares blank nodes goes whole into one INSERT … WHERE {}.
  for (const group of packGroups(blankNodeGroups(blank), LOAD_LINES)) {
    await client.update(`INSERT { GRAPH ${iriRef(bundle.graph)} {\n${group.join('\n')}\n} } WHERE {}`);
  }
}

function hasBlankNode(line: string): boolean {
  return line.startsWith('_:') || / _:[^\s]+ \.$/.test(line);
}

function blankLabels(line: string): string[] {
  const labels: string[] = [];
  if (line.startsWith('_:')) labels.push(line.slice(0, line.indexOf(' ')));
  const object = / (_:[^\s]+) \.$/.exec(line)?.[1];
  if (object !== undefined) labels.push(object);
  return labels;
}

/** Lines grouped so that lines sharing a blank node (directly or through others) are in one group. */
function blankNodeGroups(lines: readonly string[]): string[][] {
  const parent = new Map<string, string>();
  const find = (label: string): string => {
    let root = label;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root)!;
    parent.set(label, root);
    return root;
  };
  for (const line of lines) {
    const [first, ...rest] = blankLabels(line).map(find);
    if (first === undefined) continue;
    parent.set(first, parent.get(first) ?? first);
    for (const other of rest) parent.set(other, first);
  }
  const groups = new Map<string, string[]>();
  for (const line of lines) {
    const label = blankLabels(line)[0];
    const root = label === undefined ? line : find(label);
    groups.set(root, [...(groups.get(root) ?? []), line]);
  }
  return [...groups.values()];
}

/** Packs whole groups into batches of at most `size` lines (a larger group goes alone). */
function packGroups(groups: readonly string[][], size: number): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  for (const group of groups) {
    if (batch.length > 0 && batch.length + group.length > size) {
      batches.push(batch);
      batch = [];
    }
    batch.push(...group);
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
