/**
 * The JSON Schema subset the API's shapes are declared in (2020-12, as OpenAPI 3.1 reads it), and `FromSchema`,
 * which reads a schema declared `as const` as the TypeScript type of the JSON it describes. One declaration serves
 * the OpenAPI description, the clients' types and the tests that compare answers with it.
 */

/** Any JSON value. */
export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** The JSON types a schema may name. */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object';

/** A JSON Schema as the API's shapes use it. */
export interface JsonSchema {
  readonly type?: JsonType | readonly JsonType[];
  readonly format?: string;
  readonly description?: string;
  readonly enum?: readonly (string | number | boolean | null)[];
  readonly const?: string | number | boolean | null;
  readonly items?: JsonSchema;
  readonly properties?: { readonly [name: string]: JsonSchema };
  readonly required?: readonly string[];
  /** True where an object may carry members beyond its `properties` (they read as `unknown`). */
  readonly additionalProperties?: boolean;
  readonly anyOf?: readonly JsonSchema[];
  /** Written by the registry: read back, ignored when sent. */
  readonly readOnly?: boolean;
}

/** An object type shown as one flat object (intersections merged). */
export type Flat<T> = { [K in keyof T]: T[K] };

/** The names a schema lists as `required`. */
type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

/** The extra members of an object that allows them. */
type Extra<S> = S extends { readonly additionalProperties: true }
  ? { readonly [member: string]: unknown }
  : unknown;

type ObjectFrom<S> = S extends { readonly properties: infer P }
  ? Flat<
      {
        readonly [K in keyof P as K extends RequiredOf<S> ? K : never]: FromSchema<P[K]>;
      } & {
        readonly [K in keyof P as K extends RequiredOf<S> ? never : K]?: FromSchema<P[K]>;
      } & Extra<S>
    >
  : { readonly [member: string]: unknown };

/** One alternative of a schema whose `type` lists several. */
type OfType<S, T> = T extends JsonType ? FromSchema<Omit<S, 'type'> & { readonly type: T }> : never;

/** The TypeScript type of the JSON a schema (declared `as const`) describes. */
export type FromSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly anyOf: readonly (infer A)[] }
      ? FromSchema<A>
      : S extends { readonly type: readonly (infer T)[] }
        ? OfType<S, T>
        : S extends { readonly type: 'string' }
          ? string
          : S extends { readonly type: 'integer' | 'number' }
            ? number
            : S extends { readonly type: 'boolean' }
              ? boolean
              : S extends { readonly type: 'null' }
                ? null
                : S extends { readonly type: 'array'; readonly items: infer I }
                  ? readonly FromSchema<I>[]
                  : S extends { readonly type: 'object' }
                    ? ObjectFrom<S>
                    : JsonValue;
