import type { Quad } from '../nquads.js';
import type { RecordTables } from './kind-pages.js';

/** The new state of one record: its quads in one graph, or null to delete it. */
export interface RecordWrite {
  readonly graph: string;
  /** The record IRI; quads about its fragments (`<record>#x`) belong to it too. */
  readonly subject: string;
  readonly quads: readonly Quad[] | null;
  /** The record kind (software, run, ...) used for counts; null for data that is not a record. */
  readonly kind?: string | null;
  /**
   * The quads' canonical N-Quads text, when the writer holds it already (a bulk load merges lines): a store that
   * keeps lines reads it rather than writing the quads out again, and need not touch `quads`.
   */
  readonly nquads?: string;
}

/** Reference data loaded into its own named graph from the package, not from the store's records. */
export interface BundleGraph {
  readonly graph: string;
  readonly ntriples: string;
  /** Lines (triples) of `ntriples`. */
  readonly tripleCount: number;
}

/** One solution of a SPARQL SELECT, in the SPARQL 1.1 JSON results term form. */
export type Binding = Record<string, { type: string; value: string; datatype?: string; 'xml:lang'?: string }>;

/** A SPARQL result serialised for an HTTP client. */
export interface SparqlResponse {
  readonly contentType: string;
  readonly body: string;
}

/** What one client query may spend: time once it runs, and solutions; the settings name both in refusals. */
export interface QueryBudget {
  readonly timeoutMs: number;
  readonly maxRows: number;
  readonly timeoutSetting: string;
  readonly rowsSetting: string;
}

/**
 * The RDF dataset a client's query runs against when the request names one (SPARQL 1.1 Protocol
 * `default-graph-uri` and `named-graph-uri`): it replaces the union default graph and any FROM/FROM NAMED of the
 * query. A list left empty is empty: naming only named graphs leaves the default graph empty, and the reverse.
 */
export interface QueryDataset {
  readonly defaultGraphs: readonly string[];
  readonly namedGraphs: readonly string[];
}

/** The query forms of SPARQL 1.1 Query. */
export type QueryForm = 'SELECT' | 'ASK' | 'CONSTRUCT' | 'DESCRIBE';

/** One record of a bulk load: with `replace` it becomes exactly `lines`, otherwise the union of what it held and these. */
export interface MergeTarget {
  readonly graph: string;
  readonly subject: string;
  readonly lines: readonly string[];
  readonly replace: boolean;
}

/** A record as a bulk load committed it: its canonical N-Quads text. */
export interface CommittedRecord {
  readonly graph: string;
  readonly subject: string;
  readonly text: string;
}

/** A bulk load into the store (a restore), made durable by `finish` or given up by `abort`. */
export interface BulkLoad {
  /** Whether the load is all or nothing; one that commits as it goes needs its input checked whole first. */
  readonly atomic: boolean;
  /**
   * Set by the caller of a load that commits as it goes: hears the records each commit wrote, as written, once
   * they are durable (a record merged again later is heard again, with its later text).
   */
  onCommit?: ((records: readonly CommittedRecord[]) => Promise<void>) | undefined;
  /**
   * Reads the records the next merges need together, ahead of them (a request per graph on an external store
   * instead of one per record); what was read ahead for earlier merges is dropped. A store that reads records
   * cheaply leaves this out.
   */
  prefetch?(records: readonly { readonly graph: string; readonly subject: string }[]): Promise<void>;
  /**
   * Holds every commit until `until` settles; one that rejects fails the load before it writes anything. A
   * load that commits as it goes is given the check of its whole input this way, which runs alongside.
   */
  holdCommits?(until: Promise<void>): void;
  /** Whether the store holds a record of this subject (merged in this load or before). */
  exists(graph: string, subject: string): Promise<boolean>;
  /** Merges lines into a record; returns how many of them were not already present. */
  merge(target: MergeTarget): Promise<number>;
  /** Makes everything merged durable, with the operational work of the load (its audit entry). */
  finish(ops: () => void, changed: boolean): Promise<void>;
  /** Gives up: what was merged is not kept (as far as the store allows). */
  abort(): void;
}

