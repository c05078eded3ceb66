/** What the pickers search: vocabulary terms, licences, software records and deployments. */
import {
  api,
  type InstanceJson,
  type ListPage,
  type SoftwareJson,
  type TermJson,
  type VocabHit,
} from '../api';
import type { Choice, Search } from './picker';

/** What a chip shows of a term. */
type Term = Pick<TermJson, 'iri' | 'label' | 'definition'>;

/** A term as a chip: its label, with the IRI when it has none. */
export function termChoice(term: Term): Choice {
  return {
    value: term.iri,
    label: term.label ?? term.iri,
    ...(term.definition === undefined ? {} : { detail: term.definition }),
  };
}

/** A search of one listing of the registry: the first twelve items that match, as choices. */
function listSearch<T>(
  path: string,
  toChoice: (item: T) => Choice,
  query: Readonly<Record<string, string>> = {},
): Search {
  return async (q) => (await api.get<ListPage<T>>(path, { q, ...query, limit: 12 })).items.map(toChoice);
}

/** Terms of one vocabulary branch: `data` (artifact types) or `topic` (research topics). */
export function vocabSearch(branch: 'data' | 'topic'): Search {
  return listSearch<VocabHit>('/api/v1/vocab/search', termChoice, { branch });
}

/** Licences the registry holds (SPDX and adopted ones). */
export const licenceSearch = listSearch<Term & { id?: string }>('/api/v1/licenses', (licence) => ({
  value: licence.iri,
  label: licence.label ?? licence.iri,
  detail: licence.id ?? licence.iri,
}));

/** Software records by name. */
export const softwareSearch = listSearch<SoftwareJson>('/api/v1/software', (software) => ({
  value: software.iri,
  label: software.name ?? software.iri,
  ...(software.tagline === undefined ? {} : { detail: software.tagline }),
}));

/** Deployments by label. */
export const instanceSearch = listSearch<InstanceJson>('/api/v1/instances', (instance) => ({
  value: instance.iri,
  label: instance.label ?? instance.iri,
  ...(instance.software_name === undefined ? {} : { detail: `of ${instance.software_name}` }),
}));
