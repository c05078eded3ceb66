/** How results are written: IRIs in prefixed form, and the CSV download (SPARQL 1.1 Query Results CSV). */
import { PREFIXES } from '../../../src/core/ns';
import type { Solution, Term } from './query';

/** Prefix → namespace, from the query's PREFIX lines and then the registry's own (those its code writes with). */
export function prefixesOf(query: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of query.matchAll(/PREFIX\s+([A-Za-z][\w.-]*)?:\s*<([^>\s]*)>/gi))
    if (!found.has(match[1] ?? '')) found.set(match[1] ?? '', match[2]!);
  for (const [prefix, namespace] of Object.entries(PREFIXES))
    if (!found.has(prefix)) found.set(prefix, namespace);
  return found;
}

const LOCAL_NAME = /^[A-Za-z_][\w.-]*$/;

/** `prefix:local` when a namespace matches and the rest is a plain local name; otherwise undefined. */
export function compactIri(iri: string, prefixes: ReadonlyMap<string, string>): string | undefined {
  let best: string | undefined;
  let length = 0;
  for (const [prefix, namespace] of prefixes) {
    if (namespace.length <= length || !iri.startsWith(namespace)) continue;
    const local = iri.slice(namespace.length);
    if (local !== '' && !LOCAL_NAME.test(local)) continue;
    best = `${prefix}:${local}`;
    length = namespace.length;
  }
  return best;
}

/** One CSV field, quoted when it must be. */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvValue(term: Term | undefined): string {
  if (term === undefined) return '';
  return term.type === 'bnode' ? `_:${term.value}` : term.value;
}

/** The SELECT results as CSV: a header of variable names, then one line per solution (CRLF line ends). */
export function toCsv(vars: readonly string[], rows: readonly Solution[]): string {
  const lines = [vars.map(csvField).join(',')];
  for (const row of rows) lines.push(vars.map((name) => csvField(csvValue(row[name]))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
