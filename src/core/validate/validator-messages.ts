import type { ValidationReport } from './validator.js';

/*
 * The messages between the validator pool and its worker threads, typed once for both ends.
 */

/** The records of one caller, as N-Quads with the JSON locations of their owned nodes. */
export interface Group {
  readonly records: { readonly nquads: string; readonly locate: [string, string][] }[];
}

/** A request: every group queued in one turn of the event loop. */
export interface GroupsRequest {
  readonly id: number;
  readonly groups: Group[];
}

/** The worker's answer for one group: its reports, or why they could not be made. */
export type GroupReply =
  | { readonly ok: true; readonly reports: ValidationReport[] }
  | { readonly ok: false; readonly message: string };

/** The worker's answer to a request (id 0: the shapes are loaded). */
export interface GroupsReply {
  readonly id: number;
  readonly ok: boolean;
  readonly groups?: GroupReply[];
  readonly message?: string;
}
