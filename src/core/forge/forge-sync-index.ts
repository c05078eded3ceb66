/**
 * What repository sync reads of the records, from the lineage index in `registry.db` and the records themselves
 * (so the scheduler's passes and a sync leave the query index alone): the software connected to a forge, found by
 * the sync nodes that name one, and the versions of a software's releases. Each gives what its query gives.
 */
import type { Core } from '../core.js';
import { GRAPHS, REG, XSD } from '../ns.js';
import { FACT, LINK, linksToValue, LOOKUP_FACTS } from '../store/lineage/lineage-facts.js';
import { statedAbout } from '../stored/about.js';
import { recordsOfNodes } from '../stored/stating.js';
import { ownerOf } from '../store/nquads.js';

const isRecord = (node: string): boolean => node === ownerOf(node);

/**
 * Live software of this registry's graph with a sync node that names a forge and a repository and is not
 * disabled, as (software, forge) pairs in the software's code point order.
 */
export async function connectedFromIndex(core: Core): Promise<{ iri: string; source: string }[]> {
  const syncs = core.db
    .prepare(`SELECT DISTINCT iri FROM lineage_node WHERE p = ? AND ${LOOKUP_FACTS} AND graph = ?`)
    .pluck()
    .all(FACT.syncSource, GRAPHS.local) as string[];
  if (syncs.length === 0) return [];
  const sources = new Map<string, string[]>();
  for (const [sync, stated] of await statedAbout(core, syncs, [GRAPHS.local])) {
    for (const { statements } of stated) {
      const disabled = (statements.get(REG('syncEnabled')) ?? []).some(
        (term) =>
          term.termType === 'Literal' && term.value === 'false' && term.datatype.value === XSD('boolean'),
      );
      if (disabled || (statements.get(REG('syncRepo')) ?? []).length === 0) continue;
      sources.set(sync, [...new Set((statements.get(REG('syncSource')) ?? []).map((term) => term.value))]);
    }
  }
  const links = core.db
    .prepare(
      `SELECT DISTINCT n.iri AS software, c.value ->> 0 AS sync FROM json_each(?) c
       JOIN lineage_node n ON n.p = ? AND n.${LOOKUP_FACTS} AND n.value = c.value ->> 1 AND n.graph = ?`,
    )
    .all(
      JSON.stringify([...sources.keys()].map((sync) => [sync, linksToValue(sync, REG('sync'))])),
      FACT.linksTo,
      GRAPHS.local,
    ) as { software: string; sync: string }[];
  const live = new Set(
    (
      await recordsOfNodes(core, [...new Set(links.map((link) => link.software))].filter(isRecord), [
        REG('Software'),
      ])
    ).map((found) => found.node),
  );
  const pairs = new Set<string>();
  for (const { software, sync } of links)
    if (live.has(software)) for (const source of sources.get(sync) ?? []) pairs.add(`${software} ${source}`);
  return [...pairs]
    .sort()
    .map((pair) => ({ iri: pair.slice(0, pair.indexOf(' ')), source: pair.slice(pair.indexOf(' ') + 1) }));
}

/** The versions of every release of a software in this registry's graph, withdrawn ones included. */
export function heldVersionsFromIndex(core: Core, software: string): Set<string> {
  const versions = core.db
    .prepare(
      `SELECT DISTINCT v.value FROM lineage_link l
       JOIN lineage_node t ON t.iri = l.s AND t.graph = l.graph AND t.p = ${FACT.release}
       JOIN lineage_node v ON v.iri = l.s AND v.graph = l.graph AND v.p = ${FACT.softwareVersion}
       WHERE l.o = ? AND l.p = ${LINK.versionOf} AND l.graph = ?`,
    )
    .pluck()
    .all(software, GRAPHS.local) as string[];
  return new Set(versions);
}
