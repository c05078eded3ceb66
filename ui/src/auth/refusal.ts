/** Why the registry refuses a bearer: the `detail` of the 401 `whoami` answers with it, if any. */
export async function refusalOf(token: string): Promise<string | undefined> {
  try {
    const response = await fetch('/api/v1/whoami', {
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    });
    if (response.ok) return undefined;
    const problem = (await response.json()) as { detail?: unknown; title?: unknown };
    if (typeof problem.detail === 'string') return problem.detail;
    return typeof problem.title === 'string' ? problem.title : undefined;
  } catch {
    return undefined;
  }
}
