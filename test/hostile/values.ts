/**
 * Hostile values for the corpus: characters that are not text or not IRI characters, attempts to break out of
 * the SPARQL the server builds, wrong JSON types, huge and deeply nested values. Plain data, the same every run.
 */

/** C0 controls (U+0000–U+001F, every one of them) and DEL. */
export const CONTROLS = [...Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)), '\u007f'];

/** Lone surrogates: not Unicode text, whatever JSON escapes allow. */
export const LONE_SURROGATES = ['\ud800', '\udfff', 'a\udc00b', '\ud83d'];

/** Characters and sequences that a string may hold but an IRI may not. */
export const NOT_IN_IRIS = [
  '\u0085',
  '\ufffd',
  '\ufdd0',
  '%zz',
  '%',
  '%4',
  ' ',
  '<',
  '>',
  '"',
  '{',
  '}',
  '|',
  '\\',
  '^',
  '`',
];

/** Attempts to end an IRI or a string literal of a query early and add to it. */
export const INJECTIONS = [
  '> } INSERT DATA { GRAPH <urn:reg:local> { <urn:x> <urn:y> <urn:z> } } #',
  '" } } ; DROP ALL ; #',
  '"\\" . <urn:a> <urn:b> "c',
  "') OR 1=1 --",
  '}}}} SERVICE <http://127.0.0.1:1/> { ?s ?p ?o }',
  'x\n} UNION { ?s ?p ?o }',
  '\\u003e } #',
];

/** Values that are not strings. */
export const WRONG_TYPES: readonly unknown[] = [42, -1.5, true, false, [], {}, [[[]]], { iri: {} }, [null]];

/**
 * Strings that are not IRIs, most of them one character away from `base` + `x…y`, for fields and parameters that
 * take IRIs. `base` is a host nothing answers on where a server might try to reach it.
 */
export function hostileIris(base: string): string[] {
  return [
    ...[...CONTROLS, ...NOT_IN_IRIS].map((char) => `${base}x${char}y`),
    ...INJECTIONS.map((text) => `${base}${text}`),
    ...INJECTIONS,
    'no scheme at all',
    '',
    'http://[::1/x',
    `${base}#a#b`,
  ];
}

/** Hostile strings that are still text (a string field may keep them, escaped). */
export function hostileTexts(): string[] {
  return [...CONTROLS.map((char) => `a${char}b`), ...INJECTIONS, 'x'.repeat(50_000), ''];
}

/** JSON text nesting objects `depth` levels deep, built as text (a value that deep cannot be stringified). */
export function deepObject(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** JSON text nesting lists `depth` levels deep. */
export function deepList(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/** Bytes that are not UTF-8 inside an otherwise valid JSON body. */
export function notUtf8(json: string): Uint8Array {
  const at = json.indexOf('"', json.indexOf(':')) + 1;
  const bytes = Buffer.from(json, 'utf8');
  return Buffer.concat([
    bytes.subarray(0, at),
    Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
    bytes.subarray(at),
  ]);
}

/** Picks `count` items of `pool`, starting at `offset`, wrapping: field by field, every item gets used. */
export function rotate<T>(pool: readonly T[], offset: number, count: number): T[] {
  return Array.from(
    { length: Math.min(count, pool.length) },
    (_, at) => pool[(offset + at) % pool.length] as T,
  );
}
