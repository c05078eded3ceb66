/**
 * Field-level errors of a refused write, placed beside the inputs that show the fields they name. The registry
 * names fields as JSON paths (`kind`, `capability.produces`, `downloads[0].url`, `filter.conforms_to[2]`); an error
 * lands on the input for that path, or else on the nearest enclosing one, or else on the first input inside it,
 * and only when none fits is it listed in the summary alone.
 */
import { ApiError, type FieldError } from '../api';

/** A refused or failed submission as a form shows it. */
export interface FormProblem {
  readonly status: number;
  readonly title: string;
  readonly detail?: string;
  readonly errors: readonly FieldError[];
}

/** One line of the error summary: the message and the input it links to, if any. */
export interface SummaryItem {
  readonly message: string;
  readonly target?: string;
}

/** The id of the input that shows `field` in the form `form`. */
export function inputId(form: string, field: string): string {
  return `${form}-${field.replace(/[^A-Za-z0-9]+/g, '-').replace(/-$/, '')}`;
}

/** Turns whatever a submission threw into a form problem; field errors are kept as the registry named them. */
export function problemOf(error: unknown): FormProblem {
  if (!(error instanceof ApiError)) {
    return {
      status: 0,
      title: 'Something went wrong',
      detail: error instanceof Error ? error.message : String(error),
      errors: [],
    };
  }
  const { problem } = error;
  const errors = [...(problem.errors ?? [])];
  // Some refusals name one field beside the detail instead of listing errors (an endpoint on undeployable software).
  if (errors.length === 0 && typeof problem.field === 'string') {
    errors.push({ field: problem.field, message: problem.detail ?? problem.title ?? 'refused' });
  }
  return {
    status: error.status,
    title: problem.title ?? `The registry answered ${error.status}`,
    ...(problem.detail === undefined ? {} : { detail: problem.detail }),
    errors,
  };
}

/** The errors of a problem, placed onto the fields a form shows. */
export class FieldErrors {
  private readonly placed = new Map<string, string[]>();
  readonly items: readonly SummaryItem[];

  /**
   * @param known the field paths the form shows, in the order they appear
   * @param aliases other names the registry may use for a field (`kind` for `kinds`)
   */
  constructor(
    readonly form: string,
    problem: FormProblem | undefined,
    known: readonly string[],
    aliases: Readonly<Record<string, string>> = {},
  ) {
    const items: SummaryItem[] = [];
    for (const error of problem?.errors ?? []) {
      const field = place(error.field, known, aliases);
      if (field === undefined) {
        items.push({ message: error.message });
        continue;
      }
      const messages = this.placed.get(field) ?? [];
      if (!messages.includes(error.message)) messages.push(error.message);
      this.placed.set(field, messages);
      items.push({ message: error.message, target: inputId(form, field) });
    }
    // In the order the form shows its fields, so the summary reads top to bottom; unplaced ones last.
    const order = (item: SummaryItem) => {
      const index =
        item.target === undefined ? -1 : known.findIndex((field) => inputId(form, field) === item.target);
      return index === -1 ? known.length : index;
    };
    this.items = dedupe(items).sort((a, b) => order(a) - order(b));
  }

  /** The messages to show beside the input of `field`. */
  for(field: string): readonly string[] {
    return this.placed.get(field) ?? [];
  }

  get count(): number {
    return this.items.length;
  }
}

/** The shown field an error about `field` belongs to. */
function place(
  field: string,
  known: readonly string[],
  aliases: Readonly<Record<string, string>>,
): string | undefined {
  const shown = new Set(known);
  for (let path: string | undefined = field; path !== undefined && path !== ''; path = parentOf(path)) {
    const name = aliases[path] ?? path;
    if (shown.has(name)) return name;
  }
  // A whole group was named (`publisher`): its first input.
  const name = aliases[field] ?? field;
  return known.find((candidate) => candidate.startsWith(`${name}.`) || candidate.startsWith(`${name}[`));
}

/** `a.b[0].c` → `a.b[0]` → `a.b` → `a` → undefined. */
function parentOf(path: string): string | undefined {
  const match = /(\[\d+\]|\.[^.[\]]+)$/.exec(path);
  return match === null ? undefined : path.slice(0, match.index);
}

function dedupe(items: readonly SummaryItem[]): SummaryItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = `${item.target ?? ''}\u0000${item.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
