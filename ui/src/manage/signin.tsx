/**
 * `/signin?next=<path>`: sign in with the registry's identity provider (when it offers people sign-in), or by
 * pasting an API token. Afterwards the page goes back to `next`, or shows who is signed in.
 */
import { useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { beginSignIn, issuerHost, oidcSettings, SignInError } from '../auth/oidc';
import { safeNext } from '../auth/next';
import { refusalOf } from '../auth/refusal';
import { Loading, usePageTitle } from '../components/status';
import { useRegistryInfo } from '../registry';
import { session } from '../session';
import { nameOf } from './access';
import { ErrorAlert } from './error-alert';
import { WhoAmI } from './whoami';
import './manage.css';

export default function SignInPage() {
  const { query, route } = useLocation();
  const next = safeNext(query.next);
  const info = useRegistryInfo();
  const principal = session.usePrincipal();
  usePageTitle('Sign in');
  const oidc = oidcSettings(info);
  const afterSignIn = () => {
    if (query.next !== undefined) route(next);
  };
  return (
    <section class="manage">
      <h1>Sign in</h1>
      {principal.authenticated && (
        <div class="notice" role="status">
          <p>
            <strong>You are signed in as {nameOf(principal)}.</strong>
          </p>
          <WhoAmI principal={principal} />
          <div class="toolbar">
            <a class="button" href={next}>
              Continue
            </a>
            <button type="button" class="secondary" onClick={() => session.signOut()}>
              Sign out
            </button>
          </div>
        </div>
      )}
      {info === undefined ? (
        <Loading />
      ) : (
        <div class="signin-options">
          {oidc !== undefined && (
            <ProviderSignIn issuer={oidc.issuer} start={() => beginSignIn(oidc, next)} />
          )}
          <PasteToken onSignedIn={afterSignIn} primary={oidc === undefined} />
        </div>
      )}
    </section>
  );
}

function ProviderSignIn({ issuer, start }: { issuer: string; start: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const host = issuerHost(issuer);
  const go = async () => {
    setBusy(true);
    setError('');
    try {
      await start();
    } catch (failure) {
      setError(
        failure instanceof SignInError || failure instanceof Error ? failure.message : String(failure),
      );
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="signin-provider">
      <h2 id="signin-provider">With your organisation's account</h2>
      <p>You will sign in at {host} and come back here.</p>
      <button type="button" onClick={() => void go()} disabled={busy}>
        Sign in with {host}
      </button>
      {busy && <Loading label={`Going to ${host}…`} />}
      {error !== '' && <ErrorAlert>{error}</ErrorAlert>}
    </section>
  );
}

function PasteToken({ onSignedIn, primary }: { onSignedIn: () => void; primary: boolean }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    const candidate = token.trim();
    if (candidate === '') {
      setError('Paste a token first.');
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError('');
    const principal = await session.signIn(candidate, 'pasted');
    setBusy(false);
    if (!principal.authenticated) {
      session.signOut();
      const reason = await refusalOf(candidate);
      setError(`The registry refused this token${reason === undefined ? '' : `: ${reason}`}.`);
      input.current?.focus();
      return;
    }
    setToken('');
    onSignedIn();
  };
  const describedBy = `signin-token-hint${error === '' ? '' : ' signin-token-error'}`;
  return (
    <section aria-labelledby="signin-paste">
      <h2 id="signin-paste">{primary ? 'With an API token' : 'Or paste an API token'}</h2>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <div class="field">
          <label for="signin-token">API token</label>
          <p class="hint" id="signin-token-hint">
            A registry API token (it starts with <code>reg_</code>) or an access token for this registry. It
            is kept for this browser tab only and forgotten when you sign out or close the tab.
          </p>
          <input
            id="signin-token"
            ref={input}
            name="token"
            type="password"
            autoComplete="off"
            spellcheck={false}
            value={token}
            onInput={(event) => setToken(event.currentTarget.value)}
            aria-describedby={describedBy}
            aria-invalid={error === '' ? undefined : 'true'}
          />
          {error !== '' && (
            <p class="field-error" id="signin-token-error" role="alert">
              <strong>Error:</strong> {error}
            </p>
          )}
        </div>
        <button type="submit" disabled={busy} class={primary ? undefined : 'secondary'}>
          Sign in with this token
        </button>
      </form>
    </section>
  );
}
