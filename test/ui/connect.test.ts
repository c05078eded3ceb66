/**
 * The page that connects an AI agent, in a real browser against a real registry: reached from the navigation,
 * every snippet written for this registry's own `<base>/mcp`, the JSON ones parsing to each client's documented
 * shape, the curl checks sending what they claim when a shell runs them, a token only ever named (never the
 * visitor's own), Copy filling the clipboard or selecting the text when the clipboard is refused, a private
 * registry with an identity provider, a narrow screen, and no WCAG A/AA violations.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../helpers.js';
import {
  audit,
  hasChromium,
  launchBrowser,
  openPage,
  ROOT_TOKEN,
  screenshot,
  startUiRegistry,
  type UiRegistry,
} from '../support/browser.js';
import { startProvider, type TestProvider } from '../support/oidc.js';
import { startReceiver } from '../support/receivers.js';

const TOKEN_MODE = /An API token from the REG_TOKEN environment variable/;

/** The snippets on the page, by the label above each. */
async function snippets(page: Page): Promise<Map<string, string>> {
  const blocks = page.locator('main .cn-snippet');
  const found = new Map<string, string>();
  for (const block of await blocks.all()) {
    found.set(
      (await block.locator('.cn-snippet-label').textContent()) ?? '',
      (await block.locator('pre').textContent()) ?? '',
    );
  }
  return found;
}

/** Opens `/connect` and waits until the description has put the registry's address in. */
async function openConnect(page: Page, registry: UiRegistry): Promise<void> {
  await page.goto('/connect');
  await page.getByRole('heading', { level: 1, name: 'Connect an AI agent' }).waitFor();
  await page
    .locator('main pre', { hasText: `${registry.url}/mcp` })
    .first()
    .waitFor();
}

