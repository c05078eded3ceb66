/** `/auth/callback`: where the identity provider sends the browser back; finishes sign-in and returns. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { completeSignIn, SignInError } from '../auth/oidc';
import { Loading, usePageTitle } from '../components/status';
import { ErrorAlert } from './error-alert';
import './manage.css';

export default function CallbackPage() {
  const { route } = useLocation();
  const [failure, setFailure] = useState<SignInError>();
  const started = useRef(false);
  usePageTitle(failure === undefined ? 'Signing in' : 'Sign-in failed');
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    completeSignIn(new URL(location.href)).then(
      ({ next }) => route(next, true),
      (error: unknown) =>
        setFailure(
          error instanceof SignInError
            ? error
            : new SignInError('exchange', `The sign-in could not be completed: ${String(error)}.`),
        ),
    );
  }, [route]);
  if (failure === undefined) {
    return (
      <section class="manage">
        <h1>Signing in</h1>
        <Loading label="Finishing sign-in…" />
      </section>
    );
  }
  return (
    <section class="manage">
      <h1>Sign-in failed</h1>
      <ErrorAlert>{failure.message}</ErrorAlert>
      <div class="toolbar">
        <a class="button" href={`/signin?next=${encodeURIComponent(failure.next)}`}>
          Try again
        </a>
        <a class="button secondary" href={failure.next}>
          Go back without signing in
        </a>
      </div>
    </section>
  );
}
