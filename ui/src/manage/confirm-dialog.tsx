/**
 * A modal question before something that cannot be undone, on the native <dialog> (focus kept inside, Escape
 * cancels). Focus goes to Cancel when it opens and back to what had it when it closes.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  confirm: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ComponentChildren;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (props.open && !element.open) {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      element.showModal();
      cancel.current?.focus();
    } else if (!props.open && element.open) {
      element.close();
      returnTo.current?.focus();
    }
  }, [props.open]);
  const titleId = `confirm-${props.title.replace(/[^A-Za-z0-9]+/g, '-')}`;
  return (
    <dialog
      ref={dialog}
      class="confirm"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
      <div class="toolbar">
        <button type="button" class="danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirm}
        </button>
        <button type="button" class="secondary" ref={cancel} onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
