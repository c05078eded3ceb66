/**
 * The state behind a management form: its fields with a setter each, the submission and the registry's errors
 * placed on the fields; and, for a form that creates or edits a record, how it is sent.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, pageOf, type FieldError } from '../api';
import { changes, compact, type Body } from './body';
import { useSubmission } from './error-summary';
import { FieldErrors } from './field-errors';

interface FormOptions<S> {
  /** The form's name, which prefixes the ids of its inputs. */
  readonly form: string;
  /** The state to start from, taken once. */
  readonly initial: S | (() => S);
  /** The field paths the form shows for a state, in order, for placing the registry's errors. */
  readonly fields: (state: S) => readonly string[];
  /** The registry's other names for fields of this form. */
  readonly aliases?: Readonly<Record<string, string>>;
}

/** A form's state, a setter per field, its submission and the errors it ended with, placed. */
export function useForm<S extends object>(options: FormOptions<S>) {
  const [initial] = useState<S>(options.initial);
  const [state, setState] = useState<S>(initial);
  // A line beside the submit button about the last attempt (nothing to send); stale once anything is edited.
  const [note, setNote] = useState('');
  const submission = useSubmission();
  const errors = new FieldErrors(options.form, submission.problem, options.fields(state), options.aliases);
  const set =
    <K extends keyof S>(key: K) =>
    (value: S[K]) => {
      setNote('');
      setState((previous) => ({ ...previous, [key]: value }));
    };
  const reset = () => setState(initial);
  return { initial, state, set, reset, note, setNote, submission, errors };
}

interface RecordFormOptions<S> extends FormOptions<S> {
  /** Where a new record is posted; the record being edited is `<collection>/<id>`. */
  readonly collection: string;
  /** The id of the record being edited; none for a new one. */
  readonly id?: string | undefined;
  /** The request body a state makes. */
  readonly body: (state: S) => Body;
  /** The required fields a state leaves empty, each with what to do; checked before anything is sent. */
  readonly missing: (state: S) => readonly FieldError[];
}

/**
 * A form that creates or edits a record. A new record is posted whole; an edit sends a PATCH of only the
 * fields that changed (null clears one), or says that nothing changed and sends nothing. Then the page goes
 * to the record.
 */
export function useRecordForm<S extends object>(options: RecordFormOptions<S>) {
  const { route } = useLocation();
  const form = useForm(options);
  const { initial, submission, setNote } = form;
  /** Sends `current`, by default the state as the form shows it. */
  const save = (current: S = form.state) => {
    const missing = options.missing(current);
    if (missing.length > 0) {
      submission.setProblem({ status: 0, title: 'Check the form', errors: missing });
      return;
    }
    const { collection, id, body } = options;
    void submission.run(async () => {
      if (id === undefined) {
        const created = await api.post<{ iri: string }>(collection, compact(body(current)) ?? {});
        route(pageOf(created.iri));
        return;
      }
      const patch = changes(body(initial), body(current));
      if (Object.keys(patch).length === 0) {
        setNote('Nothing has changed, so nothing was sent.');
        return;
      }
      const updated = await api.patch<{ iri: string }>(`${collection}/${encodeURIComponent(id)}`, patch);
      route(pageOf(updated.iri));
    });
  };
  return { ...form, save };
}
