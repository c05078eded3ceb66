/** `/instance/:id/subscriptions`: a deployment's subscriptions to advertised artifacts; create, pause, delete. */
import { useEffect, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, pageOf, useApi, withQuery, type InstanceJson, type TermJson } from '../api';
import { ErrorNotice, Loading, usePageTitle } from '../components/status';
import { session } from '../session';
import { Allowed, curatorOr } from './access';
import { ConfirmDialog } from './confirm-dialog';
import { ErrorAlert } from './error-alert';
import { problemOf } from './field-errors';
import { ShownOnce } from './shown-once';
import { SubscriptionCard } from './subscription-card';
import { SubscriptionForm } from './subscription-form';
import type { Subscription, SubscriptionWritten } from '../api';
import './manage.css';

interface Listing {
  readonly items: Subscription[];
  readonly total: number;
  readonly max_per_instance?: number;
}

export default function SubscriptionsPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const principal = session.usePrincipal();
  const record = useApi<InstanceJson>(
    principal.authenticated ? `/api/v1/instances/${encodeURIComponent(id)}` : null,
  );
  const owner = record.data !== undefined && principal.instance === record.data.iri;
  const name = record.data?.label;
  usePageTitle(`Subscriptions${name === undefined ? '' : ` of ${name}`}`);
  return (
    <section class="manage wide">
      <h1>Subscriptions{name === undefined ? '' : ` of ${name}`}</h1>
      {record.data !== undefined && (
        <p>
          <a href={pageOf(record.data.iri)}>Back to {name ?? 'the deployment'}</a>
        </p>
      )}
      <p>
        A subscription tells this deployment about artifacts other deployments advertise: by webhook, or in a
        queue it pulls from.
      </p>
      <Allowed
        allowed={curatorOr(principal) || owner}
        who="curators, administrators and the deployment itself"
        what="manage subscriptions"
      >
        {record.error !== undefined ? (
          <ErrorNotice error={record.error} what="This deployment" />
        ) : (
          <Subscriptions id={id} />
        )}
      </Allowed>
    </section>
  );
}

function Subscriptions({ id }: { id: string }) {
  const listing = useApi<Listing>(`/api/v1/instances/${encodeURIComponent(id)}/subscriptions`);
  const [created, setCreated] = useState<SubscriptionWritten>();
  const [deleting, setDeleting] = useState<Subscription>();
  const [error, setError] = useState('');
  const labels = useTypeLabels(listing.data?.items ?? []);
  const remove = async () => {
    if (deleting === undefined) return;
    try {
      await api.delete(`/api/v1/subscriptions/${encodeURIComponent(deleting.id)}`);
      setError('');
    } catch (failure) {
      const problem = problemOf(failure);
      setError(`The subscription was not deleted: ${problem.detail ?? problem.title}`);
    }
    setDeleting(undefined);
    listing.reload();
  };
  const items = listing.data?.items ?? [];
  return (
    <>
      {created !== undefined &&
        (created.secret !== null ? (
          <ShownOnce
            id="webhook-secret"
            title="Subscription created: its webhook secret"
            label="Webhook secret"
            secret={created.secret}
            onDone={() => setCreated(undefined)}
          >
            <p>
              The registry signs every webhook delivery with this secret (header x-reg-signature); check it in
              the receiver.
            </p>
          </ShownOnce>
        ) : (
          <div class="notice" role="status">
            <p>
              Subscription created. Its deliveries wait in a pull queue at{' '}
              <code>{created.subscription.pull_url}</code>.
            </p>
          </div>
        ))}
      {error !== '' && <ErrorAlert>{error}</ErrorAlert>}
      <h2>
        Subscriptions
        {listing.data?.max_per_instance !== undefined &&
          ` (${listing.data.total} of at most ${listing.data.max_per_instance})`}
      </h2>
      {listing.error !== undefined ? (
        <ErrorNotice error={listing.error} />
      ) : listing.data === undefined ? (
        <Loading />
      ) : items.length === 0 ? (
        <p class="status">No subscriptions yet.</p>
      ) : (
        items.map((subscription) => (
          <SubscriptionCard
            key={subscription.id}
            subscription={subscription}
            labels={labels}
            onChanged={() => listing.reload()}
            onDelete={setDeleting}
          />
        ))
      )}
      <section aria-labelledby="new-subscription">
        <h2 id="new-subscription">New subscription</h2>
        <SubscriptionForm
          instanceId={id}
          onCreated={(result) => {
            setCreated(result);
            listing.reload();
          }}
        />
      </section>
      <ConfirmDialog
        open={deleting !== undefined}
        title="Delete this subscription?"
        confirm="Delete subscription"
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(undefined)}
      >
        <p>
          {deleting?.label ?? 'The subscription'} and its queued deliveries are removed; nothing more is
          delivered. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** Labels of the artifact types the subscriptions name, looked up once. */
function useTypeLabels(items: readonly Subscription[]): ReadonlyMap<string, string> {
  const [labels, setLabels] = useState<ReadonlyMap<string, string>>(new Map());
  const iris = [...new Set(items.flatMap((item) => item.filter.conforms_to ?? []))].slice(0, 100).sort();
  const key = iris.join(',');
  useEffect(() => {
    if (key === '') return;
    let current = true;
    api.get<TermJson[]>(withQuery('/api/v1/vocab/resolve', { iris: key })).then(
      (terms) =>
        current &&
        setLabels(
          new Map(terms.flatMap((term) => (term.label === undefined ? [] : [[term.iri, term.label]]))),
        ),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [key]);
  return labels;
}
