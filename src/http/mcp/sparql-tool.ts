import type { CallToolResult } from '@modelcontextprotocol/server';
import { Parser, Writer, type Quad } from 'n3';
import { budgetOf, classifySparql } from '../../core/discovery/sparql.js';
import { limitSolutions, scanQuery } from '../../core/discovery/sparql-scan.js';
import { mayQuery } from './access.js';
import type { InnerAnswer } from './inner-api.js';
import { refusal, resultOf, text, type ToolContext, type ToolDefinition } from './tool.js';

/** Rows a query returns unless the caller asks for another budget, and the most it may ask for. */
export const SPARQL_ROWS = { default: 100, max: 1000 } as const;
/** Milliseconds a query may take unless the caller asks for less (never more than /sparql allows it). */
const DEFAULT_TIME_MS = 10_000;

/** What the tool answers: the result, and whether (and why) a budget cut it short. */
interface BoundedAnswer {
  readonly form: 'SELECT' | 'ASK' | 'CONSTRUCT';
  readonly partial: boolean;
  readonly reason?: string;
  readonly row_budget: number;
  readonly time_budget_ms: number;
  readonly vars?: readonly string[];
  readonly rows?: readonly unknown[];
  readonly boolean?: boolean;
  readonly triples?: number;
  readonly ntriples?: string;
  readonly turtle?: string;
}

/** A whole number argument within 1..max, or the fallback. */
function bounded(value: unknown, fallback: number, max: number): number {
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) return fallback;
  return Math.min(max, Math.max(1, Math.trunc(number)));
}

/** Resolves with the answer, or with `undefined` once `ms` have passed. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The answer of a SELECT or ASK, cut to `rows` solutions (the query asked for one more, to tell). */
function solutions(answer: InnerAnswer, rows: number, base: BoundedAnswer): BoundedAnswer {
  const json = answer.body as {
    head?: { vars?: string[] };
    boolean?: boolean;
    results?: { bindings?: unknown[] };
  };
  if (json.boolean !== undefined) return { ...base, form: 'ASK', boolean: json.boolean };
  const bindings = json.results?.bindings ?? [];
  const cut = bindings.length > rows;
  return {
    ...base,
    partial: cut,
    ...(cut ? { reason: `row budget: more than ${rows} rows; the first ${rows} are shown` } : {}),
    vars: json.head?.vars ?? [],
    rows: bindings.slice(0, rows),
  };
}

/** The answer of a CONSTRUCT, cut to `rows` triples. */
function triples(answer: InnerAnswer, rows: number, base: BoundedAnswer): BoundedAnswer {
  const quads: Quad[] = new Parser().parse(answer.text);
  if (quads.length <= rows) return { ...base, triples: quads.length, turtle: answer.text };
  const writer = new Writer({ format: 'N-Triples' });
  writer.addQuads(quads.slice(0, rows));
  let ntriples = '';
  writer.end((_error, result: string) => (ntriples = result));
  return {
    ...base,
    partial: true,
    reason: `row budget: more than ${rows} triples; the first ${rows} are shown`,
    triples: rows,
    ntriples,
  };
}

async function runQuery(context: ToolContext): Promise<CallToolResult> {
  const query = text(context.args, 'query');
  if (query === undefined) return refusal('query is required: a SPARQL SELECT, ASK or CONSTRUCT query');
  const kind = classifySparql(query);
  // Updates go to /sparql as they are, so that they are refused exactly as /sparql refuses them.
  if (kind.kind === 'query' && kind.form === 'DESCRIBE')
    return refusal('this tool answers SELECT, ASK and CONSTRUCT queries; write the DESCRIBE as a CONSTRUCT');
  const endpoint = budgetOf(context.config.sparql, context.principal.authenticated);
  const rows = Math.min(
    bounded(context.args.max_rows, SPARQL_ROWS.default, SPARQL_ROWS.max),
    endpoint.maxRows,
  );
  const ms = bounded(
    context.args.time_budget_ms,
    Math.min(DEFAULT_TIME_MS, endpoint.timeoutMs),
    endpoint.timeoutMs,
  );
  const form = kind.kind === 'query' ? kind.form : 'SELECT';
  // One solution more than the budget, to tell an answer the budget cuts from one it does not.
  const sent =
    kind.kind === 'query' && form !== 'ASK' ? limitSolutions(query, scanQuery(query), rows + 1) : query;
  const base: BoundedAnswer = {
    form: form === 'DESCRIBE' ? 'CONSTRUCT' : form,
    partial: false,
    row_budget: rows,
    time_budget_ms: ms,
  };
  const answer = await within(
    context.api.send({
      method: 'POST',
      path: '/sparql',
      raw: { type: 'application/sparql-query', text: sent },
      accept: form === 'CONSTRUCT' ? 'text/turtle' : 'application/sparql-results+json',
    }),
    ms,
  );
  const timedOut = answer === undefined || (answer.status === 504 && /query-timeout/.test(answer.text));
  let result: BoundedAnswer;
  if (timedOut) {
    result = { ...base, partial: true, reason: `time budget: no answer within ${ms} ms`, rows: [] };
  } else if (answer.status >= 400) {
    return resultOf(answer);
  } else {
    result = form === 'CONSTRUCT' ? triples(answer, rows, base) : solutions(answer, rows, base);
  }
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: { ...result } };
}

export const SPARQL_TOOL: ToolDefinition = {
  name: 'sparql_query',
  title: 'Query the graph with SPARQL',
  description: `Runs a read-only SPARQL query (SELECT, ASK or CONSTRUCT) over the registry's graph, through /sparql with the caller's credential. The answer holds at most max_rows rows (default ${SPARQL_ROWS.default}, at most ${SPARQL_ROWS.max}; for CONSTRUCT, triples) and waits at most time_budget_ms; when a budget cuts it short, partial is true and reason says which, never a silent truncation. Updates are refused. Prefer search_registry and list_records for ordinary questions.`,
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'the SPARQL query (PREFIX declarations allowed)' },
      max_rows: {
        type: 'integer',
        description: `most rows (or triples) to return: 1–${SPARQL_ROWS.max}, default ${SPARQL_ROWS.default}`,
      },
      time_budget_ms: {
        type: 'integer',
        description: `most milliseconds to wait for the answer (default ${DEFAULT_TIME_MS}, never more than /sparql allows)`,
      },
    },
    required: ['query'],
  },
  readOnly: true,
  idempotent: true,
  offered: mayQuery,
  run: runQuery,
};
