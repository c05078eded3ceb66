/**
 * `/subscriptions/:id/log`: the webhook delivery log of one subscription, newest attempt first, with what the
 * receiver answered, paged towards older attempts, and a way to send one delivery again.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import type { DeliveryAttempt, DeliveryLog, SubscriptionDetail } from '../../../src/api/index.js';
import { api, pageOf, useApi, type ApiError } from '../api';
import { RecordLink } from '../components/record-bits';
import { ErrorNotice, Loading, usePageTitle } from '../components/status';
import { session } from '../session';
import { ErrorAlert } from '../manage/error-alert';
import { problemOf } from '../manage/field-errors';
import { when } from '../manage/token-table';
import '../manage/manage.css';

const PAGE = 50;

/** The payload formats and signature schemes in words. */
const FORMATS: Readonly<Record<string, string>> = {
  reg: 'the registry’s own JSON',
  cloudevents: 'CloudEvents, structured mode (org.reg.artifact.advertised)',
  cdevents: 'CDEvents (artifact.published)',
};
const SIGNATURES: Readonly<Record<string, string>> = {
  reg: 'x-reg-signature (HMAC-SHA256 of the timestamp and the body)',
  'standard-webhooks': 'Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature)',
};

/** A retention in the largest whole unit: "7 days", "36 hours", "90 minutes", "1 day". */
function formatRetention(seconds: number): string {
  const units = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ] as const;
  const [size, unit] = units.find(([size]) => seconds >= size && seconds % size === 0) ?? [1, 'second'];
  const count = seconds / size;
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** Why the log cannot be shown to this visitor, and how to change that. */
function NotAllowed({ error }: { error: ApiError }) {
  const { url } = useLocation();
  const signedIn = session.token() !== undefined && !session.isExpired();
  if (error.status !== 401 && error.status !== 403)
    return <ErrorNotice error={error} what="This subscription" />;
  return (
    <div class="notice notice-error" role="alert">
      <p>
        {signedIn && error.status === 403
          ? `You may not see this delivery log: ${error.message}`
          : signedIn
            ? 'Your sign-in has expired or was revoked.'
            : 'A delivery log holds what the receiver answered: sign in as the deployment that owns the subscription, or as an administrator, to read it.'}
      </p>
      {!(signedIn && error.status === 403) && (
        <p>
          <a href={`/signin?next=${encodeURIComponent(url)}`}>Sign in</a>
        </p>
      )}
    </div>
  );
}

export default function SubscriptionLogPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const detail = useApi<SubscriptionDetail>(`/api/v1/subscriptions/${encodeURIComponent(id)}`);
  const subscription = detail.data?.subscription;
  const name =
    subscription === undefined ? undefined : (subscription.label ?? `Subscription ${subscription.id}`);
  usePageTitle(`Delivery log${name === undefined ? '' : ` of ${name}`}`);
  return (
    <section class="manage wide">
      <h1>Delivery log{name === undefined ? '' : ` of ${name}`}</h1>
      {detail.error !== undefined ? (
        <NotAllowed error={detail.error} />
      ) : subscription === undefined ? (
        <Loading />
      ) : (
        <>
          <p>
            <a href={`${pageOf(subscription.instance_iri)}/subscriptions`}>Back to the subscriptions</a>
          </p>
          <dl class="whoami">
            <dt>Webhook</dt>
            <dd>
              {subscription.webhook_url === null ? (
                'None (pull only)'
              ) : (
                <code>{subscription.webhook_url}</code>
              )}
            </dd>
            <dt>Body</dt>
            <dd>{FORMATS[subscription.format] ?? subscription.format}</dd>
            <dt>Signature</dt>
            <dd>
              {SIGNATURES[subscription.signature] ?? subscription.signature}
              {subscription.previous_secret_until !== null &&
                ` (the previous secret also signs until ${when(subscription.previous_secret_until)})`}
            </dd>
          </dl>
          <Attempts id={subscription.id} webhook={subscription.webhook_url !== null} />
        </>
      )}
    </section>
  );
}

