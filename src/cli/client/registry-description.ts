import type { RegistryDescription } from '../../api/index.js';

/** What asking a registry to describe itself gave: its description, the status it answered instead, or why not. */
export type DescriptionAnswer =
  { readonly description: RegistryDescription } | { readonly status: number } | { readonly failure: unknown };

/**
 * Asks a registry for its description of itself (`GET /.well-known/reg-registry`), without a credential, giving
 * it `seconds` to answer. With `followRedirects: false` a redirect is answered as its status rather than followed
 * (the answer then decides where a credential goes). The body is the registry's word: read its members with care.
 */
export async function describeRegistry(
  url: string,
  seconds: number,
  options: { readonly fetchImpl?: typeof fetch; readonly followRedirects?: boolean } = {},
): Promise<DescriptionAnswer> {
  try {
    const response = await (options.fetchImpl ?? fetch)(`${url}/.well-known/reg-registry`, {
      headers: { accept: 'application/json' },
      ...(options.followRedirects === false ? { redirect: 'manual' as const } : {}),
      signal: AbortSignal.timeout(seconds * 1000),
    });
    if (!response.ok) return { status: response.status };
    return { description: (await response.json()) as RegistryDescription };
  } catch (failure) {
    return { failure };
  }
}
