/**
 * The declarative description of records: which JSON field maps to which predicate, with which value type
 * and cardinality. The mapper turns JSON into quads and quads back into JSON from these tables only, so no
 * endpoint carries its own mapping.
 */

/** Value types of scalar fields. */
export type ScalarType = 'string' | 'iri' | 'boolean' | 'integer' | 'date' | 'dateTime' | 'json';

interface FieldBase {
  /** JSON member name. */
  readonly json: string;
  /** Predicate IRI linking the node to the value. */
  readonly predicate: string;
  /** A list in JSON (any number of values in RDF). */
  readonly many?: boolean;
  /** Written by the registry only; ignored when a payload sends it. */
  readonly registry?: boolean;
  /** Retired predicates read as fallbacks when the current one is absent. */
  readonly legacy?: readonly string[];
}

/**
 * Which URL schemes a link field takes: an allow-list (web pages: `http`, `https`), or, for places data is kept
 * (`s3:`, `postgres:`, ...), any scheme but those a browser would run or inline (`javascript:`, `data:`).
 */
export type LinkRule = { readonly schemes: readonly string[] } | { readonly except: readonly string[] };

/** A field whose value is a literal or an IRI. */
export interface ScalarField extends FieldBase {
  readonly type: ScalarType;
  /** Allowed values; lists are presented in this order. */
  readonly values?: readonly string[];
  /** For an IRI that clients follow as a link: the schemes it may use. */
  readonly link?: LinkRule;
}

/** A field whose value is an owned sub-resource `<record>#<fragment>` described by its own node spec. */
export interface NodeField extends FieldBase {
  readonly type: 'node';
  /** Fragment of the node IRI; lists append `-<index>`. */
  readonly fragment: string;
  readonly node: NodeSpec;
}

/** A field whose value is an agent: its identifier IRI when it has one, else the owned fragment. */
export interface AgentField extends FieldBase {
  readonly type: 'agent';
  readonly fragment: string;
}

/** One field of a node. */
export type FieldSpec = ScalarField | NodeField | AgentField;

/** A node: its rdf:types and fields. */
export interface NodeSpec {
  readonly types: readonly string[];
  readonly fields: readonly FieldSpec[];
  /** A type written only when a field is present (e.g. dcat:DataService with an endpoint). */
  readonly typeWhen?: { readonly type: string; readonly field: string };
}

/** A record kind: a node minted at `{base}/<path>/<id>`. */
export interface RecordSpec extends NodeSpec {
  /** Kind name stored beside the record and used in counts. */
  readonly kind: string;
  /** Path segment of minted IRIs. */
  readonly path: string;
  /** JSON members a client may send back from a read that are derived and silently ignored on write. */
  readonly derived: readonly string[];
}

/** The key under which a spec's type carries its literal table; it exists in types only. */
declare const TABLE: unique symbol;

/**
 * A spec as the code that maps records reads it (`Spec`: fields, types and paths of any record) that also carries,
 * in its type only, the literal table it was declared with, from which `src/api` derives the record's JSON type.
 * Nothing of the table's type shows at run time.
 */
export type Declared<Spec, Table extends Spec> = Spec & { readonly [TABLE]?: Table };

/** The literal table of a declared spec; any other spec is its own table. */
export type TableOf<S> = S extends { readonly [TABLE]?: infer Table }
  ? unknown extends Table
    ? S
    : Table
  : S;
