/**
 * `/artifacts`: artifacts, filtered by type, availability, keyword, deployment, software, run, content
 * identifier (`ni:///…`) and free text, with paging.
 */
import { AVAILABILITY_OPTIONS } from '../components/badges';
import { DeploymentSelect, RecordSelect, SelectFilter, TextFilter } from '../components/filters';
import { ListPage } from '../components/list-page';
import { ArtifactTable } from '../components/record-sections';
import type { TypeJson } from '../api';

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
  return (
    <ListPage
      title="Artifacts"
      path="/api/v1/artifacts"
      filters={FILTERS}
      inputs={['q', 'conforms_to', 'availability', 'keyword', 'instance', 'content']}
      one="artifact"
      many="artifacts"
      table={ArtifactTable}
    >
      {(draft) => (
        <>
          <TextFilter binding={draft.field('q')} label="Title or description" />
          <RecordSelect
            binding={draft.field('conforms_to')}
            label="Type"
            path="/api/v1/types"
            option={(type: TypeJson) => [type.iri, type.label]}
          />
          <SelectFilter
            binding={draft.field('availability')}
            label="Availability"
            options={AVAILABILITY_OPTIONS}
          />
          <TextFilter binding={draft.field('keyword')} label="Keyword" />
          <DeploymentSelect binding={draft.field('instance')} />
          <TextFilter binding={draft.field('content')} label="Content identifier (ni:///…) or digest" />
        </>
      )}
    </ListPage>
  );
}
