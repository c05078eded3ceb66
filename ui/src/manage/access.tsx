/** Who may use a management page, and what the page says to everyone else. */
import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { Loading } from '../components/status';
import { session, type Principal } from '../session';

/** Curators, or credentials that carry `scope`. */
export function curatorOr(principal: Principal, scope?: string): boolean {
  return (
    principal.is_curator || principal.is_admin || (scope !== undefined && principal.scopes.includes(scope))
  );
}

/** The name a principal goes by. */
export function nameOf(principal: Principal): string {
  return principal.display_name ?? principal.subject;
}

/**
 * Shows `children` when `allowed`; otherwise explains who may do this and offers sign-in (or another sign-in
 * when the current one lacks the right).
 */
export function Allowed(props: { allowed: boolean; what: string; who: string; children: ComponentChildren }) {
  const principal = session.usePrincipal();
  const { url } = useLocation();
  if (props.allowed) return <>{props.children}</>;
  // Until whoami has answered for a stored credential, say nothing rather than "not signed in".
  if (!session.loaded() && session.token() !== undefined) return <Loading label="Checking your sign-in…" />;
  const signIn = `/signin?next=${encodeURIComponent(url)}`;
  return (
    <div class="notice" role="status">
      <p>
        <strong>
          Only {props.who} may {props.what}.
        </strong>{' '}
        {principal.authenticated
          ? `You are signed in as ${nameOf(principal)}, without that right.`
          : 'You are not signed in.'}
      </p>
      <p>
        <a class="button" href={signIn}>
          {principal.authenticated ? 'Sign in as someone else' : 'Sign in'}
        </a>
      </p>
    </div>
  );
}
