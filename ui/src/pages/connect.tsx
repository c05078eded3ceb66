/**
 * `/connect`: how to connect an AI agent to this registry's MCP server (`<base>/mcp`, Streamable HTTP). It says
 * what an agent may do without a credential and what needs one, and gives copy-paste configuration for the
 * common MCP clients, written for this registry's own address. A token never appears in the snippets, not even
 * the visitor's own: they name an environment variable (or a prompt) instead.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { pageOf, type RegistryDescription } from '../api';
import { issuerHost, oidcSettings } from '../auth/oidc';
import { usePageTitle } from '../components/status';
import { baseIri, useRegistryInfo } from '../registry';
import { session } from '../session';
import {
  clientSnippets,
  MODERN_REVISION,
  TOKEN_VARIABLE,
  type Credential,
  type Snippet,
} from './connect-snippets';
import './connect.css';

/** A `<pre>` block with a Copy button; when the clipboard is refused, the text is selected for the keyboard. */
function CopyBlock({ snippet }: { snippet: Snippet }) {
  const pre = useRef<HTMLPreElement>(null);
  const [state, setState] = useState<'idle' | 'copied' | 'selected'>('idle');
  useEffect(() => setState('idle'), [snippet.text]);
  useEffect(() => {
    if (state !== 'copied') return undefined;
    const timer = setTimeout(() => setState('idle'), 4000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet.text);
      setState('copied');
    } catch {
      const block = pre.current;
      const selection = window.getSelection();
      if (block !== null && selection !== null) {
        const range = document.createRange();
        range.selectNodeContents(block);
        selection.removeAllRanges();
        selection.addRange(range);
        block.focus();
      }
      setState('selected');
    }
  };
  return (
    <div class="cn-snippet">
      <div class="cn-snippet-head">
        <span class="cn-snippet-label" id={`${snippet.id}-label`}>
          {snippet.label}
        </span>
        <button type="button" class="secondary" data-state={state} onClick={() => void copy()}>
          {state === 'copied' ? 'Copied' : 'Copy'}
          <span class="visually-hidden"> {snippet.label}</span>
        </button>
      </div>
      <pre id={snippet.id} ref={pre} tabIndex={0} aria-labelledby={`${snippet.id}-label`}>
        <code>{snippet.text}</code>
      </pre>
      <p class="cn-status" role="status" aria-live="polite">
        {state === 'copied' && 'Copied to the clipboard.'}
        {state === 'selected' &&
          'Copying was not allowed here: the text is selected, copy it with the keyboard.'}
      </p>
    </div>
  );
}

/** What an agent may do here, and where its credential comes from. */
function Access({ info, base }: { info: RegistryDescription | undefined; base: string }) {
  const provider = oidcSettings(info);
  const publicRead = info?.public_read ?? info?.auth.anonymous_read;
  return (
    <>
      <h2>What an agent may do</h2>
      <ul>
        <li>
          {publicRead === false ? (
            'Reads on this registry are not public: an agent needs a credential even to search and read records.'
          ) : (
            <>
              Without a credential, an agent may search, list and read the records, look up vocabulary terms,
              find software by what it can do and follow the lineage of artifacts
              {info?.sparql_public === false
                ? '; SPARQL queries need a credential here.'
                : ', and run SPARQL queries.'}
            </>
          )}
        </li>
        <li>
          Registering and editing software, releases, deployments and artifact types, advertising the
          artifacts a deployment produced or used, and subscribing to notifications need a credential: an API
          token of this registry
          {provider === undefined ? (
            '.'
          ) : (
            <>
              , or a sign-in through the registry's identity provider, {issuerHost(provider.issuer)}. Agents
              that support OAuth find it in the server's{' '}
              <a href={`${base}/.well-known/oauth-protected-resource/mcp`}>protected resource metadata</a>{' '}
              and, where the provider accepts them as clients, open its sign-in page, so their configuration
              needs no token.
            </>
          )}
        </li>
        <li>
          The agent is offered only the tools its credential allows, and every call is checked exactly as the
          same request to the REST API would be.
        </li>
      </ul>
      <p>
        Agents that read documents rather than call tools can start from <a href="/llms.txt">llms.txt</a>; the
        REST API is described by its <a href="/api/v1/openapi.json">OpenAPI document</a>.
      </p>
    </>
  );
}

