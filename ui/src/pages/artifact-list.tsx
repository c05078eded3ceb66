/**
 * `/artifacts`: artifacts, filtered by type, availability, keyword, deployment, software, run, content
 * identifier (`ni:///…`) and free text, with paging.
 */
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
import { ArtifactTable } from '../components/record-sections';
import type { Artifact, ArtifactType, Instance } from '../components/record-types';
import { Loading, usePageTitle } from '../components/status';

const FILTERS: Readonly<Record<string, string>> = {
  q: 'Text',
  conforms_to: 'Type',
  availability: 'Availability',
  keyword: 'Keyword',
  instance: 'Deployment',
  software: 'Software',
  run: 'Run',
  content: 'Content',
  license: 'Licence',
  registry: 'Registry',
};

export default function ArtifactList() {
  usePageTitle('Artifacts');
  const { query } = useLocation();
  const list = useApi<Page<Artifact>>(
    '/api/v1/artifacts',
    Object.fromEntries([...Object.keys(FILTERS), ...PAGING].map((name) => [name, query[name]])),
  );
  const draft = useFilterDraft(['q', 'conforms_to', 'availability', 'keyword', 'instance', 'content']);
  return (
    <>
      <h1>Artifacts</h1>
      <FilterForm draft={draft} label="Filter artifacts">
        <TextFilter binding={draft.field('q')} label="Title or description" />
        <RecordSelect
          binding={draft.field('conforms_to')}
          label="Type"
          path="/api/v1/types"
          option={(type: ArtifactType) => [type.iri, type.label]}
        />
        <SelectFilter
          binding={draft.field('availability')}
          label="Availability"
          options={AVAILABILITY_OPTIONS}
        />
        <TextFilter binding={draft.field('keyword')} label="Keyword" />
        <RecordSelect
          binding={draft.field('instance')}
          label="Deployment"
          path="/api/v1/instances"
          option={(instance: Instance) => [instance.id, instance.label ?? instance.id]}
        />
        <TextFilter binding={draft.field('content')} label="Content identifier (ni:///…) or digest" />
      </FilterForm>
      <ActiveFilters names={FILTERS} />
      <ResultCount total={list.data?.total} one="artifact" many="artifacts" />
      {list.loading && list.data !== undefined && <Loading label="Updating…" />}
      <ArtifactTable state={list} empty="No artifacts match these filters." />
      {list.data !== undefined && (
        <Pager shown={list.data.items.length} total={list.data.total} next={list.data.next_cursor} />
      )}
    </>
  );
}
