/**
 * The "Observed capability" section of a software or deployment page: the artifact types its runs actually
 * produced and consumed (how many artifacts, by how many runs, when last), beside what was declared, with the
 * differences flagged both ways.
 */
import { useApi } from '../api';
import { ErrorNotice, Empty, Loading } from './status';
import { Table } from './table';
import { Term, When } from './record-bits';

/** One artifact type runs met one way. */
interface ObservedType {
  readonly type: string;
  readonly label?: string;
  readonly artifacts: number;
  readonly runs: number;
  readonly last_seen?: string;
}

type Ways<T> = { readonly produces: readonly T[]; readonly consumes: readonly T[] };

/** `GET /api/v1/{software|instances}/{id}/observed-capability`. */
interface ObservedCapabilityJson {
  readonly days: number;
  readonly declared: Ways<string>;
  readonly observed: Ways<ObservedType>;
  readonly observed_undeclared: Ways<string>;
  readonly declared_unobserved: Ways<string>;
}

const WAYS = [
  ['produces', 'Produced'],
  ['consumes', 'Consumed'],
] as const;

/** The section for the software or deployment `id` (`kind` says which). */
export function ObservedCapability({ kind, id }: { kind: 'software' | 'instances'; id: string }) {
  const state = useApi<ObservedCapabilityJson>(
    `/api/v1/${kind}/${encodeURIComponent(id)}/observed-capability`,
  );
  if (state.error !== undefined) return <ErrorNotice error={state.error} what="observed capability" />;
  if (state.data === undefined) return <Loading />;
  const answer = state.data;
  const rows = WAYS.flatMap(([way, heading]) =>
    answer.observed[way].map((type) => ({
      way: heading,
      type,
      undeclared: answer.observed_undeclared[way].includes(type.type),
    })),
  );
  const unseen = WAYS.flatMap(([way, heading]) =>
    answer.declared_unobserved[way].map((type) => ({ way: heading, type })),
  );
  return (
    <>
      {rows.length === 0 ? (
        <Empty>No run has produced or consumed an artifact of a known type yet.</Empty>
      ) : (
        <Table
          items={rows}
          rowKey={(row) => `${row.way} ${row.type.type}`}
          columns={[
            {
              heading: 'Type',
              cell: (row) => (
                <>
                  <Term
                    term={{
                      iri: row.type.type,
                      ...(row.type.label === undefined ? {} : { label: row.type.label }),
                    }}
                  />
                  {row.undeclared && (
                    <>
                      {' '}
                      <span class="badge badge-warn">not declared</span>
                    </>
                  )}
                </>
              ),
            },
            { heading: 'Way', cell: (row) => row.way },
            { heading: 'Artifacts', cell: (row) => String(row.type.artifacts) },
            { heading: 'Runs', cell: (row) => String(row.type.runs) },
            { heading: 'Last seen', cell: (row) => <When at={row.type.last_seen} /> },
          ]}
        />
      )}
      {unseen.length > 0 && (
        <p>
          Declared but not seen in the last {answer.days} days:{' '}
          {unseen.map((entry, n) => (
            <span key={`${entry.way} ${entry.type}`}>
              {n > 0 && ', '}
              <Term term={{ iri: entry.type }} /> ({entry.way.toLowerCase()})
            </span>
          ))}
        </p>
      )}
    </>
  );
}