describe.skipIf(!hasChromium)('connecting an AI agent', () => {
  let registry: UiRegistry;
  let browser: Browser;

  beforeAll(async () => {
    [registry, browser] = await Promise.all([startUiRegistry(), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await registry?.stop();
  });

  it('is reached from the navigation and gives every client this registry’s own MCP address', async () => {
    const { context, page } = await openPage(browser, registry);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto('/');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Connect an agent' })
        .click();
      await page.waitForURL(`${registry.url}/connect`);
      await openConnect(page, registry);
      const link = page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Connect an agent' });
      expect(await link.getAttribute('aria-current')).toBe('page');
      expect(await page.title()).toMatch(/^Connect an AI agent · /);

      const url = `${registry.url}/mcp`;
      const shown = await snippets(page);
      expect([...shown.keys()]).toEqual([
        'Claude Code command',
        '.mcp.json',
        '.vscode/mcp.json',
        '~/.cursor/mcp.json',
        'Connector address',
        'curl: server/discover',
        'curl: initialize',
      ]);
      for (const [label, text] of shown) {
        expect(text, label).toContain(url);
        expect(text, label).not.toContain('Authorization');
      }
      expect(shown.get('Claude Code command')).toBe(`claude mcp add --transport http reg ${url}`);
      expect(JSON.parse(shown.get('.mcp.json')!)).toEqual({ mcpServers: { reg: { type: 'http', url } } });
      expect(JSON.parse(shown.get('.vscode/mcp.json')!)).toEqual({ servers: { reg: { type: 'http', url } } });
      expect(JSON.parse(shown.get('~/.cursor/mcp.json')!)).toEqual({ mcpServers: { reg: { url } } });
      expect(shown.get('Connector address')).toBe(url);

      // Reads are public here, and no identity provider is named, so a token is the only way to write.
      const main = page.getByRole('main');
      await main.getByText(/Without a credential, an agent may search, list and read/).waitFor();
      expect(await main.getByText(/need a credential: an API token of this registry\./).count()).toBe(1);
      expect(await main.getByRole('link', { name: 'llms.txt' }).getAttribute('href')).toBe('/llms.txt');
      const openapi = main.getByRole('link', { name: 'OpenAPI document' });
      expect(await openapi.getAttribute('href')).toBe('/api/v1/openapi.json');
      expect((await registry.request('GET', '/api/v1/openapi.json')).status).toBe(200);
      expect(await main.getByRole('link', { name: 'deployment', exact: true }).getAttribute('href')).toBe(
        '/instances',
      );
      expect(await main.getByText('You are signed in').count()).toBe(0);
      await screenshot(page, 'connect');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('with a token, names the REG_TOKEN variable (or a VS Code prompt) in every client’s own syntax', async () => {
    const { context, page } = await openPage(browser, registry);
    try {
      await openConnect(page, registry);
      await page.getByRole('radio', { name: TOKEN_MODE }).check();
      await page.locator('main pre', { hasText: 'Authorization' }).first().waitFor();
      const url = `${registry.url}/mcp`;
      const shown = await snippets(page);
      for (const [label, text] of shown) expect(text, label).toContain(url);
      expect(shown.get('Claude Code command')).toBe(
        `claude mcp add --transport http reg ${url} \\\n  --header "Authorization: Bearer $REG_TOKEN"`,
      );
      expect(JSON.parse(shown.get('.mcp.json')!)).toEqual({
        mcpServers: { reg: { type: 'http', url, headers: { Authorization: 'Bearer ${REG_TOKEN}' } } },
      });
      const vscode = JSON.parse(shown.get('.vscode/mcp.json')!);
      expect(vscode.servers).toEqual({
        reg: { type: 'http', url, headers: { Authorization: 'Bearer ${input:reg-token}' } },
      });
      expect(vscode.inputs).toEqual([
        {
          type: 'promptString',
          id: 'reg-token',
          description: expect.stringMatching(/^API token of /),
          password: true,
        },
      ]);
      expect(JSON.parse(shown.get('~/.cursor/mcp.json')!)).toEqual({
        mcpServers: { reg: { url, headers: { Authorization: 'Bearer ${env:REG_TOKEN}' } } },
      });
      // A custom connector signs in through OAuth: its address carries nothing else.
      expect(shown.get('Connector address')).toBe(url);
    } finally {
      await context.close();
    }
  });

  it('gives curl checks that send the documented MCP requests when a shell runs them', async () => {
    const receiver = await startReceiver();
    receiver.respond = () => ({ status: 200, body: '{}', headers: { 'content-type': 'application/json' } });
    const { context, page } = await openPage(browser, registry);
    try {
      await openConnect(page, registry);
      await page.getByRole('radio', { name: TOKEN_MODE }).check();
      await page.locator('main pre', { hasText: 'Authorization' }).first().waitFor();
      const shown = await snippets(page);
      const target = receiver.url('/mcp');
      for (const label of ['curl: server/discover', 'curl: initialize']) {
        const script = shown.get(label)!.replace(`${registry.url}/mcp`, target);
        const run = await runProcess('bash', ['-c', script], {
          env: { PATH: process.env.PATH ?? '', REG_TOKEN: 'token-from-the-environment' },
        });
        expect(run.code, run.stderr).toBe(0);
      }
      expect(receiver.received).toHaveLength(2);
      const [discover, initialize] = receiver.received;
      for (const request of [discover!, initialize!]) {
        expect(request.method).toBe('POST');
        expect(request.path).toBe('/mcp');
        expect(request.headers['content-type']).toBe('application/json');
        expect(request.headers.accept).toBe('application/json, text/event-stream');
        expect(request.headers.authorization).toBe('Bearer token-from-the-environment');
      }
      expect(discover!.headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(discover!.headers['mcp-method']).toBe('server/discover');
      expect(JSON.parse(discover!.body)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      });
      expect(initialize!.headers['mcp-method']).toBeUndefined();
      expect(JSON.parse(initialize!.body)).toMatchObject({
        jsonrpc: '2.0',
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl' } },
      });
    } finally {
      await context.close();
      await receiver.close();
    }
  });

  it('gives curl checks that the registry’s own MCP server answers, with and without a token', async () => {
    const { context, page } = await openPage(browser, registry);
    try {
      await openConnect(page, registry);
      for (const mode of [/No token in the configuration/, TOKEN_MODE]) {
        await page.getByRole('radio', { name: mode }).check();
        const shown = await snippets(page);
        const env = { PATH: process.env.PATH ?? '', REG_TOKEN: ROOT_TOKEN };
        const discover = await runProcess('bash', ['-c', shown.get('curl: server/discover')!], { env });
        expect(discover.code, discover.stderr).toBe(0);
        const discovered = JSON.parse(discover.stdout);
        expect(discovered.id).toBe(1);
        expect(discovered.result.supportedVersions).toContain('2026-07-28');
        expect(discovered.result.capabilities.tools).toBeDefined();

        const initialize = await runProcess('bash', ['-c', shown.get('curl: initialize')!], { env });
        expect(initialize.code, initialize.stderr).toBe(0);
        // Answered as JSON or as one server-sent event, whichever the server chose.
        const message = initialize.stdout
          .split('\n')
          .map((line) => line.replace(/^data: /, ''))
          .find((line) => line.startsWith('{'));
        expect(JSON.parse(message ?? '{}')).toMatchObject({
          id: 1,
          result: { protocolVersion: '2025-11-25', capabilities: { tools: {} } },
        });
      }
      // In the token mode the header is really sent: a token the registry never issued is refused.
      const refused = await runProcess('bash', ['-c', (await snippets(page)).get('curl: server/discover')!], {
        env: { PATH: process.env.PATH ?? '', REG_TOKEN: 'not-a-token-of-this-registry' },
      });
      expect(refused.code, refused.stderr).toBe(0);
      expect(refused.stdout).not.toContain('supportedVersions');
      expect(JSON.parse(refused.stdout)).toMatchObject({ status: 401 });
    } finally {
      await context.close();
    }
  });

  it('copies a snippet to the clipboard and says so', async () => {
    const context = await browser.newContext({
      baseURL: registry.url,
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    try {
      const page = await context.newPage();
      await openConnect(page, registry);
      for (const label of ['Claude Code command', '.vscode/mcp.json']) {
        const block = page.locator('main .cn-snippet', { has: page.getByText(label, { exact: true }) });
        await block.getByRole('button', { name: `Copy ${label}` }).click();
        await block.getByRole('button', { name: `Copied ${label}` }).waitFor();
        await block.getByRole('status').getByText('Copied to the clipboard.').waitFor();
        const copied = await page.evaluate<string>('navigator.clipboard.readText()');
        expect(copied).toBe(await block.locator('pre').textContent());
        expect(copied).toContain(`${registry.url}/mcp`);
      }
    } finally {
      await context.close();
    }
  });

  it('selects the text for the keyboard when the clipboard is refused', async () => {
    const { context, page } = await openPage(browser, registry);
    try {
      // The browser's answer when the visitor or a policy refuses clipboard access.
      await context.addInitScript({
        content: `navigator.clipboard.writeText = () => Promise.reject(new DOMException('refused', 'NotAllowedError'));`,
      });
      await openConnect(page, registry);
      const block = page.locator('main .cn-snippet', { has: page.getByText('.mcp.json', { exact: true }) });
      await block.getByRole('button', { name: 'Copy .mcp.json' }).click();
      await block
        .getByRole('status')
        .getByText(/Copying was not allowed here: the text is selected/)
        .waitFor();
      expect(await page.evaluate('getSelection().toString()')).toBe(await block.locator('pre').textContent());
      expect(await block.getByRole('button', { name: /^Copied/ }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('never puts a signed-in visitor’s token in the snippets, and links to where theirs is made', async () => {
    const software = await registry.request<{ id: string }>('POST', '/api/v1/software', {
      name: 'connect-fixture',
      tagline: 'Made by the test',
      kinds: ['service'],
    });
    expect(software.status).toBe(201);
    const deployment = await registry.request<{ id: string }>('POST', '/api/v1/instances', {
      software: software.body.id,
      label: 'connect-deployment',
    });
    expect(deployment.status).toBe(201);
    const minted = await registry.request<{ token: string }>(
      'POST',
      `/api/v1/instances/${deployment.body.id}/tokens`,
      { label: 'browser' },
    );
    expect(minted.status).toBe(201);
    const { context, page } = await openPage(browser, registry);
    try {
      await context.addInitScript({
        content: `sessionStorage.setItem('reg.bearer', ${JSON.stringify(minted.body.token)})`,
      });
      await openConnect(page, registry);
      await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).waitFor();
      const advice = page.locator('#cn-token-advice');
      await advice
        .getByText(/You are signed in, but your own credential is not put into these snippets/)
        .waitFor();
      expect(
        await advice.getByRole('link', { name: 'Make a token for your deployment' }).getAttribute('href'),
      ).toBe(`/instance/${deployment.body.id}/tokens`);
      for (const mode of [/No token in the configuration/, TOKEN_MODE]) {
        await page.getByRole('radio', { name: mode }).check();
        for (const [label, text] of await snippets(page))
          expect(text, label).not.toContain(minted.body.token);
        expect(await page.getByRole('main').textContent()).not.toContain(minted.body.token);
      }
    } finally {
      await context.close();
    }
  });

  it('on a private registry with an identity provider, says reads need a credential and where to sign in', async () => {
    let provider: TestProvider | undefined;
    let closed: UiRegistry | undefined;
    let context: BrowserContext | undefined;
    try {
      provider = await startProvider({ audience: 'http://registry.invalid', clients: [] });
      closed = await startUiRegistry({
        env: { REG_PUBLIC_READ: 'false', REG_OIDC_ISSUER: provider.issuer, REG_OIDC_CLIENT_ID: 'reg-ui' },
      });
      ({ context } = await openPage(browser, closed));
      const page = await context.newPage();
      await openConnect(page, closed);
      const main = page.getByRole('main');
      await main.getByText(/Reads on this registry are not public: an agent needs a credential/).waitFor();
      await main
        .getByText(`or a sign-in through the registry's identity provider, ${new URL(provider.issuer).host}`)
        .waitFor();
      expect(await main.getByRole('link', { name: 'protected resource metadata' }).getAttribute('href')).toBe(
        `${closed.url}/.well-known/oauth-protected-resource/mcp`,
      );
      for (const [label, text] of await snippets(page)) expect(text, label).toContain(`${closed.url}/mcp`);
      // The metadata the link points at names this provider for the MCP endpoint.
      const metadata = await fetch(`${closed.url}/.well-known/oauth-protected-resource/mcp`);
      expect(metadata.status).toBe(200);
      expect(await metadata.json()).toMatchObject({
        resource: `${closed.url}/mcp`,
        authorization_servers: expect.arrayContaining([provider.issuer]),
      });
    } finally {
      await context?.close();
      await closed?.stop();
      await provider?.stop();
    }
  });

  it('fits a narrow screen: the page does not scroll sideways, the long blocks do', async () => {
    const context = await browser.newContext({
      baseURL: registry.url,
      viewport: { width: 360, height: 740 },
    });
    try {
      const page = await context.newPage();
      await openConnect(page, registry);
      const widths = await page.evaluate<{ page: number; view: number }>(
        '({ page: document.documentElement.scrollWidth, view: document.documentElement.clientWidth })',
      );
      expect(widths.page).toBeLessThanOrEqual(widths.view);
      const block = await page.evaluate<{
        scroll: number;
        client: number;
        overflow: string;
        tabIndex: number;
      }>(`(() => {
        const element = document.getElementById('cn-discover');
        return {
          scroll: element.scrollWidth,
          client: element.clientWidth,
          overflow: getComputedStyle(element).overflowX,
          tabIndex: element.tabIndex,
        };
      })()`);
      expect(block.scroll).toBeGreaterThan(block.client);
      expect(block.overflow).toBe('auto');
      // A block that scrolls can be reached and scrolled with the keyboard.
      expect(block.tabIndex).toBe(0);
      await screenshot(page, 'connect-narrow');
    } finally {
      await context.close();
    }
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`has no WCAG A/AA violations in either credential mode (${scheme} scheme)`, async () => {
      // The page's policy forbids inline scripts; the audit script is injected by the test only.
      const context = await browser.newContext({
        baseURL: registry.url,
        bypassCSP: true,
        colorScheme: scheme,
      });
      try {
        const page = await context.newPage();
        await openConnect(page, registry);
        await page.waitForLoadState('networkidle');
        const found = await audit(page);
        await page.getByRole('radio', { name: TOKEN_MODE }).check();
        await page.locator('main pre', { hasText: 'Authorization' }).first().waitFor();
        found.push(...(await audit(page)));
        expect(found).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
