/** `/runs`: runs, filtered by deployment, software, status and free text, with paging. */
import { DeploymentSelect, SelectFilter, SoftwareSelect, TextFilter } from '../components/filters';
import { ListPage } from '../components/list-page';
import { RunTable } from '../components/record-sections';

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
  return (
    <ListPage
      title="Runs"
      path="/api/v1/runs"
      filters={FILTERS}
      inputs={['q', 'instance', 'software', 'status']}
      one="run"
      many="runs"
      table={RunTable}
    >
      {(draft) => (
        <>
          <TextFilter binding={draft.field('q')} label="Label or identifier" />
          <DeploymentSelect binding={draft.field('instance')} />
          <SoftwareSelect binding={draft.field('software')} />
          <SelectFilter binding={draft.field('status')} label="Status" options={STATUSES} />
        </>
      )}
    </ListPage>
  );
}
