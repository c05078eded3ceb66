/**
 * `/software/new` and `/software/:id/edit`: a software record's fields. Creating posts the whole record and goes
 * to its page; editing sends a PATCH of only the fields that changed (null clears one).
 */
import { useRoute } from 'preact-iso';
import { pageOf, useApi, type SoftwareJson } from '../api';
import { ErrorNotice, Loading, usePageTitle } from '../components/status';
import { session } from '../session';
import { Allowed, curatorOr } from './access';
import { AgentFields } from './agent-fields';
import { ApiDocFields } from './api-doc-fields';
import { CapabilityFields } from './capability-fields';
import { CheckboxField, CheckboxGroup, TextArea, TextField } from './fields';
import { FormShell } from './form-shell';
import { useRecordForm } from './form-state';
import { ChipPicker, IriCombobox } from './picker';
import { licenceSearch, vocabSearch } from './searches';
import {
  EMPTY_SOFTWARE,
  SOFTWARE_ALIASES,
  SOFTWARE_KINDS,
  softwareBody,
  softwareFields,
  softwareState,
  type SoftwareState,
} from './software-model';
import './manage.css';

const FORM = 'software';
const searchTopics = vocabSearch('topic');

export default function SoftwareFormPage() {
  const { params } = useRoute();
  const id = params.id;
  const principal = session.usePrincipal();
  usePageTitle(id === undefined ? 'New software' : 'Edit software');
  if (id === undefined) {
    return (
      <section class="manage">
        <h1>New software</h1>
        <Allowed allowed={curatorOr(principal, 'register:software')} who="curators" what="register software">
          <SoftwareForm />
        </Allowed>
      </section>
    );
  }
  return <EditSoftware id={id} allowed={curatorOr(principal)} />;
}

function EditSoftware({ id, allowed }: { id: string; allowed: boolean }) {
  const record = useApi<SoftwareJson>(allowed ? `/api/v1/software/${encodeURIComponent(id)}` : null);
  return (
    <section class="manage">
      <h1>Edit {record.data?.name ?? 'software'}</h1>
      <Allowed allowed={allowed} who="curators" what="edit software records">
        {record.error !== undefined ? (
          <ErrorNotice error={record.error} what="This software" />
        ) : record.data === undefined ? (
          <Loading />
        ) : (
          <SoftwareForm record={record.data} id={id} />
        )}
      </Allowed>
    </section>
  );
}

function SoftwareForm({ record, id }: { record?: SoftwareJson; id?: string }) {
  const form = useRecordForm({
    form: FORM,
    initial: () => (record === undefined ? EMPTY_SOFTWARE : softwareState(record)),
    fields: softwareFields,
    aliases: SOFTWARE_ALIASES,
    collection: '/api/v1/software',
    id,
    body: softwareBody,
    missing: (state: SoftwareState) =>
      state.name.trim() === '' ? [{ field: 'name', message: 'Give the software a name.' }] : [],
  });
  const { state, set } = form;
  return (
    <FormShell
      form={form}
      onSubmit={() => form.save()}
      submit={id === undefined ? 'Register software' : 'Save changes'}
      cancel={record === undefined ? undefined : pageOf(record.iri)}
      describedBy={`${FORM}-required`}
    >
      <p class="hint" id={`${FORM}-required`}>
        Only the name is required. The registry checks everything when you save and says what to fix.
      </p>
      <fieldset class="group">
        <legend>About</legend>
        <TextField name="name" label="Name" required value={state.name} onValue={set('name')} />
        <TextField
          name="tagline"
          label="Tagline"
          hint="One line that says what it does."
          value={state.tagline}
          onValue={set('tagline')}
        />
        <TextArea
          name="description"
          label="Description"
          value={state.description}
          onValue={set('description')}
        />
        <CheckboxGroup
          name="kinds"
          legend="Kinds"
          options={SOFTWARE_KINDS}
          values={state.kinds}
          onValues={set('kinds')}
        />
        <TextField
          name="maturity"
          label="Maturity"
          hint="For example active, wip, inactive."
          value={state.maturity}
          onValue={set('maturity')}
        />
        <TextField
          name="keywords"
          label="Keywords"
          hint="Separated by commas."
          value={state.keywords}
          onValue={set('keywords')}
        />
        <ChipPicker
          name="topics"
          label="Topics"
          hint="Research topics, chosen from the registry's vocabulary."
          search={searchTopics}
          values={state.topics}
          onValues={set('topics')}
        />
      </fieldset>
      <fieldset class="group">
        <legend>Links and licence</legend>
        <IriCombobox
          name="license"
          label="Licence"
          hint="The licence's IRI, such as https://spdx.org/licenses/Apache-2.0; type a name to search."
          search={licenceSearch}
          value={state.license}
          onValue={set('license')}
        />
        <TextField
          name="homepage"
          label="Homepage"
          type="url"
          value={state.homepage}
          onValue={set('homepage')}
        />
        <TextField
          name="code_repository"
          label="Code repository"
          type="url"
          value={state.code_repository}
          onValue={set('code_repository')}
        />
        <TextField
          name="documentation"
          label="Documentation"
          type="url"
          value={state.documentation}
          onValue={set('documentation')}
        />
        <TextField
          name="download_url"
          label="Download page"
          type="url"
          value={state.download_url}
          onValue={set('download_url')}
        />
      </fieldset>
      <fieldset class="group">
        <legend>Deployments</legend>
        <CheckboxField
          name="deployable"
          label="Deployable: it can be hosted as a deployment with an endpoint"
          checked={state.deployable}
          onChecked={set('deployable')}
        />
        <TextField
          name="registration_clients"
          label="Self-registration client ids"
          hint="Identity-provider clients allowed to register deployments of this software themselves, separated by commas."
          value={state.registration_clients}
          onValue={set('registration_clients')}
        />
        <TextField
          name="registration_issuer"
          label="Issuer of those clients"
          type="url"
          hint="Leave empty for the registry's own identity provider."
          value={state.registration_issuer}
          onValue={set('registration_issuer')}
        />
      </fieldset>
      <CapabilityFields what="the software" value={state.capability} onValue={set('capability')} />
      <fieldset class="group">
        <legend>Readme</legend>
        <TextArea
          name="readme"
          label="Readme (Markdown)"
          rows={8}
          value={state.readme}
          onValue={set('readme')}
        />
        <TextField
          name="readme_base_url"
          label="Base URL of the readme"
          type="url"
          hint="Relative links and images in the readme are resolved against it."
          value={state.readme_base_url}
          onValue={set('readme_base_url')}
        />
      </fieldset>
      <ApiDocFields form={FORM} value={state.api_docs} onValue={set('api_docs')} />
      <AgentFields
        name="publisher"
        legend="Publisher"
        members={['name', 'kind', 'homepage']}
        value={state.publisher}
        onValue={set('publisher')}
      />
      <AgentFields
        name="contact"
        legend="Contact"
        members={['name', 'kind', 'email']}
        value={state.contact}
        onValue={set('contact')}
      />
    </FormShell>
  );
}
