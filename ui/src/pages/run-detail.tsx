/**
 * `/run/:id` (and `/runs/:id`): one run, its deployment and software, what it used and what it generated,
 * and a link to the lineage picture.
 */
import { idOf, withQuery, type ArtifactRefJson, type RunJson } from '../api';
import { Availability, Badge } from '../components/badges';
import { RecordPage } from '../components/load-state';
import { formatDuration, RecordFields, RecordLink, Term, When } from '../components/record-bits';
import { Empty } from '../components/status';

export default function RunDetail() {
  return (
    <RecordPage<RunJson>
      path={(id) => `/api/v1/runs/${id}`}
      heading="Run"
      title={(run) => `Run ${titleOf(run)}`}
    >
      {(run) => <RunView run={run} />}
    </RecordPage>
  );
}

function titleOf(run: RunJson): string {
  return run.label ?? run.external_key ?? run.id;
}

function RunView({ run }: { run: RunJson }) {
  return (
    <>
      <h1>Run {titleOf(run)}</h1>
      <p>
        <a href={withQuery('/lineage', { run: run.id })}>Lineage picture</a>
      </p>
      <RecordFields
        iri={run.iri}
        rows={[
          ['Status', <Badge of="run" value={run.status ?? 'unknown'} />],
          ['Deployment', run.instance && <RecordLink iri={run.instance} label={run.instance_label} />],
          ['Software', run.software && <RecordLink iri={run.software} label={run.software_name} />],
          ['Release', run.release && <RecordLink iri={run.release} label={run.release_version} />],
          ['Identifier', run.external_key && <code>{run.external_key}</code>],
          ['Started', run.started_at && <When at={run.started_at} />],
          ['Ended', run.ended_at && <When at={run.ended_at} />],
          ['Duration', run.duration_seconds !== undefined && formatDuration(run.duration_seconds)],
          ['Recorded', run.created && <When at={run.created} />],
        ]}
      />
      <h2>Used</h2>
      <ArtifactRefs refs={run.used} empty="This run used no recorded artifacts." />
      <h2>Generated</h2>
      <ArtifactRefs refs={run.generated} empty="This run generated no recorded artifacts." />
      {run.openlineage_payload !== undefined && (
        <details>
          <summary>OpenLineage event</summary>
          <pre>{JSON.stringify(run.openlineage_payload, null, 2)}</pre>
        </details>
      )}
    </>
  );
}

/** Artifacts a run names: local ones link to their pages, foreign ones say whether they were resolved. */
function ArtifactRefs({ refs, empty }: { refs: readonly ArtifactRefJson[] | undefined; empty: string }) {
  if (refs === undefined || refs.length === 0) return <Empty>{empty}</Empty>;
  return (
    <ul>
      {refs.map((ref) => (
        <li key={ref.iri}>
          <RecordLink iri={ref.iri} label={ref.title} />
          {ref.conforms_to !== undefined && (
            <span class="status">
              {' '}
              · type <Term term={{ iri: ref.conforms_to, label: idOf(ref.conforms_to) }} />
            </span>
          )}
          {ref.availability !== undefined && (
            <>
              {' '}
              · <Availability value={ref.availability} brief />
            </>
          )}
          {ref.unresolved === true && (
            <span class="status">
              {' '}
              · not resolved yet{ref.origin?.reason ? `: ${ref.origin.reason}` : ''}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
