/** Who the page is signed in as, in words. */
import type { Principal } from '../session';
import { nameOf } from './access';

const CREDENTIALS: Record<Principal['credential'], string> = {
  none: 'none',
  'local-token': 'a registry API token',
  'root-token': 'the bootstrap (root) token',
  'oidc-human': 'a person signed in at the identity provider',
  'oidc-workload': 'a workload of the identity provider',
};

export function WhoAmI({ principal }: { principal: Principal }) {
  return (
    <dl class="whoami">
      <dt>Name</dt>
      <dd>{nameOf(principal)}</dd>
      <dt>Subject</dt>
      <dd>
        <code>{principal.subject}</code>
      </dd>
      <dt>Credential</dt>
      <dd>{CREDENTIALS[principal.credential]}</dd>
      <dt>Roles</dt>
      <dd>{principal.roles.length === 0 ? 'none' : principal.roles.join(', ')}</dd>
      <dt>Curator</dt>
      <dd>{principal.is_curator ? 'yes' : 'no'}</dd>
      {principal.scopes.length > 0 && (
        <>
          <dt>Scopes</dt>
          <dd>{principal.scopes.join(', ')}</dd>
        </>
      )}
      {principal.instance !== undefined && principal.instance !== null && (
        <>
          <dt>Acts as deployment</dt>
          <dd>
            <code>{principal.instance}</code>
          </dd>
        </>
      )}
    </dl>
  );
}
