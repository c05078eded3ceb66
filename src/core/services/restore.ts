import { createHash } from 'node:crypto';
import fs from 'node:fs';
import N3 from 'n3';
import { BadRequestError, MalformedInputError } from '../errors.js';
import { GRAPHS, RDF } from '../ns.js';
import { kindOfTypes } from '../records/kinds.js';
import { appendAudit } from '../store/audit.js';
import { mergeRecord, RestoreStage } from '../store/graph/restore-stage.js';
import { factory, ownerOf, quadToLine, type Quad } from '../store/nquads.js';
import { parseCatalogue } from '../vocab/catalogue.js';
import type { Core } from '../core.js';

/** What a restore did. */
export interface RestoreResult {
  /** Quads read from the input. */
  readonly read: number;
  /** Quads that were not in the store before. */
  readonly new: number;
  /** Quads of reference bundle graphs, skipped because the package reloads them at every start. */
  readonly reference: number;
  /** Records created or extended. */
  readonly records: number;
}

const PROGRESS_EVERY = 50_000;
const RDF_TYPE = RDF('type');

/**
 * Loads an N-Quads file into a stopped registry. The whole input is parsed and staged inside one transaction:
 * a malformed line aborts with its line number and nothing is written. Blank nodes are replaced by IRIs under
 * the record that refers to them (records never share blank nodes), and reference bundle graphs are skipped.
 */
export async function restoreNQuads(
  core: Core,
  file: string,
  onProgress: (read: number) => void = () => undefined,
): Promise<RestoreResult> {
  if (!fs.existsSync(file)) throw new BadRequestError(`cannot read ${file}: no such file`);
  const bundleGraphs = new Map(core.reference.bundles.map((bundle) => [bundle.graph, bundle]));
  const now = new Date().toISOString();
  let read = 0;
  let reference = 0;
  const blankQuads: Quad[] = [];
  const stage = new RestoreStage(core.db);
  core.db.exec('BEGIN');
  try {
    for await (const quad of parseFile(file)) {
      read++;
      if (read % PROGRESS_EVERY === 0) onProgress(read);
      if (bundleGraphs.has(quad.graph.value)) {
        reference++;
      } else if (hasBlankNode(quad)) {
        blankQuads.push(quad);
      } else {
        stage.add(quad.graph.value, ownerOf(quad.subject.value), quadToLine(quad));
      }
    }
    for (const quad of skolemise(blankQuads, core.config.baseIri)) {
      stage.add(quad.graph.value, ownerOf(quad.subject.value), quadToLine(quad));
    }
    let fresh = 0;
    let records = 0;
    for (const group of stage.groups()) {
      const isCatalogue = group.graph === GRAPHS.catalogue;
      if (isCatalogue && !catalogueMatches(group.owner, group.lines, bundleGraphs.get(group.owner)?.digest))
        continue;
      const added = mergeRecord(
        core.db,
        {
          graph: group.graph,
          subject: group.owner,
          lines: group.lines,
          kind: kindOfLines(group.owner, group.lines),
          replace: isCatalogue,
        },
        now,
      );
      fresh += added;
      if (added > 0) records++;
    }
    stage.clear();
    appendAudit(core.db, {
      actor: null,
      actorKind: 'system',
      action: 'restore',
      target: null,
      detail: `${fresh} new of ${read} quads from ${file}`,
      at: now,
    });
    core.db.exec('COMMIT');
    onProgress(read);
    return { read, new: fresh, reference, records };
  } catch (error) {
    core.db.exec('ROLLBACK');
    throw error;
  }
}

async function* parseFile(file: string): AsyncGenerator<Quad> {
  const parser = new N3.StreamParser({ format: 'N-Quads', blankNodePrefix: '' });
  const input = fs.createReadStream(file, { encoding: 'utf8' });
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  try {
    for await (const quad of parser as AsyncIterable<Quad>) yield quad;
  } catch (error) {
    const line = (error as { context?: { line?: number } }).context?.line;
    const message = (error as Error).message.replace(/ on line \d+\.?$/, '');
    throw new MalformedInputError(
      `${file}${line === undefined ? '' : `:${line}`}: ${message}; nothing was restored`,
    );
  }
}

function hasBlankNode(quad: Quad): boolean {
  return [quad.subject, quad.object, quad.graph].some((term) => term.termType === 'BlankNode');
}

/** Replaces blank nodes by IRIs: a fragment of the record that refers to them, else a well-known genid IRI. */
function skolemise(quads: readonly Quad[], baseIri: string): Quad[] {
  const referrer = new Map<string, string>();
  for (const quad of quads) {
    if (quad.object.termType === 'BlankNode' && quad.subject.termType !== 'BlankNode') {
      referrer.set(quad.object.value, ownerOf(quad.subject.value));
    }
  }
  const named = new Map<string, string>();
  const nameOf = (label: string): string => {
    let iri = named.get(label);
    if (iri === undefined) {
      const hash = createHash('sha256').update(label).digest('hex').slice(0, 16);
      const owner = referrer.get(label);
      iri = owner === undefined ? `${baseIri}/.well-known/genid/${hash}` : `${owner}#genid-${hash}`;
      named.set(label, iri);
    }
    return iri;
  };
  const term = <T extends Quad['subject'] | Quad['object'] | Quad['graph']>(value: T): T =>
    (value.termType === 'BlankNode' ? factory.namedNode(nameOf(value.value)) : value) as T;
  return quads.map((quad) =>
    factory.quad(term(quad.subject), quad.predicate, term(quad.object), term(quad.graph)),
  );
}

function catalogueMatches(graph: string, lines: readonly string[], digest: string | undefined): boolean {
  return digest !== undefined && parseCatalogue(`${lines.join('\n')}\n`).get(graph)?.digest === digest;
}

function kindOfLines(owner: string, lines: readonly string[]): string | null {
  const prefix = `<${owner}> <${RDF_TYPE}> <`;
  const types = lines
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length, line.indexOf('>', prefix.length)));
  return kindOfTypes(types);
}