function Attempts({ id, webhook }: { id: string; webhook: boolean }) {
  const [before, setBefore] = useState<number[]>([]);
  const cursor = before.at(-1);
  const log = useApi<DeliveryLog>(`/api/v1/subscriptions/${encodeURIComponent(id)}/log`, {
    limit: String(PAGE),
    ...(cursor === undefined ? {} : { before: String(cursor) }),
  });
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  // After moving to another page, the focus goes to its attempts rather than being lost with the button.
  const top = useRef<HTMLDivElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current || log.loading) return;
    moved.current = false;
    top.current?.focus();
  }, [log.loading, cursor]);
  const go = (next: number[]) => {
    moved.current = true;
    setBefore(next);
  };
  const redeliver = async (attempt: DeliveryAttempt) => {
    setMessage('');
    setError('');
    try {
      await api.post(
        `/api/v1/subscriptions/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(attempt.delivery_id)}/redeliver`,
      );
      setMessage(`Delivery ${attempt.delivery_id} is queued to be sent again.`);
      log.reload();
    } catch (failure) {
      const problem = problemOf(failure);
      setError(`The delivery was not queued: ${problem.detail ?? problem.title}`);
    }
  };
  if (log.error !== undefined) return <ErrorNotice error={log.error} what="The delivery log" />;
  if (log.data === undefined) return <Loading />;
  const { items, total, next_before: older, retention_seconds: retention } = log.data;
  return (
    <>
      <h2>
        Attempts ({total}, kept {formatRetention(retention)} after a delivery finishes)
      </h2>
      {message !== '' && (
        <div class="notice" role="status">
          <p>{message}</p>
        </div>
      )}
      {error !== '' && <ErrorAlert>{error}</ErrorAlert>}
      <div ref={top} tabIndex={-1} class="attempts">
        {items.length === 0 ? (
          <p class="status">No webhook attempts {cursor === undefined ? 'yet' : 'before these'}.</p>
        ) : (
          <div class="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Status</th>
                  <th scope="col">Time</th>
                  <th scope="col">Artifact</th>
                  <th scope="col">Error or answer</th>
                  <th scope="col">Retry scheduled for</th>
                  <th scope="col">Delivery now</th>
                </tr>
              </thead>
              <tbody>
                {items.map((attempt) => (
                  <tr key={attempt.id}>
                    <td>{when(attempt.at)}</td>
                    <td>{attempt.attempt}</td>
                    <td>{attempt.status_code ?? '—'}</td>
                    <td>{attempt.duration_ms} ms</td>
                    <td>
                      <RecordLink iri={attempt.artifact_iri} />
                    </td>
                    <td>
                      {attempt.error ?? '—'}
                      {attempt.response !== null && (
                        <details>
                          <summary>Answer</summary>
                          <pre>{attempt.response}</pre>
                        </details>
                      )}
                    </td>
                    <td>{when(attempt.retry_at)}</td>
                    <td>
                      {attempt.delivery_status}{' '}
                      {webhook && (
                        <button type="button" class="secondary" onClick={() => void redeliver(attempt)}>
                          Send again<span class="visually-hidden"> delivery {attempt.delivery_id}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {(before.length > 0 || older !== null) && items.length > 0 && (
          <p>
            Attempts {before.length * PAGE + 1}–{before.length * PAGE + items.length} of {total}, newest
            first.
          </p>
        )}
        <div class="toolbar">
          {before.length > 0 && (
            <button type="button" class="secondary" onClick={() => go(before.slice(0, -1))}>
              Newer attempts
            </button>
          )}
          {older !== null && (
            <button type="button" class="secondary" onClick={() => go([...before, older])}>
              Older attempts
            </button>
          )}
        </div>
      </div>
    </>
  );
}
