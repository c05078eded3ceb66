/**
 * `/sparql`: a console for the registry's read-only SPARQL endpoint. The query lives in the address
 * (`?query=`), so a console state can be linked; a link that names a query runs it when opened.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { type ApiError, asApiError, withQuery } from '../api';
import { usePageTitle } from '../components/status';
import { useRegistryInfo } from '../registry';
import { session } from '../session';
import { EXAMPLES } from './examples';
import { type Outcome, runQuery } from './query';
import { prefixesOf } from './results';
import { ResultsView } from './results-view';
import { QueryError } from './query-error';
import './sparql.css';

export default function SparqlPage() {
  usePageTitle('SPARQL');
  const { query: params, route } = useLocation();
  const info = useRegistryInfo();
  const principal = session.usePrincipal();
  const linked = params.query;
  const [text, setText] = useState(linked ?? EXAMPLES[0]!.query);
  const [example, setExample] = useState('0');
  const [outcome, setOutcome] = useState<Outcome>();
  const [ran, setRan] = useState('');
  const [error, setError] = useState<ApiError>();
  const [running, setRunning] = useState(false);
  const controller = useRef<AbortController>();
  const editor = useRef<HTMLTextAreaElement>(null);
  /** The query this console last put in the address (so that its own change does not run it twice). */
  const written = useRef<string>();

  const run = (query: string) => {
    controller.current?.abort();
    const mine = new AbortController();
    controller.current = mine;
    setRunning(true);
    setError(undefined);
    if (params.query !== query) {
      written.current = query;
      route(withQuery('/sparql', { query }), true);
    }
    runQuery(query, mine.signal).then(
      (answer) => {
        if (controller.current !== mine) return;
        setOutcome(answer);
        setRan(query);
        setRunning(false);
      },
      (failure: unknown) => {
        if (controller.current !== mine) return;
        setRunning(false);
        if (failure instanceof DOMException && failure.name === 'AbortError') return;
        setOutcome(undefined);
        setError(asApiError(failure));
      },
    );
  };

  const cancel = () => {
    controller.current?.abort();
    controller.current = undefined;
    setRunning(false);
  };

  // A query named in the address runs once when the console opens, and again when history brings another.
  useEffect(() => {
    if (linked === undefined || linked === '') return;
    if (written.current === linked) return;
    written.current = linked;
    setText(linked);
    run(linked);
  }, [linked]);

  useEffect(() => () => controller.current?.abort(), []);

  const prefixes = useMemo(() => prefixesOf(ran), [ran]);
  const privateEndpoint = info?.sparql_public === false && !principal.authenticated;

  return (
    <div class="sparql">
      <h1>SPARQL console</h1>
      <p>
        Ask the registry's graph anything, read-only, in SPARQL 1.1. The default graph is the union of every
        named graph; <code>GRAPH &lt;urn:reg:local&gt;</code> holds this registry's own records.
      </p>
      {privateEndpoint && (
        <p class="notice" role="note">
          SPARQL on this registry is not public: <a href="/signin?next=%2Fsparql">sign in</a> to run queries.
        </p>
      )}
      <form
        class="sq-form"
        onSubmit={(event) => {
          event.preventDefault();
          run(text);
        }}
      >
        <div class="toolbar sq-examples">
          <div class="field">
            <label for="sq-example">Example queries</label>
            <select id="sq-example" value={example} onChange={(e) => setExample(e.currentTarget.value)}>
              {EXAMPLES.map((item, i) => (
                <option key={item.title} value={String(i)}>
                  {item.title}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <button
              type="button"
              class="secondary"
              onClick={() => {
                setText(EXAMPLES[Number(example)]?.query ?? '');
                editor.current?.focus();
              }}
            >
              Use this example
            </button>
          </div>
        </div>
        <div class="field">
          <label for="sq-query">Query</label>
          <textarea
            id="sq-query"
            ref={editor}
            class="code sq-editor"
            rows={14}
            spellcheck={false}
            autocapitalize="off"
            autocomplete="off"
            aria-describedby="sq-hint"
            aria-invalid={error?.status === 400 ? 'true' : undefined}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                run(e.currentTarget.value);
              }
            }}
          />
          <span class="hint" id="sq-hint">
            Ctrl+Enter (⌘+Enter on a Mac) runs the query. SELECT and ASK answer as a table or yes/no,
            CONSTRUCT and DESCRIBE as Turtle.
          </span>
        </div>
        {error !== undefined && <QueryError error={error} />}
        <div class="sq-actions">
          <button type="submit" disabled={running || text.trim() === ''}>
            {running ? 'Running…' : 'Run'}
          </button>
          {running && (
            <button type="button" class="secondary" onClick={cancel}>
              Cancel
            </button>
          )}
          {running && (
            <span class="status" role="status">
              Running the query…
            </span>
          )}
        </div>
      </form>
      {outcome !== undefined && <ResultsView outcome={outcome} prefixes={prefixes} />}
    </div>
  );
}
