/** One subscription: what it matches, where deliveries go, its state, actions, and its recent deliveries. */
import { useState } from 'preact/hooks';
import { api, idOf, pageOf, useApi } from '../api';
import { ErrorNotice, Loading } from '../components/status';
import { problemOf } from './field-errors';
import type { Delivery, Subscription, SubscriptionFilterJson as SubscriptionFilter } from '../api';
import { FORMATS, SIGNATURES } from './subscription-form';
import { when } from './token-table';

/** The short name of a webhook's body format or signature scheme. */
const nameOf = (choices: readonly { value: string; name: string }[], value: string): string =>
  choices.find((choice) => choice.value === value)?.name ?? value;

/** The filter in words; labels for type IRIs when the page knows them. */
export function filterSummary(filter: SubscriptionFilter, labels: ReadonlyMap<string, string>): string[] {
  const names = (iris: readonly string[] | undefined) =>
    (iris ?? []).map((iri) => labels.get(iri) ?? idOf(iri));
  const parts: string[] = [];
  const add = (title: string, values: readonly string[]) => {
    if (values.length > 0) parts.push(`${title}: ${values.join(' or ')}`);
  };
  add('Types', names(filter.conforms_to));
  add('Software', names(filter.software));
  add('Deployments', names(filter.instance));
  add('Keywords', filter.keywords ?? []);
  add('Licences', names(filter.license));
  add('Availability', filter.availability ?? []);
  // One substring, or several of which any matches.
  const words = typeof filter.q === 'string' ? [filter.q] : (filter.q ?? []);
  if (words.length > 0) parts.push(`Text: ${words.map((word) => `“${word}”`).join(' or ')}`);
  parts.push(
    `Roles: ${filter.roles !== undefined && filter.roles.length > 0 ? filter.roles.join(' and ') : 'produced'}`,
  );
  parts.push(filter.exclude_own === false ? 'Includes its own artifacts' : 'Leaves out its own artifacts');
  return parts;
}

export function SubscriptionCard(props: {
  subscription: Subscription;
  labels: ReadonlyMap<string, string>;
  onChanged: () => void;
  onDelete: (subscription: Subscription) => void;
}) {
  const s = props.subscription;
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const patch = async (body: Record<string, unknown>) => {
    setBusy(true);
    setError('');
    try {
      await api.patch(`/api/v1/subscriptions/${encodeURIComponent(s.id)}`, body);
      props.onChanged();
    } catch (failure) {
      const problem = problemOf(failure);
      setError(problem.detail ?? problem.title);
    }
    setBusy(false);
  };
  const name = s.label ?? `Subscription ${s.id}`;
  const headingId = `subscription-${s.id}`;
  return (
    <article class="subscription" aria-labelledby={headingId}>
      <h3 id={headingId}>{name}</h3>
      <dl class="whoami">
        <dt>Matches</dt>
        <dd>
          <ul>
            {filterSummary(s.filter, props.labels).map((part) => (
              <li key={part}>{part}</li>
            ))}
          </ul>
        </dd>
        <dt>Delivery</dt>
        <dd>
          {s.webhook_url === null ? (
            <>
              Pull queue: <code>{s.pull_url}</code>
            </>
          ) : (
            <>
              Webhook to <code>{s.webhook_url}</code> ({nameOf(FORMATS, s.format ?? 'reg')}, signed with{' '}
              {nameOf(SIGNATURES, s.signature ?? 'reg')})
            </>
          )}
        </dd>
        <dt>State</dt>
        <dd>
          <span class={`badge ${s.enabled ? 'badge-ok' : 'badge-warn'}`}>
            {s.enabled ? 'Enabled' : 'Disabled'}
          </span>{' '}
          {s.delivery_state === 'suspended' && (
            <span class="badge badge-error">Webhook suspended after {s.consecutive_failures} failures</span>
          )}
        </dd>
        <dt>Queue</dt>
        <dd>
          {s.pending_count} pending, {s.failed_count} failed, {s.dead_count} given up, {s.unacked_count} not
          yet acknowledged
        </dd>
        {s.last_error !== null && (
          <>
            <dt>Last error</dt>
            <dd>{s.last_error}</dd>
          </>
        )}
        <dt>Last match</dt>
        <dd>{when(s.last_match_at)}</dd>
      </dl>
      <div class="toolbar">
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() => void patch({ enabled: !s.enabled })}
        >
          {s.enabled ? 'Disable' : 'Enable'}
          <span class="visually-hidden"> {name}</span>
        </button>
        {s.delivery_state === 'suspended' && (
          <button type="button" disabled={busy} onClick={() => void patch({ resume: true })}>
            Resume webhook<span class="visually-hidden"> of {name}</span>
          </button>
        )}
        {typeof s.webhook_url === 'string' && (
          <a class="button secondary" href={`/subscriptions/${encodeURIComponent(s.id)}/log`}>
            Delivery log<span class="visually-hidden"> of {name}</span>
          </a>
        )}
        <button type="button" class="secondary" onClick={() => props.onDelete(s)}>
          Delete<span class="visually-hidden"> {name}</span>
        </button>
      </div>
      {error !== '' && (
        <p class="field-error" role="alert">
          <strong>Error:</strong> {error}
        </p>
      )}
      <Deliveries id={s.id} />
    </article>
  );
}

function Deliveries({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Recent deliveries</summary>
      {open && <DeliveryTable id={id} />}
    </details>
  );
}

function DeliveryTable({ id }: { id: string }) {
  const detail = useApi<{ recent_deliveries: Delivery[] }>(`/api/v1/subscriptions/${encodeURIComponent(id)}`);
  if (detail.error !== undefined) return <ErrorNotice error={detail.error} />;
  if (detail.data === undefined) return <Loading />;
  const deliveries = detail.data.recent_deliveries;
  if (deliveries.length === 0) return <p class="status">Nothing has matched yet.</p>;
  return (
    <div class="table-scroll">
      <table>
        <thead>
          <tr>
            <th scope="col">Matched</th>
            <th scope="col">Artifact</th>
            <th scope="col">Role</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last error</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => (
            <tr key={delivery.id}>
              <td>{when(delivery.matched_at)}</td>
              <td>
                <a href={pageOf(delivery.artifact_iri)}>{idOf(delivery.artifact_iri)}</a>
              </td>
              <td>{delivery.role}</td>
              <td>
                {delivery.delivered_at === null
                  ? delivery.status
                  : `delivered ${when(delivery.delivered_at)}`}
              </td>
              <td>{delivery.attempts}</td>
              <td>{delivery.last_error ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