/** Where a token comes from; a signed-in visitor is told why their own is not used. */
function TokenAdvice() {
  const principal = session.usePrincipal();
  const own = principal.instance ?? undefined;
  return (
    <div class="notice" id="cn-token-advice">
      <p>
        An API token belongs to a deployment or to a software record: make one on the API tokens page of a{' '}
        <a href="/instances">deployment</a> or of a <a href="/software">software</a> record, or with{' '}
        <code>reg tokens create</code>. The snippets read it from the <code>{TOKEN_VARIABLE}</code>{' '}
        environment variable (VS Code asks for it), so it is not written into a configuration file: run{' '}
        <code>export {TOKEN_VARIABLE}=…</code> in the shell that starts the agent.
      </p>
      {principal.authenticated && (
        <p>
          You are signed in, but your own credential is not put into these snippets: give the agent a token of
          its own, which you can revoke without signing out.
          {own !== undefined && (
            <>
              {' '}
              <a href={`${pageOf(own)}/tokens`}>Make a token for your deployment</a>.
            </>
          )}
        </p>
      )}
    </div>
  );
}

export default function Connect() {
  usePageTitle('Connect an AI agent');
  const info = useRegistryInfo();
  const base = (info?.base_iri ?? baseIri() ?? window.location.origin).replace(/\/+$/, '');
  const url = info?.mcp_url ?? `${base}/mcp`;
  const [credential, setCredential] = useState<Credential>('none');
  const snippets = clientSnippets(url, credential, info?.title ?? 'this registry');
  return (
    <section class="connect">
      <h1>Connect an AI agent</h1>
      <p class="lede">
        This registry is also a Model Context Protocol (MCP) server: an agent connected to it can search and
        read the records and, with a credential, register what it finds. The server answers at{' '}
        <code>{url}</code> over Streamable HTTP.
      </p>
      <Access info={info} base={base} />

      <h2>Configuration</h2>
      <fieldset class="cn-credential">
        <legend>How the agent authenticates</legend>
        <label>
          <input
            type="radio"
            name="cn-credential"
            value="none"
            checked={credential === 'none'}
            onChange={() => setCredential('none')}
          />{' '}
          No token in the configuration (anonymous reads, or OAuth sign-in where offered)
        </label>
        <label>
          <input
            type="radio"
            name="cn-credential"
            value="token"
            checked={credential === 'token'}
            onChange={() => setCredential('token')}
          />{' '}
          An API token from the <code>{TOKEN_VARIABLE}</code> environment variable
        </label>
      </fieldset>
      <TokenAdvice />

      <h3>Claude Code</h3>
      <p>
        Adds the server to the project in the current directory; add <code>--scope user</code> to have it in
        every project.
      </p>
      <CopyBlock snippet={snippets.claudeCode} />
      <p>
        Or, to share it with everyone working on a project, put this in <code>.mcp.json</code> at the top of
        the project (other clients that read an <code>mcpServers</code> file take the same entry):
      </p>
      <CopyBlock snippet={snippets.mcpServers} />

      <h3>VS Code</h3>
      <p>
        In <code>.vscode/mcp.json</code> of a workspace, or in the user configuration (MCP: Open User
        Configuration):
      </p>
      <CopyBlock snippet={snippets.vscode} />

      <h3>Cursor</h3>
      <p>
        In <code>~/.cursor/mcp.json</code> for every project, or in <code>.cursor/mcp.json</code> of one
        project:
      </p>
      <CopyBlock snippet={snippets.cursor} />

      <h3>Claude Desktop and claude.ai</h3>
      <p>
        Claude Desktop's configuration file starts local programs only; a remote server such as this one is
        added as a custom connector (Settings, Connectors, Add custom connector) with this address. Custom
        connectors connect from Anthropic's servers, so the registry must be reachable from the internet, and
        they sign in through OAuth rather than with a token.
      </p>
      <CopyBlock snippet={snippets.connector} />

      <h2>Check the connection</h2>
      <p>
        The server describes itself in answer to <code>server/discover</code> (protocol revision{' '}
        {MODERN_REVISION}):
      </p>
      <CopyBlock snippet={snippets.discover} />
      <p>
        Clients of earlier revisions start with <code>initialize</code> instead:
      </p>
      <CopyBlock snippet={snippets.initialize} />
    </section>
  );
}
