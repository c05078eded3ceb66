/** Records into form text, form text into request bodies, and an edit into a PATCH of only what changed. */

export type Body = Record<string, unknown>;

/** Trimmed text, or undefined when empty. */
export function text(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A comma- or line-separated list, or undefined when empty. */
export function list(value: string): string[] | undefined {
  const items = value
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length === 0 ? undefined : [...new Set(items)];
}

/** A string member of a record as form text; anything else (absent, null, a number) is empty. */
export function textOf(record: Body, name: string): string {
  const value = record[name];
  return typeof value === 'string' ? value : '';
}

/** The strings of an array member of a record; anything else is left out. */
export function textsOf(record: Body, name: string): string[] {
  const value = record[name];
  return Array.isArray(value)
    ? (value as unknown[]).filter((item): item is string => typeof item === 'string')
    : [];
}

/** Strings joined back for a list field. */
export function joined(values: readonly string[] | undefined, separator = ', '): string {
  return (values ?? []).join(separator);
}

/** A whole number typed as text: the number, the text itself when it is not one (the registry says why). */
export function integer(value: string): number | string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** A list, or undefined when empty. */
export function nonEmpty<T>(values: readonly T[]): T[] | undefined {
  return values.length === 0 ? undefined : [...values];
}

/** An object without its undefined members, or undefined when nothing is left. */
export function compact(body: Body): Body | undefined {
  const entries = Object.entries(body).filter(([, value]) => value !== undefined);
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

/** The rows of a repeated group that have anything in them, each as a body; undefined when none has. */
export function rowsBody<T>(rows: readonly T[], body: (row: T) => Body): Body[] | undefined {
  return nonEmpty(
    rows.flatMap((row) => {
      const compacted = compact(body(row));
      return compacted === undefined ? [] : [compacted];
    }),
  );
}

/**
 * The members of `after` that differ from `before`: changed values as they are now, and `null` for values that
 * were there before and are gone (the registry's merge clears a field sent as null).
 */
export function changes(before: Body, after: Body): Body {
  const patch: Body = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[key];
    const now = after[key];
    if (JSON.stringify(was) === JSON.stringify(now)) continue;
    patch[key] = now === undefined ? null : now;
  }
  return patch;
}
