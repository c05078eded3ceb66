/**
 * Records and dumps the graph store tests start from: a software record written straight to the store, and a dump
 * holding records that today's shapes or vocabulary would refuse, with the report a restore of it must give.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { ROOT_PRINCIPAL } from '../../src/core/access/principal.js';
import { createSoftware, getSoftware } from '../../src/core/catalogue/software.js';
import type { Core } from '../../src/core/core.js';
import { DCT, GRAPHS, SCHEMA } from '../../src/core/ns.js';
import type { RestoreResult } from '../../src/core/ops/restore.js';
import type { RecordWrite } from '../../src/core/store/graph/types.js';
import { factory } from '../../src/core/store/nquads.js';
import { actOf } from '../../src/core/stored/write-path.js';
import { openTestCore, tempDir } from '../helpers.js';

const { namedNode, literal, quad } = factory;

/** A write of a software record of the local graph that holds its name only. */
export function nameOnlyWrite(subject: string, name: string): RecordWrite {
  return {
    graph: GRAPHS.local,
    subject,
    kind: 'software',
    quads: [quad(namedNode(subject), namedNode(SCHEMA('name')), literal(name), namedNode(GRAPHS.local))],
  };
}

/** A topic no bundle holds. */
export const GONE_TOPIC = 'http://example.org/vocab/topic-dropped-by-a-vocabulary-change';

/** A dump file and the software records in it: one fine, one without its name, one citing `GONE_TOPIC`. */
export interface StrandedDump {
  readonly file: string;
  readonly fine: Record<string, unknown>;
  readonly nameless: Record<string, unknown>;
  readonly citing: Record<string, unknown>;
}

/**
 * Writes the dump of an embedded registry of three software, as a dump taken under older shapes or vocabulary
 * would hold them: one without the name today's shapes require, one citing a topic no bundle holds any more (its
 * line last, apart from the rest of the record, so that a restore merges it into the record again).
 */
export async function writeStrandedDump(): Promise<StrandedDump> {
  const source = await openTestCore({}, true);
  const act = actOf(ROOT_PRINCIPAL);
  const fine = await createSoftware(source, act, { name: 'fine' });
  const nameless = await createSoftware(source, act, { name: 'loses its name' });
  const citing = await createSoftware(source, act, { name: 'cites a dropped topic' });
  const chunks: string[] = [];
  for await (const chunk of source.graph.dump()) chunks.push(chunk);
  await source.close();
  const lines = chunks
    .join('')
    .split('\n')
    .filter((line) => !line.startsWith(`<${nameless.iri as string}> <${SCHEMA('name')}>`));
  lines.push(`<${citing.iri as string}> <${DCT('subject')}> <${GONE_TOPIC}> <${GRAPHS.local}> .`);
  const file = path.join(tempDir(), 'dump.nq');
  fs.writeFileSync(file, `${lines.filter((line) => line !== '').join('\n')}\n`);
  return { file, fine, nameless, citing };
}

/** Expects the report and the records of `target` a restore of the stranded dump gives. */
export async function expectStrandedRestore(
  target: Core,
  dump: StrandedDump,
  result: RestoreResult,
): Promise<void> {
  const { fine, nameless, citing } = dump;
  expect(result.stranded.checked).toBeGreaterThanOrEqual(3);
  expect(result.stranded.records).toBe(2);
  const named = new Map(result.stranded.examples.map((entry) => [entry.record, entry.problems]));
  expect(named.get(nameless.iri as string)).toEqual(
    expect.arrayContaining([expect.objectContaining({ field: 'name' })]),
  );
  expect(named.get(citing.iri as string)).toEqual([
    expect.objectContaining({ field: 'topics', message: expect.stringContaining(GONE_TOPIC) }),
  ]);
  expect(named.has(fine.iri as string)).toBe(false);
  // Kept and readable, as restored.
  expect((await getSoftware(target, citing.id as string)).topics).toEqual(
    expect.arrayContaining([expect.objectContaining({ iri: GONE_TOPIC })]),
  );
  expect((await getSoftware(target, nameless.id as string)).name).toBeUndefined();
}
