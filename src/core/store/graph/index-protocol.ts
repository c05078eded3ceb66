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
    }
  | { readonly op: 'size' }
  | { readonly op: 'clear' };

/** A request with its correlation id. */
export interface IndexEnvelope {
  readonly id: number;
  readonly request: IndexRequest;
}

/** The worker's answer to one request. */
export type IndexReply =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly message: string; readonly syntax: boolean };
