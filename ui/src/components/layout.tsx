/** The frame of every page: skip link, header with navigation and sign-in state, main region, footer. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { session } from '../session';
import { useRegistryInfo } from '../registry';

const NAV: readonly (readonly [string, string])[] = [
  ['/software', 'Software'],
  ['/instances', 'Deployments'],
  ['/runs', 'Runs'],
  ['/artifacts', 'Artifacts'],
  ['/types', 'Types'],
  ['/search', 'Search'],
  ['/sparql', 'SPARQL'],
  ['/connect', 'Connect an agent'],
];

export function Layout({ children }: { children: ComponentChildren }) {
  const { path, url } = useLocation();
  const info = useRegistryInfo();
  const principal = session.usePrincipal();
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  // After client-side navigation, move focus to the new page so screen readers announce it.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus();
  }, [path]);
  const signedIn = principal.authenticated;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="site-header">
        <a class="brand" href="/">
          {info?.title ?? 'reg'}
        </a>
        <nav aria-label="Main">
          <ul>
            {NAV.map(([href, label]) => (
              <li key={href}>
                <a
                  href={href}
                  aria-current={path === href || path.startsWith(`${href}/`) ? 'page' : undefined}
                >
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="account">
          {signedIn ? (
            <>
              <span class="who" title={principal.subject}>
                {principal.display_name ?? principal.subject}
                {principal.roles.length > 0 && <span class="roles"> ({principal.roles.join(', ')})</span>}
              </span>
              <button type="button" class="link-button" onClick={() => session.signOut()}>
                Sign out
              </button>
            </>
          ) : (
            <a href={`/signin?next=${encodeURIComponent(url)}`}>Sign in</a>
          )}
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {children}
      </main>
      <footer class="site-footer">
        <p>
          {(info?.operator ?? '') !== '' && <>Operated by {info?.operator} · </>}
          Every record page is also served as Turtle, JSON-LD, N-Quads and JSON (add <code>.ttl</code>,{' '}
          <code>.jsonld</code>, <code>.nq</code> or <code>.json</code> to its address) ·{' '}
          <a href="/api/v1/registry" target="_top">
            API
          </a>
          {info?.software_version !== undefined && <> · reg {info.software_version}</>}
        </p>
      </footer>
    </>
  );
}
