/** Requests the main thread sends to the index worker. */
export type IndexRequest =
  | { readonly op: 'load'; readonly nquads: string }
  | { readonly op: 'loadGraph'; readonly ntriples: string; readonly graph: string }
  | { readonly op: 'replace'; readonly remove: string; readonly add: string }
  | {
      readonly op: 'query';
      readonly query: string;
      readonly format: 'json' | 'turtle';
      readonly union: boolean;
      /** Refuse a JSON answer with more solutions than this (`rows`) instead of sending it. */
      readonly maxRows?: number;
      /** The dataset named by the request, replacing the union default graph and the query's own. */
      readonly dataset?: {
        readonly defaultGraphs: readonly string[];
        readonly namedGraphs: readonly string[];
      };
    }
  | { readonly op: 'size' }
  /** Lowers the worker thread's scheduling priority to this nice value (Linux; elsewhere nothing happens). */
  | { readonly op: 'nice'; readonly value: number }
  | { readonly op: 'clear' };

/** A request with its correlation id. */
export interface IndexEnvelope {
  readonly id: number;
  readonly request: IndexRequest;
}

/**
 * Why a request failed: a query the parser refused (`syntax`), an answer over its `maxRows` (`rows`), the engine
 * itself broken (`fatal`: a WebAssembly trap or an exhausted stack, after which its memory cannot be trusted, so
 * the worker must be replaced), or anything else.
 */
export type IndexFailure = 'syntax' | 'rows' | 'fatal' | 'other';

/** The worker's answer to one request. */
export type IndexReply =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly message: string; readonly failure: IndexFailure };
