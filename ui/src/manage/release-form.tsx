/** `/software/:id/releases/new`: a new release of a software record; goes to the release's page when made. */
import { useRoute } from 'preact-iso';
import { pageOf, useApi, type SoftwareJson } from '../api';
import { ErrorNotice, Loading, usePageTitle } from '../components/status';
import { session } from '../session';
import { Allowed, curatorOr } from './access';
import { CapabilityFields } from './capability-fields';
import { DownloadFields } from './download-fields';
import { TextField } from './fields';
import { FormShell } from './form-shell';
import { useRecordForm } from './form-state';
import { EMPTY_RELEASE, releaseBody, releaseFields, type ReleaseState } from './release-model';
import './manage.css';

const FORM = 'release';

export default function ReleaseFormPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const principal = session.usePrincipal();
  const allowed = curatorOr(principal, 'register:software');
  const software = useApi<SoftwareJson>(allowed ? `/api/v1/software/${encodeURIComponent(id)}` : null);
  const name = software.data?.name;
  usePageTitle(name === undefined ? 'New release' : `New release of ${name}`);
  return (
    <section class="manage">
      <h1>New release{name === undefined ? '' : ` of ${name}`}</h1>
      <Allowed allowed={allowed} who="curators" what="add releases">
        {software.error !== undefined ? (
          <ErrorNotice error={software.error} what="This software" />
        ) : software.data === undefined ? (
          <Loading />
        ) : (
          <ReleaseForm id={id} software={software.data} />
        )}
      </Allowed>
    </section>
  );
}

function ReleaseForm({ id, software }: { id: string; software: SoftwareJson }) {
  const form = useRecordForm({
    form: FORM,
    initial: EMPTY_RELEASE,
    fields: releaseFields,
    collection: `/api/v1/software/${encodeURIComponent(id)}/releases`,
    body: releaseBody,
    missing: (state: ReleaseState) =>
      state.version.trim() === '' ? [{ field: 'version', message: 'Give the release a version.' }] : [],
  });
  const { state, set } = form;
  return (
    <FormShell form={form} onSubmit={() => form.save()} submit="Add release" cancel={pageOf(software.iri)}>
      <fieldset class="group">
        <legend>Release</legend>
        <TextField name="version" label="Version" required value={state.version} onValue={set('version')} />
        <TextField
          name="date_published"
          label="Date published"
          type="date"
          value={state.date_published}
          onValue={set('date_published')}
        />
        <TextField
          name="changelog"
          label="Release notes or changelog"
          type="url"
          value={state.changelog}
          onValue={set('changelog')}
        />
      </fieldset>
      <fieldset class="group">
        <legend>How to install it</legend>
        <TextField
          name="container_image"
          label="Container image"
          hint="For example ghcr.io/org/tool:1.2.0."
          value={state.container_image}
          onValue={set('container_image')}
        />
        <TextField
          name="image_digest"
          label="Image digest"
          hint="With its algorithm, such as sha256:…"
          value={state.image_digest}
          onValue={set('image_digest')}
        />
        <TextField
          name="install_command"
          label="Install command"
          value={state.install_command}
          onValue={set('install_command')}
        />
      </fieldset>
      <DownloadFields form={FORM} value={state.downloads} onValue={set('downloads')} />
      <CapabilityFields what="this release" value={state.capability} onValue={set('capability')} />
    </FormShell>
  );
}
