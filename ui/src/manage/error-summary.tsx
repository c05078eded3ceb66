/**
 * The list of problems at the top of a refused form: announced (role="alert"), focused when it appears, each
 * line a link to the input it concerns; problems no input shows are listed too.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { FieldErrors, FormProblem } from './field-errors';
import { problemOf } from './field-errors';

export function ErrorSummary({ problem, errors }: { problem: FormProblem | undefined; errors: FieldErrors }) {
  const box = useRef<HTMLDivElement>(null);
  const { url } = useLocation();
  useEffect(() => {
    if (problem !== undefined) box.current?.focus();
  }, [problem]);
  if (problem === undefined) return null;
  const titleId = `${errors.form}-summary-title`;
  const count = errors.count;
  const heading =
    problem.status === 422 || problem.status === 400
      ? `The registry did not accept this: ${count === 1 ? 'one problem' : `${count} problems`} to fix`
      : problem.status === 0 && count > 0
        ? `Check ${count === 1 ? 'one field' : `${count} fields`} before sending`
        : problem.title;
  return (
    <div class="error-summary" role="alert" tabIndex={-1} ref={box} aria-labelledby={titleId}>
      <h2 id={titleId}>{heading}</h2>
      {count === 0 && problem.detail !== undefined && <p>{problem.detail}</p>}
      {count > 0 && (
        <ul>
          {errors.items.map((item) => (
            <li key={`${item.target ?? ''}${item.message}`}>
              {item.target === undefined ? (
                item.message
              ) : (
                <a href={`#${item.target}`} onClick={(event) => focusInput(event, item.target!)}>
                  {item.message}
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
      {problem.status === 401 && (
        <p>
          <a href={`/signin?next=${encodeURIComponent(url)}`}>Sign in again</a> and send it once more; what
          you entered stays here.
        </p>
      )}
    </div>
  );
}

function focusInput(event: MouseEvent, id: string): void {
  const input = document.getElementById(id);
  if (input === null) return;
  event.preventDefault();
  input.scrollIntoView({ block: 'center' });
  input.focus();
}

/** A submission: whether it is under way, and the problem it ended with. */
export function useSubmission() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<FormProblem>();
  const run = async (work: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setProblem(undefined);
    try {
      await work();
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, setProblem, run };
}
