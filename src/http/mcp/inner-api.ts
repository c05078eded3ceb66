import type { Hono } from 'hono';
import { INSTANCE_KEY_HEADER } from '../../core/access/acting-deployment.js';
import { BadRequestError } from '../../core/errors.js';
import type { AppEnv } from '../env.js';
import { PROBLEM_TYPE, problemBody } from '../problem.js';

/** The request headers an inner call carries over from the MCP request: the credential and the client's address. */
const CARRIED = ['authorization', INSTANCE_KEY_HEADER.toLowerCase(), 'x-forwarded-for', 'user-agent'];

/** An answer of the HTTP API to an inner call: its status and its JSON body (`undefined` when it had none). */
export interface InnerAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly contentType: string;
  /** The body as sent, for answers that are not JSON (SPARQL results in another format). */
  readonly text: string;
}

/** One call of the HTTP API: a method, a path below the base, query parameters and a JSON body. */
export interface InnerCall {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  readonly path: string;
  /** Query parameters; a list repeats the parameter, `undefined` leaves it out. */
  readonly query?: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly body?: unknown;
  /** A body sent as it is, with its media type, instead of JSON. */
  readonly raw?: { readonly type: string; readonly text: string };
  readonly accept?: string;
}

/**
 * Calls the registry's own HTTP API in process, as the MCP caller: each call is a request to the same application
 * with the caller's credential and the same connection (so the client address is the caller's), which runs the
 * same authentication, validation, audit and limits as a request from outside, and answers with the same
 * problems. Nothing a tool does bypasses the API.
 */
export class InnerApi {
  private calls = 0;

  constructor(
    private readonly app: Hono<AppEnv>,
    private readonly outer: Request,
    private readonly bindings: unknown,
    private readonly requestId: string,
  ) {}

  /** Sends one call and reads its answer. */
  async send(call: InnerCall): Promise<InnerAnswer> {
    const url = new URL(call.path, new URL(this.outer.url).origin);
    // An id of `..` (or its escapes) would move the call to another path: it is refused, as no record has it.
    if (url.pathname !== call.path)
      return this.refused(`no record is named by a path segment of ${call.path}`);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value === undefined) continue;
      for (const one of typeof value === 'string' ? [value] : value) url.searchParams.append(name, one);
    }
    const headers = new Headers({ accept: call.accept ?? 'application/json' });
    for (const name of CARRIED) {
      const value = this.outer.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    // The inner request's id names the MCP request it belongs to, so the log and the audit tie the two.
    this.calls += 1;
    headers.set('x-request-id', `${this.requestId}.${this.calls}`.slice(0, 100));
    let body: string | undefined;
    if (call.raw !== undefined) {
      headers.set('content-type', call.raw.type);
      body = call.raw.text;
    } else if (call.body !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(call.body);
    }
    const response = await this.app.fetch(
      new Request(url, { method: call.method, headers, ...(body === undefined ? {} : { body }) }),
      this.bindings,
    );
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    return { status: response.status, body: parsed(text, contentType), contentType, text };
  }

  /** The answer the API gives a bad request, for a call this side refuses before sending it. */
  private refused(detail: string): InnerAnswer {
    const body = problemBody(new BadRequestError(detail), this.requestId);
    return { status: 400, body, contentType: PROBLEM_TYPE, text: JSON.stringify(body) };
  }
}

/** The JSON of an answer, when it is JSON. */
function parsed(text: string, contentType: string): unknown {
  if (text === '' || !/json/i.test(contentType)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
