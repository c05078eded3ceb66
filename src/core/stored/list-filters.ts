/**
 * The filters of an API list, read from the kind's declaration (`records/kind-registry.ts`): each query parameter
 * the client sent becomes one graph pattern over `?s`, the listed record. Filters a field alone cannot express are
 * the list service's own (`custom`).
 */
import { BadRequestError } from '../errors.js';
import {
  kindDeclaration,
  predicateOf,
  recordIri,
  type CustomFilterParam,
  type ListedKind,
  type ListFilter,
  type ListParams,
  type RecordKind,
} from '../records/kind-registry.js';
import { sparqlString } from '../discovery/sparql-text.js';
import type { Core } from '../core.js';
import { iriPattern } from './listing.js';
import { indexedAs } from '../store/lineage/lineage-facts.js';
import type { IndexCondition } from '../store/graph/kind-pages.js';

/**
 * A filter the list service selects itself: its pattern, an empty pattern when the value selects everything, or
 * undefined when it can match nothing.
 */
export type CustomFilters<K extends ListedKind> = Readonly<
  Record<CustomFilterParam<K>, (value: string) => string | undefined>
>;

/** A licence filter: a full IRI, or an SPDX id such as `Apache-2.0`. */
export function licenceIri(value: string): string {
  return /^https?:\/\//.test(value) ? value : `https://spdx.org/licenses/${value}`;
}

/**
 * The patterns of the filters a list request carries, in their declared order; undefined when one of them can
 * match nothing (the list is then empty). A value outside a closed set is a 400 naming the parameter.
 */
export function filterPatterns<K extends ListedKind>(
  core: Core,
  kind: K,
  params: ListParams<K>,
  custom: CustomFilters<K>,
): string[] | undefined {
  const patterns: string[] = [];
  const filters = kindDeclaration(kind)?.filters ?? [];
  for (const [at, filter] of filters.entries()) {
    const value = (params as Readonly<Record<string, string | undefined>>)[filter.param];
    if (value === undefined) continue;
    const pattern =
      filter.match.by === 'custom'
        ? (custom as Readonly<Record<string, (value: string) => string | undefined>>)[filter.param]?.(value)
        : declaredPattern(core, kind, filter, value, `?f${at}`);
    if (pattern === undefined) {
      if (filter.match.by === 'custom') return undefined;
      continue;
    }
    if (pattern !== '') patterns.push(pattern);
  }
  return patterns;
}

/**
 * The filters of a list request as conditions the lineage index answers (`store/graph/kind-pages.ts`), for a list
 * read without the query index; undefined when one of them is not kept there (custom filters without a condition
 * in `custom`, predicates the index does not keep). A custom condition of null selects everything. Called after `filterPatterns`, which has checked
 * the values.
 */
export function filterConditions<K extends ListedKind>(
  core: Core,
  kind: K,
  params: ListParams<K>,
  custom: Partial<Readonly<Record<CustomFilterParam<K>, (value: string) => IndexCondition | null>>> = {},
): IndexCondition[] | undefined {
  const conditions: IndexCondition[] = [];
  for (const { param, match } of kindDeclaration(kind)?.filters ?? []) {
    const value = (params as Readonly<Record<string, string | undefined>>)[param];
    if (value === undefined) continue;
    if (match.by === 'custom') {
      const condition = (custom as Readonly<Record<string, (value: string) => IndexCondition | null>>)[param];
      if (condition === undefined) return undefined;
      // null: the value selects everything.
      const made = condition(value);
      if (made !== null) conditions.push(made);
      continue;
    }
    if (match.by === 'text') {
      const words = value.trim();
      if (words === '') continue;
      const facts: number[] = [];
      for (const field of match.fields) {
        const kept = indexedAs(predicateOf(kind, field));
        if (kept === undefined || !('fact' in kept)) return undefined;
        facts.push(kept.fact);
      }
      conditions.push({ words, facts });
      continue;
    }
    const kept = indexedAs(predicateOf(kind, match.field));
    if (kept === undefined) return undefined;
    const target =
      match.by === 'iri'
        ? match.spdx === true
          ? licenceIri(value)
          : value
        : match.by === 'record'
          ? recordIri(core.config.baseIri, match.of as RecordKind, value, param)
          : value;
    if ('link' in kept) {
      // A link holds IRIs only: a filter comparing text is answered by the query.
      if (match.by !== 'iri' && match.by !== 'record') return undefined;
      conditions.push({ link: kept.link, o: target });
    } else
      conditions.push({
        fact: kept.fact,
        value: target,
        ...(match.by === 'value' && match.absent === value ? { orAbsent: true } : {}),
      });
  }
  return conditions;
}

/** The pattern of a filter declared by a field; undefined for a text filter without words. */
function declaredPattern(
  core: Core,
  kind: string,
  filter: ListFilter,
  value: string,
  variable: string,
): string | undefined {
  const { match, param } = filter;
  switch (match.by) {
    case 'text': {
      const words = value.trim();
      if (words === '') return undefined;
      const fields = match.fields.map((field, n) => [`${variable}_${n}`, predicateOf(kind, field)] as const);
      const optional = fields.map(([name, predicate]) => `OPTIONAL { ?s <${predicate}> ${name} }`).join(' ');
      const text = fields.map(([name]) => `COALESCE(STR(${name}), "")`).join(', " ", ');
      return `${optional} FILTER(CONTAINS(LCASE(CONCAT(${text})), LCASE(${sparqlString(words)})))`;
    }
    case 'exact':
      return `?s <${predicateOf(kind, match.field)}> ${variable} . FILTER(STR(${variable}) = ${sparqlString(value)})`;
    case 'value': {
      if (match.values !== undefined && !match.values.includes(value))
        throw new BadRequestError(`${param} must be one of ${match.values.join(', ')}, got "${value}"`, {
          errors: [{ field: param, message: `must be one of ${match.values.join(', ')}` }],
        });
      const predicate = predicateOf(kind, match.field);
      // A record without the field reads as `absent`.
      if (match.absent !== undefined)
        return `OPTIONAL { ?s <${predicate}> ${variable} } FILTER(COALESCE(STR(${variable}), ${sparqlString(match.absent)}) = ${sparqlString(value)})`;
      return `?s <${predicate}> ${sparqlString(value)} .`;
    }
    case 'iri':
      return iriPattern(
        predicateOf(kind, match.field),
        match.spdx === true ? licenceIri(value) : value,
        param,
      );
    case 'record':
      return iriPattern(
        predicateOf(kind, match.field),
        recordIri(core.config.baseIri, match.of as RecordKind, value, param),
        param,
      );
    case 'custom':
      return undefined;
  }
}
