/** Loading, empty and error states every page shows the same way. */
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { ApiError } from '../api';
import { session } from '../session';
import { useRegistryInfo } from '../registry';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="status" role="status" aria-live="polite">
      {label}
    </p>
  );
}

/** A failed read: 401 offers sign-in (private registries), 404 says what is missing, anything else its detail. */
export function ErrorNotice({ error, what }: { error: ApiError; what?: string }) {
  const { url } = useLocation();
  if (error.status === 401 || error.status === 403) {
    const signedIn = session.token() !== undefined && !session.isExpired();
    return (
      <div class="notice notice-error" role="alert">
        <p>
          {error.status === 401
            ? signedIn
              ? 'Your sign-in has expired or was revoked.'
              : 'This registry is private: sign in to read it.'
            : `You may not see this: ${error.message}`}
        </p>
        {(error.status === 401 || !signedIn) && (
          <p>
            <a href={`/signin?next=${encodeURIComponent(url)}`}>Sign in</a>
          </p>
        )}
      </div>
    );
  }
  return (
    <div class="notice notice-error" role="alert">
      <p>
        {error.status === 404
          ? `${what ?? 'This record'} is not in this registry.`
          : (error.problem.title ?? 'Error')}
      </p>
      {error.status !== 404 && <p>{error.message}</p>}
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="status">{children}</p>;
}

/** Sets the document title: "<page> · <registry title>". */
export function usePageTitle(title: string | undefined): void {
  const info = useRegistryInfo();
  useEffect(() => {
    const site = info?.title ?? 'reg';
    document.title = title === undefined || title === '' ? site : `${title} · ${site}`;
  }, [title, info?.title]);
}
