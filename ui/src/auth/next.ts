/** Where to return after signing in: a path on this site only, never another origin or the sign-in pages. */
export function safeNext(raw: string | undefined | null): string {
  if (raw === undefined || raw === null || raw === '') return '/';
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  const path = raw.split(/[?#]/)[0] ?? '';
  if (path === '/signin' || path.startsWith('/auth/')) return '/';
  return raw;
}
