/**
 * `/instances/new?software=<id>` and `/instance/:id/edit`: a deployment of a software record. Creating goes to
 * the new deployment's page; editing sends a PATCH of only the changed fields.
 */
import { useRoute } from 'preact-iso';
import {
  idOf,
  pageOf,
  useApi,
  type InstanceJson,
  type ListPage,
  type ReleaseJson,
  type SoftwareJson,
} from '../api';
import { ErrorNotice, Loading, usePageTitle } from '../components/status';
import { session } from '../session';
import { Allowed, curatorOr } from './access';
import { AgentFields } from './agent-fields';
import { CapabilityFields } from './capability-fields';
import { CheckboxGroup, SelectField, TextArea, TextField } from './fields';
import { FormShell } from './form-shell';
import { useRecordForm } from './form-state';
import {
  EMPTY_INSTANCE,
  INSTANCE_FIELDS,
  instanceBody,
  instanceState,
  type InstanceState,
} from './instance-model';
import { AVAILABILITY } from './release-model';
import { KNOWN_SCOPES, scopeLabel } from './scopes';
import './manage.css';

const FORM = 'instance';

export default function InstanceFormPage() {
  const { params, query } = useRoute();
  const principal = session.usePrincipal();
  usePageTitle(params.id === undefined ? 'New deployment' : 'Edit deployment');
  if (params.id === undefined) {
    return (
      <section class="manage">
        <h1>New deployment</h1>
        <Allowed
          allowed={curatorOr(principal, 'register:instance')}
          who="curators"
          what="register deployments"
        >
          <InstanceForm software={query.software ?? ''} />
        </Allowed>
      </section>
    );
  }
  return <EditInstance id={params.id} />;
}

function EditInstance({ id }: { id: string }) {
  const principal = session.usePrincipal();
  const record = useApi<InstanceJson>(
    principal.authenticated ? `/api/v1/instances/${encodeURIComponent(id)}` : null,
  );
  // Curators edit any deployment; a deployment's own credential edits its own record.
  const allowed =
    curatorOr(principal) || (record.data !== undefined && principal.instance === record.data.iri);
  return (
    <section class="manage">
      <h1>Edit {record.data?.label ?? 'deployment'}</h1>
      {record.error !== undefined ? (
        <ErrorNotice error={record.error} what="This deployment" />
      ) : principal.authenticated && record.data === undefined ? (
        <Loading />
      ) : (
        <Allowed allowed={allowed} who="curators and the deployment itself" what="edit a deployment">
          {record.data !== undefined && <InstanceForm record={record.data} id={id} software="" />}
        </Allowed>
      )}
    </section>
  );
}

