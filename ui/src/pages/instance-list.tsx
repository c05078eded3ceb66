/** `/instances`: deployments, filtered by software, health, availability and free text, with paging. */
import { useLocation } from 'preact-iso';
import { useApi, type Page } from '../api';
import {
  ActiveFilters,
  FilterForm,
  RecordSelect,
  SelectFilter,
  TextFilter,
  useFilterDraft,
} from '../components/filters';
import { PAGING, Pager, ResultCount } from '../components/pager';
import { AVAILABILITY_OPTIONS } from '../components/record-bits';
import { DeploymentTable } from '../components/record-sections';
import type { Instance, Software } from '../components/record-types';
import { Loading, usePageTitle } from '../components/status';

const FILTERS: Readonly<Record<string, string>> = {
  q: 'Text',
  software: 'Software',
  release: 'Release',
  health: 'Health',
  availability: 'Availability',
  registry: 'Registry',
};
const HEALTH = [
  ['up', 'up'],
  ['down', 'down'],
  ['unknown', 'unknown (not probed)'],
] as const;

export default function InstanceList() {
  usePageTitle('Deployments');
  const { query } = useLocation();
  const list = useApi<Page<Instance>>(
    '/api/v1/instances',
    Object.fromEntries([...Object.keys(FILTERS), ...PAGING].map((name) => [name, query[name]])),
  );
  const draft = useFilterDraft(['q', 'software', 'health', 'availability']);
  return (
    <>
      <h1>Deployments</h1>
      <FilterForm draft={draft} label="Filter deployments">
        <TextFilter binding={draft.field('q')} label="Label or description" />
        <RecordSelect
          binding={draft.field('software')}
          label="Software"
          path="/api/v1/software"
          option={(software: Software) => [software.id, software.name]}
        />
        <SelectFilter binding={draft.field('health')} label="Health" options={HEALTH} />
        <SelectFilter
          binding={draft.field('availability')}
          label="Availability"
          options={AVAILABILITY_OPTIONS}
        />
      </FilterForm>
      <ActiveFilters names={FILTERS} />
      <ResultCount total={list.data?.total} one="deployment" many="deployments" />
      {list.loading && list.data !== undefined && <Loading label="Updating…" />}
      <DeploymentTable state={list} empty="No deployments match these filters." />
      {list.data !== undefined && (
        <Pager shown={list.data.items.length} total={list.data.total} next={list.data.next_cursor} />
      )}
    </>
  );
}
