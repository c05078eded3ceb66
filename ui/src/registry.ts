/** What the registry says about itself (`/.well-known/reg-registry`, public even when reads are private). */
import { useEffect, useState } from 'preact/hooks';
import type { RegistryDescription } from './api';

let cached: Promise<RegistryDescription> | undefined;
/** The base IRI: the server writes it into the shell; the description fetched below confirms it. */
let base: string | undefined =
  document.querySelector('meta[name="reg-base-iri"]')?.getAttribute('content')?.replace(/\/+$/, '') ??
  undefined;

/** The registry's base IRI (from the shell, or once its description has loaded). */
export function baseIri(): string | undefined {
  return base;
}

/** The registry's self-description, fetched once per page load. */
export function registryInfo(): Promise<RegistryDescription> {
  cached ??= fetch('/.well-known/reg-registry', { headers: { accept: 'application/json' } }).then(
    async (response) => {
      if (!response.ok) throw new Error(`the registry description answered ${response.status}`);
      const info = (await response.json()) as RegistryDescription;
      base = info.base_iri.replace(/\/+$/, '');
      return info;
    },
  );
  return cached;
}

/** The registry's self-description once loaded. */
export function useRegistryInfo(): RegistryDescription | undefined {
  const [info, setInfo] = useState<RegistryDescription>();
  useEffect(() => {
    let current = true;
    registryInfo().then(
      (value) => current && setInfo(value),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);
  return info;
}
