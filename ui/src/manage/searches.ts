/** What the pickers search: vocabulary terms, licences, software records and deployments. */
import { api, type Page } from '../api';
import type { Choice, Search } from './picker';

interface Term {
  readonly iri: string;
  readonly label?: string;
  readonly definition?: string;
}

/** A term as a chip: its label, with the IRI when it has none. */
export function termChoice(term: Term): Choice {
  return {
    value: term.iri,
    label: term.label ?? term.iri,
    ...(term.definition === undefined ? {} : { detail: term.definition }),
  };
}

/** Terms of one vocabulary branch: `data` (artifact types) or `topic` (research topics). */
export function vocabSearch(branch: 'data' | 'topic'): Search {
  return async (q) =>
    (await api.get<{ items: Term[] }>('/api/v1/vocab/search', { q, branch, limit: 12 })).items.map(
      termChoice,
    );
}

/** Licences the registry holds (SPDX and adopted ones). */
export const licenceSearch: Search = async (q) =>
  (await api.get<{ items: (Term & { id?: string })[] }>('/api/v1/licenses', { q, limit: 12 })).items.map(
    (licence) => ({
      value: licence.iri,
      label: licence.label ?? licence.iri,
      detail: licence.id ?? licence.iri,
    }),
  );

/** Software records by name. */
export const softwareSearch: Search = async (q) =>
  (
    await api.get<Page<{ iri: string; name?: string; tagline?: string }>>('/api/v1/software', {
      q,
      limit: 12,
    })
  ).items.map((software) => ({
    value: software.iri,
    label: software.name ?? software.iri,
    ...(software.tagline === undefined ? {} : { detail: software.tagline }),
  }));

/** Deployments by label. */
export const instanceSearch: Search = async (q) =>
  (
    await api.get<Page<{ iri: string; label?: string; software_name?: string }>>('/api/v1/instances', {
      q,
      limit: 12,
    })
  ).items.map((instance) => ({
    value: instance.iri,
    label: instance.label ?? instance.iri,
    ...(instance.software_name === undefined ? {} : { detail: `of ${instance.software_name}` }),
  }));