/** The kind of a record from its N-Quads lines (null: not a record kind), as the write path stores it. */
export type KindOfLines = (subject: string, lines: readonly string[]) => string | null;

/** The graph store: durable records plus a SPARQL view of them and of the reference bundles. */
export interface GraphStore {
  readonly kind: 'embedded' | 'sparql';
  /** Whether the store keeps quads of the default graph (the external store keeps named graphs only). */
  readonly keepsDefaultGraph: boolean;
  /**
   * Whether queries sent together are answered side by side (a server with threads of its own), so that two
   * halves of a query can be asked at once; the embedded index answers one query at a time.
   */
  readonly answersSideBySide: boolean;
  /** Why the store cannot answer queries yet, for the readiness probe. */
  readonly notReadyReason: string;
  /** Whether SPARQL queries can be answered now. */
  readonly ready: boolean;
  /** A number that changes with every commit, for invalidating cached reads. */
  readonly generation: number;
  /** Builds the query view; resolves when `ready`. */
  open(): Promise<void>;
  /**
   * Resolves when the refill of the lineage index that `open` started (after a restore or an upgrade) has ended: at
   * once when none runs. A refill that fails or is stopped by `close` leaves the index incomplete.
   */
  lineageFilled(): Promise<void>;
  /** The canonical N-Quads of one record, from the durable store. */
  readRecord(graph: string, subject: string): Promise<string | undefined>;
  /**
   * The canonical N-Quads of several records of one graph, read together: a number of requests to the store that
   * does not grow with how many are asked for (as long as they fit its quad budget). Records that do not exist are
   * absent from the answer.
   */
  readRecords(graph: string, subjects: readonly string[]): Promise<Map<string, string>>;
  /**
   * Commits record writes and the operational work of the same act (`ops`, run inside the same transaction)
   * atomically, then publishes them to the query view. Returns what `ops` returned.
   */
  commit<T>(writes: readonly RecordWrite[], ops: () => T): Promise<T>;
  /** Runs a SELECT and returns its solutions. */
  select(query: string): Promise<Binding[]>;
  /** Runs an ASK. */
  ask(query: string): Promise<boolean>;
  /**
   * Asks the store a trivial question, for the readiness probe: an external store's endpoint must answer one; the
   * embedded store answers from its rows, without loading a query index that is loaded on demand.
   */
  ping(): Promise<void>;
  /**
   * Runs a client's read-only query (from /sparql) within its budget, apart from the registry's own queries so
   * that it never holds them up: JSON results for SELECT/ASK, Turtle for CONSTRUCT/DESCRIBE. A SELECT with more
   * than `budget.maxRows` solutions is refused. With a `dataset`, the query runs against those graphs only.
   */
  query(query: string, form: QueryForm, budget: QueryBudget, dataset?: QueryDataset): Promise<SparqlResponse>;
  /** Total quads, reference bundles included. */
  countQuads(): Promise<number>;
  /** Record counts by kind in one graph. */
  countByKind(graph: string): Promise<Map<string, number>>;
  /**
   * The tables of `registry.db` that list the store's records and count them by kind, from which unfiltered and
   * index-filtered lists are read (`kind-pages.ts`).
   */
  readonly recordTables: RecordTables;
  /** The named graphs that hold records, in order. */
  recordGraphs(): string[];
  /** How many records of `graph` have a subject that does not start with `prefix`, and one of them. */
  recordsOutside(graph: string, prefix: string): { count: number; example: string | null };
  /**
   * Starts a bulk load (a restore into a stopped registry): the embedded store merges rows in one transaction
   * (all or nothing) and refills its search index at the next start; the external store commits a few hundred
   * quads at a time, keeping its subject table and search index current.
   */
  bulkLoad(kindOf: KindOfLines): BulkLoad;
  /** The whole dataset as N-Quads, or one graph as N-Triples, in chunks. */
  dump(options?: { graph?: string }): AsyncIterable<string>;
  close(): Promise<void>;
}
