/**
 * A secret the registry returns once (an API token, a webhook secret): a read-only field to copy it from, a
 * copy button, and a plain warning that it will not be shown again. It lives only in the page's memory.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export function ShownOnce(props: {
  id: string;
  title: string;
  label: string;
  secret: string;
  onDone: () => void;
  children?: ComponentChildren;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState('');
  useEffect(() => heading.current?.focus(), []);
  const copy = async () => {
    field.current?.select();
    try {
      await navigator.clipboard.writeText(props.secret);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Copying was not allowed here: the text is selected, copy it with the keyboard.');
    }
  };
  return (
    <section class="shown-once" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`} tabIndex={-1} ref={heading}>
        {props.title}
      </h2>
      <p class="warning" id={`${props.id}-warning`}>
        <strong>Warning: copy it now.</strong> This is the only time it is shown; the registry keeps only a
        hash of it. If it is lost, make a new one and revoke this one.
      </p>
      <div class="field">
        <label for={props.id}>{props.label}</label>
        <div class="copy-row">
          <input
            id={props.id}
            ref={field}
            type="text"
            readOnly
            value={props.secret}
            autoComplete="off"
            spellcheck={false}
            aria-describedby={`${props.id}-warning`}
            onFocus={(event) => event.currentTarget.select()}
          />
          <button type="button" onClick={() => void copy()}>
            Copy
          </button>
        </div>
        <p class="hint" role="status" aria-live="polite">
          {copied}
        </p>
      </div>
      {props.children}
      <p>
        <button type="button" class="secondary" onClick={props.onDone}>
          I have copied it; hide it
        </button>
      </p>
    </section>
  );
}
