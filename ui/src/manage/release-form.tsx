/** `/software/:id/releases/new`: a new release of a software record; goes to the release's page when made. */
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, pageOf, useApi } from '../api';
import { ErrorNotice, Loading, usePageTitle } from '../components/status';
import { session } from '../session';
import { Allowed, curatorOr } from './access';
import { compact } from './body';
import { CapabilityFields } from './capability-fields';
import { DownloadFields } from './download-fields';
import { ErrorSummary, useSubmission } from './error-summary';
import { FieldErrors } from './field-errors';
import { FormScope, TextField } from './fields';
import { EMPTY_RELEASE, releaseBody, releaseFields, type ReleaseState } from './release-model';
import './manage.css';

const FORM = 'release';

interface SoftwareRecord {
  readonly iri: string;
  readonly name?: string;
}

export default function ReleaseFormPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const principal = session.usePrincipal();
  const allowed = curatorOr(principal, 'register:software');
  const software = useApi<SoftwareRecord>(allowed ? `/api/v1/software/${encodeURIComponent(id)}` : null);
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

function ReleaseForm({ id, software }: { id: string; software: SoftwareRecord }) {
  const { route } = useLocation();
  const [state, setState] = useState<ReleaseState>(EMPTY_RELEASE);
  const submission = useSubmission();
  const errors = new FieldErrors(FORM, submission.problem, releaseFields(state));
  const set =
    <K extends keyof ReleaseState>(key: K) =>
    (value: ReleaseState[K]) =>
      setState((previous) => ({ ...previous, [key]: value }));
  const submit = (event: Event) => {
    event.preventDefault();
    if (state.version.trim() === '') {
      submission.setProblem({
        status: 0,
        title: 'Check the form',
        errors: [{ field: 'version', message: 'Give the release a version.' }],
      });
      return;
    }
    void submission.run(async () => {
      const created = await api.post<{ iri: string }>(
        `/api/v1/software/${encodeURIComponent(id)}/releases`,
        compact(releaseBody(state)) ?? {},
      );
      route(pageOf(created.iri));
    });
  };
  return (
    <FormScope errors={errors}>
      <form class="record-form" onSubmit={submit} noValidate>
        <ErrorSummary problem={submission.problem} errors={errors} />
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
        <div class="toolbar">
          <button type="submit" disabled={submission.busy}>
            Add release
          </button>
          <a class="button secondary" href={pageOf(software.iri)}>
            Cancel
          </a>
          <span role="status" aria-live="polite">
            {submission.busy ? 'Saving…' : ''}
          </span>
        </div>
      </form>
    </FormScope>
  );
}
