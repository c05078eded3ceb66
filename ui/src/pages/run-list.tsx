/** `/runs`: runs, filtered by deployment, software, status and free text, with paging. */
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
import { RunTable } from '../components/record-sections';
import type { Instance, Run, Software } from '../components/record-types';
import { Loading, usePageTitle } from '../components/status';

const FILTERS: Readonly<Record<string, string>> = {
  q: 'Text',
  instance: 'Deployment',
  software: 'Software',
  status: 'Status',
  registry: 'Registry',
};
const STATUSES = ['success', 'failed', 'running', 'aborted', 'unknown'].map(
  (status) => [status, status] as const,
);

export default function RunList() {
  usePageTitle('Runs');
  const { query } = useLocation();
  const list = useApi<Page<Run>>(
    '/api/v1/runs',
    Object.fromEntries([...Object.keys(FILTERS), ...PAGING].map((name) => [name, query[name]])),
  );
  const draft = useFilterDraft(['q', 'instance', 'software', 'status']);
  return (
    <>
      <h1>Runs</h1>
      <FilterForm draft={draft} label="Filter runs">
        <TextFilter binding={draft.field('q')} label="Label or identifier" />
        <RecordSelect
          binding={draft.field('instance')}
          label="Deployment"
          path="/api/v1/instances"
          option={(instance: Instance) => [instance.id, instance.label ?? instance.id]}
        />
        <RecordSelect
          binding={draft.field('software')}
          label="Software"
          path="/api/v1/software"
          option={(software: Software) => [software.id, software.name]}
        />
        <SelectFilter binding={draft.field('status')} label="Status" options={STATUSES} />
      </FilterForm>
      <ActiveFilters names={FILTERS} />
      <ResultCount total={list.data?.total} one="run" many="runs" />
      {list.loading && list.data !== undefined && <Loading label="Updating…" />}
      <RunTable state={list} empty="No runs match these filters." />
      {list.data !== undefined && (
        <Pager shown={list.data.items.length} total={list.data.total} next={list.data.next_cursor} />
      )}
    </>
  );
}
