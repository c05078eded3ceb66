/**
 * `/software/:id/tokens` and `/instance/:id/tokens`: the registry API tokens of a software record (shared by its
 * deployments to register themselves) or of one deployment. Lists them, mints one (shown once), revokes.
 */
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import {
  api,
  pageOf,
  useApi,
  type InstanceJson,
  type MintedToken,
  type SoftwareJson,
  type TokenList,
  type TokenRecord,
} from '../api';
import { ErrorNotice, Loading, usePageTitle } from '../components/status';
import { session } from '../session';
import { Allowed, curatorOr } from './access';
import { text } from './body';
import { ConfirmDialog } from './confirm-dialog';
import { ErrorAlert } from './error-alert';
import { problemOf, type FormProblem } from './field-errors';
import { CheckboxGroup, TextField } from './fields';
import { FormShell } from './form-shell';
import { useForm } from './form-state';
import { mintableScopes, scopeLabel } from './scopes';
import { ShownOnce } from './shown-once';
import { TokenTable } from './token-table';
import './manage.css';

const FORM = 'token';
const DEFAULT_SCOPES = {
  software: ['register:instance', 'advertise:produce', 'advertise:consume'],
  instance: ['advertise:produce', 'advertise:consume'],
};

export default function TokensPage() {
  const { params } = useRoute();
  const { path } = useLocation();
  const kind = path.startsWith('/software/') ? 'software' : 'instance';
  const base = `/api/v1/${kind === 'software' ? 'software' : 'instances'}/${encodeURIComponent(params.id ?? '')}`;
  const principal = session.usePrincipal();
  const record = useApi<SoftwareJson | InstanceJson>(principal.authenticated ? base : null);
  const owner = record.data !== undefined && principal.instance === record.data.iri;
  const allowed = curatorOr(principal) || (kind === 'instance' && owner);
  const name =
    record.data === undefined ? undefined : 'name' in record.data ? record.data.name : record.data.label;
  usePageTitle(`API tokens${name === undefined ? '' : ` of ${name}`}`);
  return (
    <section class="manage wide">
      <h1>API tokens{name === undefined ? '' : ` of ${name}`}</h1>
      {record.data !== undefined && (
        <p>
          <a href={pageOf(record.data.iri)}>Back to {name ?? 'the record'}</a>
        </p>
      )}
      <p>
        {kind === 'software'
          ? 'A software token is shared by every deployment of this software: each one registers itself with it (PUT /api/v1/instances/self).'
          : 'A deployment token lets this deployment advertise its runs and artifacts, and manage its subscriptions.'}
      </p>
      <Allowed
        allowed={allowed}
        who={kind === 'software' ? 'curators' : 'curators, administrators and the deployment itself'}
        what="manage these tokens"
      >
        {record.error !== undefined ? (
          <ErrorNotice error={record.error} />
        ) : (
          <Tokens base={base} kind={kind} />
        )}
      </Allowed>
    </section>
  );
}

function Tokens({ base, kind }: { base: string; kind: 'software' | 'instance' }) {
  const principal = session.usePrincipal();
  // Software tokens are a curator's to issue; a token for one deployment is an administrator's.
  const mayMint = kind === 'software' ? curatorOr(principal) : principal.is_admin;
  const tokens = useApi<TokenList>(`${base}/tokens`);
  const [minted, setMinted] = useState<MintedToken>();
  const [revoking, setRevoking] = useState<TokenRecord>();
  const [revokeProblem, setRevokeProblem] = useState<FormProblem>();
  const [busy, setBusy] = useState(false);
  const revoke = async () => {
    if (revoking === undefined) return;
    setBusy(true);
    try {
      await api.delete(`${base}/tokens/${encodeURIComponent(revoking.id)}`);
      setRevokeProblem(undefined);
    } catch (error) {
      setRevokeProblem(problemOf(error));
    }
    setBusy(false);
    setRevoking(undefined);
    tokens.reload();
  };
  return (
    <>
      {minted !== undefined && (
        <ShownOnce
          id="new-token"
          title="Your new token"
          label="Token"
          secret={minted.token}
          onDone={() => setMinted(undefined)}
        >
          {minted.usage !== undefined && <p>{minted.usage}</p>}
        </ShownOnce>
      )}
      <h2>Tokens</h2>
      {revokeProblem !== undefined && (
        <ErrorAlert>the token was not revoked: {revokeProblem.detail ?? revokeProblem.title}</ErrorAlert>
      )}
      {tokens.error !== undefined ? (
        <ErrorNotice error={tokens.error} />
      ) : tokens.data === undefined ? (
        <Loading />
      ) : (
        <TokenTable tokens={tokens.data.items} onRevoke={setRevoking} />
      )}
      {mayMint ? (
        <MintForm
          base={base}
          kind={kind}
          onMinted={(result) => {
            setMinted(result);
            tokens.reload();
          }}
        />
      ) : (
        <p class="notice">
          Only an administrator issues tokens for one deployment. A curator can issue a token for its software
          instead, with which each deployment registers and updates itself.
        </p>
      )}
      <ConfirmDialog
        open={revoking !== undefined}
        title="Revoke this token?"
        confirm="Revoke token"
        busy={busy}
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(undefined)}
      >
        <p>
          Token <code>reg_{revoking?.prefix}_…</code>
          {revoking?.label ? ` (${revoking.label})` : ''} stops working at once, wherever it is used. This
          cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}

function MintForm(props: {
  base: string;
  kind: 'software' | 'instance';
  onMinted: (minted: MintedToken) => void;
}) {
  const principal = session.usePrincipal();
  const form = useForm({
    form: FORM,
    initial: () => ({ label: '', scopes: DEFAULT_SCOPES[props.kind], expires: '90d' }),
    fields: () => ['label', 'scopes', 'expires_in'],
  });
  const { label, scopes, expires } = form.state;
  const options = mintableScopes(principal).map((scope) => ({
    value: scope,
    label: scopeLabel(scope),
  }));
  const submit = () => {
    void form.submission.run(async () => {
      const minted = await api.post<MintedToken>(`${props.base}/tokens`, {
        ...(text(label) === undefined ? {} : { label: text(label) }),
        scopes,
        ...(text(expires) === undefined ? {} : { expires_in: text(expires) }),
      });
      form.set('label')('');
      props.onMinted(minted);
    });
  };
  return (
    <section aria-labelledby="mint-title">
      <h2 id="mint-title">New token</h2>
      <FormShell form={form} onSubmit={submit} submit="Create token" sending="Creating…">
        <TextField
          name="label"
          label="Label"
          hint="What or who will use it, so you recognise it in this list."
          value={label}
          onValue={form.set('label')}
        />
        <CheckboxGroup
          name="scopes"
          legend="Scopes"
          hint="What the token may do."
          options={options}
          values={scopes}
          onValues={form.set('scopes')}
        />
        <TextField
          name="expires_in"
          label="Expires in"
          hint="A duration such as 90d, 12h or 30m; leave empty for a token that does not expire."
          value={expires}
          onValue={form.set('expires')}
        />
      </FormShell>
    </section>
  );
}
