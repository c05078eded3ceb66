import type { CallToolResult } from '@modelcontextprotocol/server';
import type { JsonSchema } from '../../api/index.js';
import type { Principal } from '../../core/access/principal.js';
import type { Config } from '../../core/config/index.js';
import type { InnerAnswer, InnerApi, InnerCall } from './inner-api.js';

/** The arguments of a tool call, as the client sent them. */
export type ToolArguments = Readonly<Record<string, unknown>>;

/** What a tool is run with: the caller's arguments, the API in the caller's name, and the configuration. */
export interface ToolContext {
  readonly args: ToolArguments;
  readonly api: InnerApi;
  readonly config: Config;
  /** The caller, as the registry resolved its credential (the API decides again on every call). */
  readonly principal: Principal;
}

/** The JSON Schema of a tool's arguments: always an object. */
export interface ToolInputSchema extends JsonSchema {
  readonly type: 'object';
}

/** One tool of the MCP server, declared once: what the client is told about it, who sees it, and what it does. */
export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  /** Whether the tool only reads (`readOnlyHint`), and whether calling it twice does no more than once. */
  readonly readOnly: boolean;
  readonly idempotent: boolean;
  /**
   * Whether the caller is shown the tool in `tools/list`. A tool that is listed can still be refused (the API
   * decides each call), and one that is not listed but called anyway is refused by the API the same way.
   */
  readonly offered: (principal: Principal, config: Config) => boolean;
  readonly run: (context: ToolContext) => Promise<CallToolResult>;
}

/** A string argument, when the client sent one that is not blank. */
export function text(args: ToolArguments, name: string): string | undefined {
  const value = args[name];
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A list argument of strings (a single string is a list of one). */
export function texts(args: ToolArguments, name: string): string[] | undefined {
  const value = args[name];
  if (typeof value === 'string') return value.trim() === '' ? undefined : [value.trim()];
  if (!Array.isArray(value)) return undefined;
  const list = value.filter((item): item is string => typeof item === 'string' && item.trim() !== '');
  return list.length === 0 ? undefined : list;
}

/** An object argument. */
export function object(args: ToolArguments, name: string): Record<string, unknown> | undefined {
  const value = args[name];
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * The API path of a sub-resource of the software or the deployment the arguments name (`software` or `instance`,
 * exactly one), e.g. `/api/v1/instances/<id>/capability`; a refusal when they name neither or both.
 */
export function softwareOrInstancePath(args: ToolArguments, sub: string): string | CallToolResult {
  const software = text(args, 'software');
  const instance = text(args, 'instance');
  if ((software === undefined) === (instance === undefined))
    return refusal('give either software or instance (id or IRI), not both');
  return software === undefined
    ? `/api/v1/instances/${encodeURIComponent(instance ?? '')}/${sub}`
    : `/api/v1/software/${encodeURIComponent(software)}/${sub}`;
}

/** A refusal of the tool itself (an argument it cannot use), worded like the API's problems. */
export function refusal(detail: string): CallToolResult {
  const problem = { title: 'Bad request', status: 400, code: 'bad-request', detail };
  return {
    content: [{ type: 'text', text: `Bad request: ${detail}` }],
    structuredContent: problem,
    isError: true,
  };
}

/**
 * The tool result of an API answer: a success is its JSON as structured content (a list answer wrapped as
 * `{ items }`, since structured content is an object) and as text; a problem is an error result whose text
 * names the problem's title and detail and whose structured content is the problem itself.
 */
export function resultOf(answer: InnerAnswer): CallToolResult {
  if (answer.status >= 400) {
    const problem = isRecord(answer.body)
      ? answer.body
      : { title: `HTTP ${answer.status}`, status: answer.status, detail: answer.text.slice(0, 500) };
    const title = typeof problem.title === 'string' ? problem.title : `HTTP ${answer.status}`;
    const detail = typeof problem.detail === 'string' ? `: ${problem.detail}` : '';
    const code = typeof problem.code === 'string' ? ` (${problem.code}, HTTP ${answer.status})` : '';
    return {
      content: [{ type: 'text', text: `${title}${detail}${code}` }],
      structuredContent: problem,
      isError: true,
    };
  }
  const value = answer.body ?? (answer.status === 204 ? { done: true } : { text: answer.text });
  const structured = isRecord(value) ? value : { items: value };
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: structured };
}

/** Sends one call of the API and turns its answer into the tool's result. */
export async function relay(context: ToolContext, call: InnerCall): Promise<CallToolResult> {
  return resultOf(await context.api.send(call));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
