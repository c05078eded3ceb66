/**
 * What every management form has around its fields: the error summary on top, and a toolbar with the submit
 * button, a Cancel link where there is somewhere to go back to, and a status line read out while it sends.
 */
import type { ComponentChildren } from 'preact';
import { ErrorSummary } from './error-summary';
import { FormScope } from './fields';
import type { useForm } from './form-state';

export function FormShell(props: {
  form: Pick<ReturnType<typeof useForm>, 'errors' | 'submission' | 'note'>;
  onSubmit: () => void;
  /** The submit button's label. */
  submit: string;
  /** The status while it sends. */
  sending?: string;
  /** Where Cancel goes; no Cancel link without it. */
  cancel?: string | undefined;
  describedBy?: string;
  children: ComponentChildren;
}) {
  const { errors, submission, note } = props.form;
  return (
    <FormScope errors={errors}>
      <form
        class="record-form"
        onSubmit={(event) => {
          event.preventDefault();
          props.onSubmit();
        }}
        noValidate
        aria-describedby={props.describedBy}
      >
        <ErrorSummary problem={submission.problem} errors={errors} />
        {props.children}
        <div class="toolbar">
          <button type="submit" disabled={submission.busy}>
            {props.submit}
          </button>
          {props.cancel !== undefined && (
            <a class="button secondary" href={props.cancel}>
              Cancel
            </a>
          )}
          <span role="status" aria-live="polite">
            {submission.busy ? (props.sending ?? 'Saving…') : note}
          </span>
        </div>
      </form>
    </FormScope>
  );
}
