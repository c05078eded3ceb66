/** Choosing what to centre the lineage on, when the address names nothing: an artifact or a run, by id or IRI. */
import { useState } from 'preact/hooks';
import type { Target } from './use-lineage';

/** The artifact or run named by the query (`artifact=<id>` wins over `run=<id>`). */
export function targetOf(query: Record<string, string>): Target | undefined {
  const artifact = query.artifact?.trim();
  if (artifact !== undefined && artifact !== '') return { kind: 'artifact', id: artifact };
  const run = query.run?.trim();
  if (run !== undefined && run !== '') return { kind: 'run', id: run };
  return undefined;
}

/** An id, or the IRI of an artifact or run (whose path then says which it is). */
export function parseTarget(text: string, fallback: Target['kind']): Target | undefined {
  const value = text.trim();
  if (value === '') return undefined;
  const match = /\/(artifacts?|runs?)\/([^/?#]+)\/?(?:[?#].*)?$/.exec(value);
  if (match !== null) return { kind: match[1]!.startsWith('run') ? 'run' : 'artifact', id: match[2]! };
  return { kind: fallback, id: value };
}

export function TargetForm({ onChoose }: { onChoose: (kind: Target['kind'], id: string) => void }) {
  const [text, setText] = useState('');
  const [kind, setKind] = useState<Target['kind']>('artifact');
  const [problem, setProblem] = useState<string>();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const target = parseTarget(text, kind);
        if (target === undefined) setProblem('Give the id or IRI of an artifact or a run.');
        else onChoose(target.kind, target.id);
      }}
    >
      <p>
        Show how an artifact came to be and what came of it, or what a run used and made. Open it from an
        artifact's or a run's page, or name one here.
      </p>
      <div class="toolbar">
        <div class="field">
          <label for="lg-kind">Kind</label>
          <select
            id="lg-kind"
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value === 'run' ? 'run' : 'artifact')}
          >
            <option value="artifact">Artifact</option>
            <option value="run">Run</option>
          </select>
        </div>
        <div class="field">
          <label for="lg-target">Id or IRI</label>
          <input
            id="lg-target"
            size={48}
            value={text}
            aria-invalid={problem === undefined ? undefined : 'true'}
            aria-describedby={problem === undefined ? undefined : 'lg-target-error'}
            onInput={(e) => {
              setText(e.currentTarget.value);
              setProblem(undefined);
            }}
          />
          {problem !== undefined && (
            <p class="field-error" id="lg-target-error">
              {problem}
            </p>
          )}
        </div>
        <div class="field">
          <button type="submit">Show lineage</button>
        </div>
      </div>
    </form>
  );
}
