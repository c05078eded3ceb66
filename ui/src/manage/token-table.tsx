import type { TokenRecord } from '../api';
export function when(value: string | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

function status(token: TokenRecord): string {
  if (token.revoked_at !== null) return `Revoked ${when(token.revoked_at)}`;
  if (token.expires_at !== null && new Date(token.expires_at).getTime() < Date.now()) return 'Expired';
  return 'Active';
}

export function TokenTable({
  tokens,
  onRevoke,
}: {
  tokens: readonly TokenRecord[];
  onRevoke: (token: TokenRecord) => void;
}) {
  if (tokens.length === 0) return <p class="status">No tokens yet.</p>;
  return (
    <div class="table-scroll">
      <table>
        <caption class="visually-hidden">Tokens, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Prefix</th>
            <th scope="col">Label</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => {
            const state = status(token);
            return (
              <tr key={token.id}>
                <td>
                  <code>reg_{token.prefix}_…</code>
                </td>
                <td>{token.label ?? '—'}</td>
                <td>{token.scopes.length === 0 ? '—' : token.scopes.join(', ')}</td>
                <td>{when(token.created_at)}</td>
                <td>{token.expires_at === null ? 'Never' : when(token.expires_at)}</td>
                <td>{token.last_used_at === null ? 'Never' : when(token.last_used_at)}</td>
                <td>{state}</td>
                <td class="actions">
                  {state === 'Active' && (
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Revoke token reg_${token.prefix}${token.label ? ` (${token.label})` : ''}`}
                      onClick={() => onRevoke(token)}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
