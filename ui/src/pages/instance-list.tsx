/** `/instances`: deployments, filtered by software, health, availability and free text, with paging. */
import { AVAILABILITY_OPTIONS } from '../components/badges';
import { SelectFilter, SoftwareSelect, TextFilter } from '../components/filters';
import { ListPage } from '../components/list-page';
import { DeploymentTable } from '../components/record-sections';

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
  return (
    <ListPage
      title="Deployments"
      path="/api/v1/instances"
      filters={FILTERS}
      inputs={['q', 'software', 'health', 'availability']}
      one="deployment"
      many="deployments"
      table={DeploymentTable}
    >
      {(draft) => (
        <>
          <TextFilter binding={draft.field('q')} label="Label or description" />
          <SoftwareSelect binding={draft.field('software')} />
          <SelectFilter binding={draft.field('health')} label="Health" options={HEALTH} />
          <SelectFilter
            binding={draft.field('availability')}
            label="Availability"
            options={AVAILABILITY_OPTIONS}
          />
        </>
      )}
    </ListPage>
  );
}
