/**
 * List filters that live in the URL query, so back/forward and shared links show the same list. Inputs edit a
 * draft; submitting routes to the new query (back to the first page), and a URL change resets the draft.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useApi, withQuery, type ListPage, type InstanceJson, type SoftwareJson } from '../api';

/** The props that tie one input or select to its query parameter. */
export interface FieldBinding {
  readonly id: string;
  readonly name: string;
  readonly value: string;
  readonly onInput: (event: Event) => void;
}

/** Where each list keeps its query parameters, and how to change them. */
export interface FilterDraft {
  readonly field: (name: string) => FieldBinding;
  readonly submit: (event: Event) => void;
}

/** A draft of the query parameters `names`, submitted to `action` (the current list when omitted). */
export function useFilterDraft(names: readonly string[], action?: string): FilterDraft {
  const { url, path, query, route } = useLocation();
  const fromQuery = () => Object.fromEntries(names.map((name) => [name, query[name] ?? '']));
  const [draft, setDraft] = useState<Record<string, string>>(fromQuery);
  // The URL changed (submitted, followed a link, back or forward): the inputs show what is in force.
  useEffect(() => setDraft(fromQuery()), [url]);
  return {
    field: (name) => ({
      id: `filter-${name}`,
      name,
      value: draft[name] ?? '',
      onInput: (event) => {
        const value = (event.currentTarget as HTMLInputElement | HTMLSelectElement).value;
        setDraft((previous) => ({ ...previous, [name]: value }));
      },
    }),
    submit: (event) => {
      event.preventDefault();
      const trimmed = Object.fromEntries(Object.entries(draft).map(([name, value]) => [name, value.trim()]));
      const target = action ?? path;
      route(withQuery(target, target === path ? { ...query, cursor: undefined, ...trimmed } : trimmed));
    },
  };
}

/** A labelled form of filters with one submit button. */
export function FilterForm({
  draft,
  label,
  button = 'Apply filters',
  children,
}: {
  draft: FilterDraft;
  label: string;
  button?: string;
  children: ComponentChildren;
}) {
  return (
    <form class="toolbar" role="search" aria-label={label} onSubmit={draft.submit}>
      {children}
      <button type="submit">{button}</button>
    </form>
  );
}

/** A labelled free-text filter. */
export function TextFilter({ binding, label }: { binding: FieldBinding; label: string }) {
  return (
    <div class="field">
      <label for={binding.id}>{label}</label>
      <input type="search" {...binding} />
    </div>
  );
}

/** A labelled choice of values; the current value stays selectable even when the options do not list it. */
export function SelectFilter({
  binding,
  label,
  options,
  any = 'Any',
}: {
  binding: FieldBinding;
  label: string;
  options: readonly (readonly [string, string])[];
  any?: string;
}) {
  const listed = binding.value === '' || options.some(([value]) => value === binding.value);
  return (
    <div class="field">
      <label for={binding.id}>{label}</label>
      <select {...binding}>
        <option value="">{any}</option>
        {!listed && <option value={binding.value}>{binding.value}</option>}
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A choice among the records of one list (`/api/v1/software`, `/api/v1/instances`, `/api/v1/types`). */
export function RecordSelect<T>({
  binding,
  label,
  path,
  option,
}: {
  binding: FieldBinding;
  label: string;
  path: string;
  option: (item: T) => readonly [string, string];
}) {
  const { data } = useApi<ListPage<T>>(path, { limit: 200 });
  return <SelectFilter binding={binding} label={label} options={(data?.items ?? []).map(option)} />;
}

/** A choice among the deployments, by id. */
export function DeploymentSelect({ binding }: { binding: FieldBinding }) {
  return (
    <RecordSelect
      binding={binding}
      label="Deployment"
      path="/api/v1/instances"
      option={(instance: InstanceJson) => [instance.id, instance.label ?? instance.id]}
    />
  );
}

/** A choice among the software, by id. */
export function SoftwareSelect({ binding }: { binding: FieldBinding }) {
  return (
    <RecordSelect
      binding={binding}
      label="Software"
      path="/api/v1/software"
      option={(software: SoftwareJson) => [software.id, software.name]}
    />
  );
}

/**
 * The filters in force, each with a link that removes it, so filters without an input of their own (facets,
 * links from other pages) can be seen and undone too. `names` gives the words for each parameter.
 */
export function ActiveFilters({
  names,
  describe = (_name, value) => value,
}: {
  names: Readonly<Record<string, string>>;
  describe?: (name: string, value: string) => string;
}) {
  const { path, query } = useLocation();
  const active = Object.keys(names).filter((name) => (query[name] ?? '') !== '');
  if (active.length === 0) return null;
  const without = (dropped: readonly string[]) =>
    withQuery(path, {
      ...query,
      cursor: undefined,
      ...Object.fromEntries(dropped.map((name) => [name, undefined])),
    });
  return (
    <ul class="active-filters" aria-label="Filters in force">
      {active.map((name) => (
        <li key={name} class="badge">
          {names[name]}: {describe(name, query[name] ?? '')}{' '}
          <a href={without([name])}>
            remove<span class="visually-hidden"> the {names[name]} filter</span>
          </a>
        </li>
      ))}
      {active.length > 1 && (
        <li>
          <a href={without(active)}>Clear all filters</a>
        </li>
      )}
    </ul>
  );
}
