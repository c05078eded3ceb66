/**
 * The "Observed capability" section of a software or deployment page: the artifact types its runs actually
 * produced and consumed (how many artifacts, by how many runs, when last), beside what was declared, with the
 * differences flagged both ways.
 */
import { idOf, pageOf, useApi, type TermJson } from '../api';
import { ErrorNotice, Empty, Loading } from './status';
import { Table } from './table';
import { RecordLink, Term, When } from './record-bits';

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
  /** `declared_on`: the records whose declaration counts (a deployment without its own takes its software's). */
  readonly declared: Ways<string> & { readonly declared_on: readonly string[] };
  readonly observed: Ways<ObservedType>;
  readonly observed_undeclared: Ways<string>;
  readonly declared_unobserved: Ways<string>;
}

/** A type IRI as a term, with its label when one is known. */
const termOf = (iri: string, label: string | undefined) => (label === undefined ? { iri } : { iri, label });

/** How a deployment's page names the software or release whose declaration it takes. */
const OWN_KINDS: Readonly<Record<string, string>> = { software: 'its software', release: 'its release' };

const WAYS = [
  ['produces', 'Produced'],
  ['consumes', 'Consumed'],
] as const;

/** The section for the software or deployment `id` (`kind` says which). */
export function ObservedCapability({ kind, id }: { kind: 'software' | 'instances'; id: string }) {
  const state = useApi<ObservedCapabilityJson>(
    `/api/v1/${kind}/${encodeURIComponent(id)}/observed-capability`,
  );
  // The declared types never seen come as bare IRIs: their labels are looked up.
  const unseenIris = [...new Set(WAYS.flatMap(([way]) => state.data?.declared_unobserved[way] ?? []))].sort();
  const resolved = useApi<TermJson[]>(unseenIris.length === 0 ? null : '/api/v1/vocab/resolve', {
    iris: unseenIris.slice(0, 100).join(','),
  });
  const labelOf = (iri: string) => resolved.data?.find((term) => term.iri === iri)?.label;
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
  const elsewhere = answer.declared.declared_on.filter((iri) => idOf(iri) !== id);
  return (
    <>
      {elsewhere.length > 0 && (
        <p>
          Compared with the capability declared by{' '}
          {elsewhere.map((iri, n) => (
            <span key={iri}>
              {n > 0 && ', '}
              <RecordLink
                iri={iri}
                label={kind === 'instances' ? OWN_KINDS[pageOf(iri).split('/')[1] ?? ''] : undefined}
              />
            </span>
          ))}
          .
        </p>
      )}
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
                  <Term term={termOf(row.type.type, row.type.label)} />
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
              <Term term={termOf(entry.type, labelOf(entry.type))} /> ({entry.way.toLowerCase()})
            </span>
          ))}
        </p>
      )}
    </>
  );
}
