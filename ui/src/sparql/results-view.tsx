/**
 * An answer of the endpoint: a table for SELECT (IRIs compact and linked to their pages, literals with their
 * datatype or language beside them), yes or no for ASK, Turtle text for CONSTRUCT and DESCRIBE; with its size,
 * its time and download links made from the answer itself (Blob URLs, so they work on a private registry too).
 */
import { useEffect, useMemo } from 'preact/hooks';
import { pageOf } from '../api';
import type { Outcome, Solution, Term } from './query';
import { compactIri, toCsv } from './results';

/** Rows drawn in the table; all of them are in the downloads. */
const MAX_ROWS = 1000;

interface ResultFile {
  readonly label: string;
  readonly file: string;
  readonly url: string;
}

function useDownloads(outcome: Outcome): ResultFile[] {
  const downloads = useMemo(() => {
    const make = (label: string, file: string, text: string, type: string): ResultFile => ({
      label,
      file,
      url: URL.createObjectURL(new Blob([text], { type })),
    });
    if (outcome.kind === 'graph') return [make('Turtle', 'results.ttl', outcome.turtle, 'text/turtle')];
    const json = make('SPARQL JSON', 'results.srj', outcome.body, 'application/sparql-results+json');
    if (outcome.kind === 'ask') return [json];
    return [json, make('CSV', 'results.csv', toCsv(outcome.vars, outcome.rows), 'text/csv')];
  }, [outcome]);
  useEffect(() => () => downloads.forEach((download) => URL.revokeObjectURL(download.url)), [downloads]);
  return downloads;
}

function TermCell({ term, prefixes }: { term: Term | undefined; prefixes: ReadonlyMap<string, string> }) {
  if (term === undefined) return <td class="sq-unbound" aria-label="unbound" />;
  if (term.type === 'uri') {
    const page = pageOf(term.value);
    const local = page !== term.value;
    const text = local ? page : (compactIri(term.value, prefixes) ?? term.value);
    const linkable = local || /^https?:\/\//.test(term.value);
    return (
      <td class="sq-iri">
        {linkable ? (
          <a href={page} title={term.value}>
            {text}
          </a>
        ) : (
          <span title={term.value}>{text}</span>
        )}
      </td>
    );
  }
  if (term.type === 'bnode') return <td class="sq-bnode">_:{term.value}</td>;
  const lang = term['xml:lang'];
  const datatype = term.datatype;
  const note =
    lang !== undefined && lang !== ''
      ? `@${lang}`
      : datatype !== undefined && datatype !== 'http://www.w3.org/2001/XMLSchema#string'
        ? `^^${compactIri(datatype, prefixes) ?? `<${datatype}>`}`
        : undefined;
  return (
    <td class="sq-literal">
      {term.value}
      {note !== undefined && <span class="sq-note"> {note}</span>}
    </td>
  );
}

function Table({
  vars,
  rows,
  prefixes,
}: {
  vars: readonly string[];
  rows: readonly Solution[];
  prefixes: ReadonlyMap<string, string>;
}) {
  if (rows.length === 0) return <p class="status">No solutions.</p>;
  return (
    <div class="sq-table">
      <table>
        <caption class="visually-hidden">Query results</caption>
        <thead>
          <tr>
            {vars.map((name) => (
              <th key={name} scope="col">
                ?{name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, MAX_ROWS).map((row, i) => (
            <tr key={i}>
              {vars.map((name) => (
                <TermCell key={name} term={row[name]} prefixes={prefixes} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > MAX_ROWS && (
        <p class="status">
          The first {MAX_ROWS} of {rows.length} rows are shown; the downloads hold them all.
        </p>
      )}
    </div>
  );
}

function summary(outcome: Outcome): string {
  const time = `${outcome.ms} ms`;
  if (outcome.kind === 'select')
    return `${outcome.rows.length} ${outcome.rows.length === 1 ? 'row' : 'rows'} · ${time}`;
  if (outcome.kind === 'ask') return `Answered in ${time}`;
  const lines = outcome.turtle.split('\n').filter((line) => line.trim() !== '').length;
  return `${lines} ${lines === 1 ? 'line' : 'lines'} of Turtle · ${time}`;
}

export function ResultsView({
  outcome,
  prefixes,
}: {
  outcome: Outcome;
  prefixes: ReadonlyMap<string, string>;
}) {
  const downloads = useDownloads(outcome);
  return (
    <section class="sq-results" aria-labelledby="sq-results-title">
      <h2 id="sq-results-title">Results</h2>
      <div class="sq-meta">
        <p role="status">{summary(outcome)}</p>
        <p class="sq-downloads">
          Download:{' '}
          {downloads.map((download) => (
            <a key={download.file} href={download.url} download={download.file}>
              {download.label}
            </a>
          ))}
        </p>
      </div>
      {outcome.kind === 'select' && <Table vars={outcome.vars} rows={outcome.rows} prefixes={prefixes} />}
      {outcome.kind === 'ask' && (
        <p class="sq-ask">
          <strong>{outcome.value ? 'Yes' : 'No'}</strong>: the pattern{' '}
          {outcome.value ? 'has at least one match' : 'has no match'}.
        </p>
      )}
      {outcome.kind === 'graph' &&
        (outcome.turtle.trim() === '' ? (
          <p class="status">The graph is empty.</p>
        ) : (
          <pre class="sq-turtle" tabIndex={0} aria-label="Results as Turtle">
            {outcome.turtle}
          </pre>
        ))}
    </section>
  );
}
