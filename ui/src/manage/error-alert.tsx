/** A failed action, announced at once; "Error:" in words, so the meaning does not rest on colour. */
import type { ComponentChildren } from 'preact';

export function ErrorAlert({ children }: { children: ComponentChildren }) {
  return (
    <div class="notice notice-error" role="alert">
      <p>
        <strong>Error:</strong> {children}
      </p>
    </div>
  );
}