function InstanceForm({ record, id, software }: { record?: InstanceJson; id?: string; software: string }) {
  const choices = useApi<ListPage<SoftwareJson>>('/api/v1/software', { limit: 200 });
  const form = useRecordForm({
    form: FORM,
    initial: () => (record === undefined ? { ...EMPTY_INSTANCE, software } : instanceState(record)),
    fields: () => INSTANCE_FIELDS,
    collection: '/api/v1/instances',
    id,
    body: instanceBody,
    missing: (current: InstanceState) => [
      ...(current.software === ''
        ? [{ field: 'software', message: 'Choose the software this is a deployment of.' }]
        : []),
      ...(current.label.trim() === '' ? [{ field: 'label', message: 'Give the deployment a label.' }] : []),
    ],
  });
  const { state, set } = form;
  const items = choices.data?.items ?? [];
  // `?software=` may be a bare id: the option's value is the IRI.
  const chosen = items.find((item) => item.iri === state.software || item.id === state.software);
  const softwareValue = chosen?.iri ?? state.software;
  const releases = useApi<ListPage<ReleaseJson>>(
    softwareValue === '' ? null : `/api/v1/software/${encodeURIComponent(idOf(softwareValue))}/releases`,
  );
  const undeployable = chosen?.deployable === false;
  return (
    <FormShell
      form={form}
      onSubmit={() => form.save({ ...state, software: softwareValue })}
      submit={id === undefined ? 'Register deployment' : 'Save changes'}
      cancel={record === undefined ? undefined : pageOf(record.iri)}
    >
      <fieldset class="group">
        <legend>What is deployed</legend>
        {choices.error !== undefined && <ErrorNotice error={choices.error} what="The software list" />}
        <SelectField
          name="software"
          label="Software"
          required
          value={softwareValue}
          options={softwareOptions(items, softwareValue)}
          empty={choices.loading ? 'Loading…' : 'Choose the software'}
          onValue={(value) => {
            set('software')(value);
            set('release')('');
          }}
        />
        <SelectField
          name="release"
          label="Release"
          value={state.release}
          options={(releases.data?.items ?? []).map((release) => ({
            value: release.iri,
            label: release.version ?? idOf(release.iri),
          }))}
          empty="Not stated"
          onValue={set('release')}
        />
        <TextField
          name="label"
          label="Label"
          required
          hint="How people tell this deployment from others, such as its host name."
          value={state.label}
          onValue={set('label')}
        />
        <TextArea
          name="description"
          label="Description"
          value={state.description}
          onValue={set('description')}
        />
      </fieldset>
      <fieldset class="group">
        <legend>Where it runs</legend>
        <TextField
          name="endpoint_url"
          label="Endpoint URL"
          type="url"
          hint={
            undeployable
              ? 'This software is not deployable, so its deployments may not have an endpoint.'
              : 'Where its service answers; leave empty when it has none.'
          }
          value={state.endpoint_url}
          onValue={set('endpoint_url')}
        />
        <TextField
          name="health_endpoint"
          label="Health endpoint"
          type="url"
          hint="Must answer 2xx when the deployment is up. When empty, the endpoint is probed."
          value={state.health_endpoint}
          onValue={set('health_endpoint')}
        />
        <SelectField
          name="availability"
          label="Availability"
          value={state.availability}
          options={AVAILABILITY}
          empty="Not stated"
          onValue={set('availability')}
        />
        <TextField
          name="jurisdiction"
          label="Jurisdiction"
          hint="A country code such as NL."
          value={state.jurisdiction}
          onValue={set('jurisdiction')}
        />
      </fieldset>
      <AgentFields
        name="operator"
        legend="Operator"
        members={['name', 'kind', 'homepage']}
        value={state.operator}
        onValue={set('operator')}
      />
      <fieldset class="group">
        <legend>Credentials</legend>
        <TextField
          name="oidc_client_id"
          label="Identity-provider client id"
          hint="The client this deployment signs in as, so its tokens act for it."
          value={state.oidc_client_id}
          onValue={set('oidc_client_id')}
        />
        <TextField
          name="oidc_issuer"
          label="Issuer of that client"
          type="url"
          hint="Leave empty for the registry's own identity provider."
          value={state.oidc_issuer}
          onValue={set('oidc_issuer')}
        />
        <CheckboxGroup
          name="allowed_scopes"
          legend="Allowed scopes"
          hint="What this deployment's credentials may do; none means advertising both ways."
          options={KNOWN_SCOPES.filter((scope) => scope !== 'admin:*').map((scope) => ({
            value: scope,
            label: scopeLabel(scope),
          }))}
          values={state.allowed_scopes}
          onValues={set('allowed_scopes')}
        />
      </fieldset>
      <CapabilityFields what="this deployment" value={state.capability} onValue={set('capability')} />
    </FormShell>
  );
}

function softwareOptions(items: readonly SoftwareJson[], value: string) {
  const options = items.map((item) => ({ value: item.iri, label: item.name ?? item.id }));
  if (value !== '' && !options.some((option) => option.value === value))
    options.unshift({ value, label: idOf(value) });
  return options;
}
