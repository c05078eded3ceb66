/**
 * The identifiers of the packaging formats the registry writes and reads: RO-Crate and its Workflow Run profiles,
 * CodeMeta and the Citation File Format. Kept in one place so that no module spells one out by hand.
 */

/** The RO-Crate version written: its JSON-LD context and the permalink the metadata descriptor conforms to. */
export const RO_CRATE = {
  context: 'https://w3id.org/ro/crate/1.3/context',
  spec: 'https://w3id.org/ro/crate/1.3',
  /** Every RO-Crate specification a crate read in may conform to (its permalink starts so). */
  specPrefix: 'https://w3id.org/ro/crate/',
  /** The RO-Crate contexts a crate read in may name (1.1 onwards share the terms this registry reads). */
  contextPrefix: 'https://w3id.org/ro/crate/',
  metadataFile: 'ro-crate-metadata.json',
  previewFile: 'ro-crate-preview.html',
} as const;

/** The Workflow Run RO-Crate profiles (version 0.6, which builds on RO-Crate 1.3). */
export const RUN_PROFILES = {
  process: { iri: 'https://w3id.org/ro/wfrun/process/0.6', name: 'Process Run Crate', version: '0.6' },
  workflow: { iri: 'https://w3id.org/ro/wfrun/workflow/0.6', name: 'Workflow Run Crate', version: '0.6' },
  /** The workflow-run terms context, named by crates that use its terms. */
  termsContext: 'https://w3id.org/ro/terms/workflow-run/context',
  /** Every version of the profiles a crate read in may conform to. */
  prefix: 'https://w3id.org/ro/wfrun/',
} as const;

/** The Workflow RO-Crate profile a Workflow Run Crate's root also conforms to. */
export const WORKFLOW_RO_CRATE = {
  iri: 'https://w3id.org/workflowhub/workflow-ro-crate/1.1',
  name: 'Workflow RO-Crate',
  version: '1.1',
} as const;

/** schema.org action statuses, by the local name a crate writes (the RO-Crate context maps them to schema.org). */
export const ACTION_STATUSES = {
  CompletedActionStatus: 'success',
  FailedActionStatus: 'failed',
  ActiveActionStatus: 'running',
} as const;

/** The CodeMeta 3 JSON-LD context. */
export const CODEMETA_CONTEXT = 'https://w3id.org/codemeta/3.0';

/** The Citation File Format version written. */
export const CFF_VERSION = '1.2.0';

/** The SPDX licence list namespace, where a licence IRI's last segment is its SPDX identifier. */
export const SPDX_LICENSES = ['http://spdx.org/licenses/', 'https://spdx.org/licenses/'] as const;

/** The SPDX identifier of a licence IRI of the SPDX licence list, if it is one. */
export function spdxIdOf(iri: string): string | undefined {
  for (const prefix of SPDX_LICENSES)
    if (iri.startsWith(prefix)) {
      const id = iri
        .slice(prefix.length)
        .replace(/\.html$/, '')
        .replace(/\/$/, '');
      return id === '' || id.includes('/') ? undefined : id;
    }
  return undefined;
}

/** A schema.org term as RO-Crate writes values of it (the `http:` form its context maps terms to). */
export function schemaOrg(local: string): string {
  return `http://schema.org/${local}`;
}

/** A licence of the SPDX list under the IRI the registry records it by (`https://spdx.org/licenses/<id>`). */
export function spdxLicense(iri: string): string {
  const id = spdxIdOf(iri);
  return id === undefined ? iri : `https://spdx.org/licenses/${id}`;
}
