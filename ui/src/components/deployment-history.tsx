/**
 * The "History" section of a deployment page: what it ran over time, newest first, one row per deployment event
 * or announcement (`GET /api/v1/instances/{id}/history`), with the version and environment before and after.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { idOf, isLocal, useApi } from '../api';
import { ErrorNotice, Empty, Loading } from './status';
import { Table } from './table';
import { RecordLink, When } from './record-bits';

/** What a deployment ran at one moment. */
interface DeploymentState {
  readonly release: string | null;
  readonly version: string | null;
  readonly environment: string | null;
  readonly running: boolean;
}

/** One history entry. */
interface HistoryEntry {
  readonly id: number;
  readonly at: string;
  readonly type: string;
  readonly event_id: string | null;
  readonly sender: string;
  readonly previous: DeploymentState;
  readonly current: DeploymentState;
  readonly changed: boolean;
  readonly applied: boolean;
}

interface HistoryPage {
  readonly items: readonly HistoryEntry[];
  readonly total: number;
  readonly next_cursor?: string;
}

const PAGE = 10;

/** The version a state ran: its release, a bare version, or a dash before anything was known. */
function Version({ state }: { state: DeploymentState }) {
  if (state.release !== null) return <RecordLink iri={state.release} label={state.version ?? undefined} />;
  return <>{state.version ?? '–'}</>;
}

/** Who sent an entry: the deployment itself, another record of this registry, or a credential's subject. */
function Sender({ sender, id }: { sender: string; id: string }) {
  if (!isLocal(sender)) return <code>{sender}</code>;
  if (idOf(sender) === id) return <>this deployment</>;
  return <RecordLink iri={sender} />;
}

/** A before → after cell, or one value when it did not change. */
function Change({
  entry,
  show,
  same,
}: {
  entry: HistoryEntry;
  show: (s: DeploymentState) => ComponentChildren;
  same: (a: DeploymentState, b: DeploymentState) => boolean;
}) {
  if (same(entry.previous, entry.current)) return <>{show(entry.current)}</>;
  return (
    <>
      {show(entry.previous)} → {show(entry.current)}
    </>
  );
}

/** The history section of the deployment `id`, a page at a time. */
export function DeploymentHistory({ id }: { id: string }) {
  // The cursors of the pages shown so far, newest first; the last one is the page on show.
  const [cursors, setCursors] = useState<readonly string[]>([]);
  const cursor = cursors.at(-1);
  const state = useApi<HistoryPage>(`/api/v1/instances/${encodeURIComponent(id)}/history`, {
    limit: PAGE,
    ...(cursor === undefined ? {} : { cursor }),
  });
  // After moving to another page, the focus goes to its entries rather than being lost with the button.
  const top = useRef<HTMLDivElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current || state.loading) return;
    moved.current = false;
    top.current?.focus();
  }, [state.loading, cursor]);
  const go = (next: readonly string[]) => {
    moved.current = true;
    setCursors(next);
  };
  if (state.error !== undefined) return <ErrorNotice error={state.error} what="history" />;
  if (state.data === undefined) return <Loading />;
  const page = state.data;
  if (page.total === 0) return <Empty>No deployment event or announced version has been recorded yet.</Empty>;
  const first = cursors.length * PAGE + 1;
  const last = first + page.items.length - 1;
  return (
    <div ref={top} tabIndex={-1} class="history">
      <Table
        items={page.items}
        rowKey={(entry) => entry.id}
        columns={[
          { heading: 'When', cell: (entry) => <When at={entry.at} /> },
          {
            heading: 'Event',
            cell: (entry) => (
              <>
                {entry.type}
                {!entry.applied && (
                  <>
                    {' '}
                    <span class="badge badge-warn">late, not applied</span>
                  </>
                )}
              </>
            ),
          },
          {
            heading: 'Version',
            cell: (entry) => (
              <Change
                entry={entry}
                show={(s) => <Version state={s} />}
                same={(a, b) => a.release === b.release && a.version === b.version}
              />
            ),
          },
          {
            heading: 'Environment',
            cell: (entry) => (
              <Change
                entry={entry}
                show={(s) => s.environment ?? '–'}
                same={(a, b) => a.environment === b.environment}
              />
            ),
          },
          {
            heading: 'Running',
            cell: (entry) => (entry.current.running ? 'yes' : <span class="badge badge-error">removed</span>),
          },
          { heading: 'Sent by', cell: (entry) => <Sender sender={entry.sender} id={id} /> },
        ]}
      />
      <p>
        {cursor === undefined && page.next_cursor === undefined
          ? `${page.total} ${page.total === 1 ? 'entry' : 'entries'}.`
          : `Entries ${first}–${last} of ${page.total}.`}{' '}
        {cursor !== undefined && (
          <button type="button" class="button secondary" onClick={() => go(cursors.slice(0, -1))}>
            Newer
          </button>
        )}{' '}
        {page.next_cursor !== undefined && (
          <button
            type="button"
            class="button secondary"
            onClick={() => go([...cursors, page.next_cursor ?? ''])}
          >
            Older
          </button>
        )}
      </p>
    </div>
  );
}
