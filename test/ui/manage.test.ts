/**
 * Curating the registry in a real browser, signed in as a curator at the test identity provider: registering
 * and editing software (with term pickers driven by keyboard and pointer), the registry's refusals shown beside
 * the fields they name, releases, deployments, API tokens shown once, and subscriptions. Every effect is checked
 * again through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  hasChromium,
  launchBrowser,
  openPage,
  screenshot,
  startUiRegistry,
  type UiRegistry,
} from '../support/browser.js';
import { loginAtProvider, startProvider, type TestProvider } from '../support/oidc.js';

const UI_CLIENT = 'reg-ui';
const APACHE = 'https://spdx.org/licenses/Apache-2.0';
const RECORD_PATH = /\/(software|release|instance)\/[0-9a-f-]{36}$/;

/** The id of the record whose page the browser shows. */
const idOnPage = (page: Page) => new URL(page.url()).pathname.split('/').pop()!;

/** Checks that an input is marked invalid and described by a message containing `text`; returns the message. */
async function invalidBeside(input: Locator, text: string | RegExp): Promise<string> {
  await input.and(input.page().locator('[aria-invalid="true"]')).waitFor({ timeout: 10_000 });
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id !== '');
  const messages = await Promise.all(ids.map((id) => input.page().locator(`[id="${id}"]`).textContent()));
  const message = messages.find(
    (candidate) =>
      candidate !== null && (typeof text === 'string' ? candidate.includes(text) : text.test(candidate)),
  );
  expect(
    message,
    `no description of the input matches ${String(text)}: ${JSON.stringify(messages)}`,
  ).toBeDefined();
  return message!;
}

/** Types into a combobox and picks the suggestion whose name matches, by pointer. */
async function pick(page: Page, combobox: string, typed: string, option: RegExp): Promise<void> {
  await page.getByRole('combobox', { name: combobox }).fill(typed);
  await page
    .getByRole('listbox', { name: `${combobox}: suggestions` })
    .getByRole('option', { name: option })
    .click();
}

describe.skipIf(!hasChromium)('curating on the web page', () => {
  let browser: Browser;
  let provider: TestProvider;
  let registry: UiRegistry;
  let software: { id: string; iri: string };
  let deployment: { id: string; iri: string };

  const api = <T>(path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
    registry.request<T>(
      init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      path,
      init.body,
      init.token,
    );

  /** Signs the page in as `account` at the identity provider, starting from (and returning to) `next`. */
  const signIn = async (page: Page, next: string, account = 'curator') => {
    await page.goto(`/signin?next=${encodeURIComponent(next)}`);
    await page.getByRole('button', { name: `Sign in with ${new URL(provider.issuer).host}` }).click();
    await page.waitForURL(`${provider.issuer}/**`);
    await loginAtProvider(page, account);
    await page.waitForURL(`${registry.url}${next}`);
    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).waitFor();
  };

  beforeAll(async () => {
    provider = await startProvider({
      audience: 'http://registry.invalid',
      clients: [],
      accounts: { curator: ['curator'], reader: ['reader'] },
    });
    [registry, browser] = await Promise.all([
      startUiRegistry({
        seed: true,
        env: {
          REG_OIDC_ISSUER: provider.issuer,
          REG_OIDC_CLIENT_ID: UI_CLIENT,
          // Webhooks to a loopback receiver, so a subscription with a webhook can be made here.
          REG_SUBSCRIPTION_ALLOW_HTTP: 'true',
          REG_SUBSCRIPTION_ALLOW_PRIVATE_TARGETS: 'true',
        },
      }),
      launchBrowser(),
    ]);
    provider.reconfigure({
      audience: registry.url,
      clients: [{ id: UI_CLIENT, public: true, redirectUris: [`${registry.url}/auth/callback`] }],
    });
    software = (
      await api<{ id: string; iri: string }>('/api/v1/software', {
        body: { name: 'curated-fixture', tagline: 'Made by the test', kinds: ['service'], license: APACHE },
      })
    ).body;
    deployment = (
      await api<{ id: string; iri: string }>('/api/v1/instances', {
        body: { software: software.id, label: 'fixture-deployment' },
      })
    ).body;
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([registry?.stop(), provider?.stop()]);
  });

  it('lets only curators at the forms, and tells everyone else why', async () => {
    const { context, page } = await openPage(browser, registry);
    try {
      await page.goto('/software/new');
      const notice = page.getByRole('status').filter({ hasText: 'Only curators may register software' });
      await notice.waitFor();
      expect(await notice.textContent()).toContain('You are not signed in');
      expect(await page.getByRole('button', { name: 'Register software' }).count()).toBe(0);
      expect(await notice.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
        '/signin?next=%2Fsoftware%2Fnew',
      );

      await signIn(page, '/software/new', 'reader');
      await page.getByRole('status').filter({ hasText: 'without that right' }).waitFor();
      expect(await page.getByRole('button', { name: 'Register software' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('registers software with topics, a capability and a licence, and lands on its page', async () => {
    const { context, page } = await openPage(browser, registry);
    try {
      await signIn(page, '/software/new');
      const about = page.getByRole('group', { name: 'About' });
      await about.getByLabel('Name').fill('ui-registered-tool');
      await about.getByLabel('Tagline').fill('Registered through the web page');
      await about.getByRole('checkbox', { name: 'Library' }).check();
      await pick(page, 'Topics', 'data sci', /^data science/);
      // The keyboard way: arrows move through the suggestions, Enter takes one (and does not send the form).
      const produces = page.getByRole('combobox', { name: 'Produces' });
      await produces.fill('RDF graph');
      await page
        .getByRole('listbox', { name: 'Produces: suggestions' })
        .getByRole('option')
        .first()
        .waitFor();
      await produces.press('ArrowDown');
      expect(await produces.getAttribute('aria-activedescendant')).toBe(
        'software-capability-produces-list-0',
      );
      await produces.press('Enter');
      const chosen = page.getByRole('list', { name: 'Produces: chosen' });
      await chosen.getByRole('button', { name: 'Remove RDF graph' }).waitFor();
      expect(await produces.getAttribute('aria-expanded')).toBe('false');
      expect(page.url()).toMatch(/\/software\/new$/);
      // A second choice, removed again with its chip's button; Escape closes an open list.
      await pick(page, 'Produces', 'RDF quads', /^RDF quads/);
      await chosen.getByRole('button', { name: 'Remove RDF quads' }).click();
      expect(await chosen.getByRole('listitem').count()).toBe(1);
      await expect
        .poll(() => page.evaluate('document.activeElement?.id'))
        .toBe('software-capability-produces');
      await produces.fill('shacl');
      await page
        .getByRole('listbox', { name: 'Produces: suggestions' })
        .getByRole('option')
        .first()
        .waitFor();
      await produces.press('Escape');
      expect(await produces.getAttribute('aria-expanded')).toBe('false');
      await produces.fill('');
      await pick(page, 'Licence', 'Apache License 2', /^Apache License 2\.0/);
      expect(await page.getByRole('combobox', { name: 'Licence' }).inputValue()).toBe(APACHE);
      await page
        .getByRole('group', { name: 'Links and licence' })
        .getByLabel('Homepage')
        .fill('https://example.org/ui-tool');

      await page.getByRole('button', { name: 'Register software' }).click();
      await page.waitForURL(RECORD_PATH);
      expect(page.url()).toContain('/software/');
      await page.getByRole('heading', { level: 1, name: 'ui-registered-tool' }).waitFor();
      const { body } = await api<Record<string, any>>(`/api/v1/software/${idOnPage(page)}`);
      expect(body).toMatchObject({
        name: 'ui-registered-tool',
        tagline: 'Registered through the web page',
        kinds: ['library'],
        license: APACHE,
        homepage: 'https://example.org/ui-tool',
        deployable: true,
      });
      expect(body.topics.map((topic: { label: string }) => topic.label)).toEqual(['data science']);
      expect(body.capability.produces.map((type: { iri: string }) => type.iri)).toEqual([
        `${registry.url}/type/rdf-graph`,
      ]);
    } finally {
      await context.close();
    }
  });

  it("shows the registry's refusal beside the fields it names, with a summary that links to them", async () => {
    const { context, page } = await openPage(browser, registry);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/v1/software'))
        posts.push(request.url());
    });
    try {
      await signIn(page, '/software/new');
      const name = page.getByRole('group', { name: 'About' }).getByLabel('Name');
      const licence = page.getByRole('combobox', { name: 'Licence' });
      const homepage = page.getByRole('group', { name: 'Links and licence' }).getByLabel('Homepage');
      const summary = page.getByRole('alert').filter({ has: page.getByRole('heading') });

      // The one check made before sending: a name.
      await page.getByRole('button', { name: 'Register software' }).click();
      await summary.waitFor();
      await invalidBeside(name, 'Give the software a name');
      expect(posts).toHaveLength(0);

      await name.fill('refused-tool');
      await licence.fill('https://example.org/not-a-licence');
      await homepage.fill('not a url');
      await page.getByRole('button', { name: 'Register software' }).click();
      await summary.getByRole('heading', { name: /did not accept this: 2 problems/ }).waitFor();
      expect(posts).toHaveLength(1);
      await expect.poll(() => page.evaluate('document.activeElement?.getAttribute("role")')).toBe('alert');
      expect(await name.getAttribute('aria-invalid')).toBeNull();
      await invalidBeside(licence, /license: <https:\/\/example\.org\/not-a-licence> is not a licence/);
      const homepageMessage = await invalidBeside(homepage, 'homepage must be an absolute IRI');
      await screenshot(page, 'software-form-errors');

      // Each line of the summary leads to its input.
      await summary.getByRole('link', { name: homepageMessage.replace(/^Error:\s*/, '') }).click();
      await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('software-homepage');

      await homepage.fill('https://example.org/fixed');
      await licence.fill('');
      await pick(page, 'Licence', 'MIT License', /^MIT License MIT$/);
      await page.getByRole('button', { name: 'Register software' }).click();
      await page.waitForURL(RECORD_PATH);
      const { body } = await api<Record<string, unknown>>(`/api/v1/software/${idOnPage(page)}`);
      expect(body).toMatchObject({ name: 'refused-tool', homepage: 'https://example.org/fixed' });
    } finally {
      await context.close();
    }
  });

  it('edits software by sending only the fields that changed', async () => {
    const { context, page } = await openPage(browser, registry);
    const patches: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') patches.push(request.postDataJSON());
    });
    try {
      await signIn(page, `/software/${software.id}/edit`);
      const about = page.getByRole('group', { name: 'About' });
      expect(await about.getByLabel('Name').inputValue()).toBe('curated-fixture');
      await about.getByLabel('Tagline').fill('');
      await about.getByLabel('Keywords').fill('fixtures, browsers');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL(`${registry.url}/software/${software.id}`);
      expect(patches).toEqual([{ tagline: null, keywords: ['fixtures', 'browsers'] }]);
      const { body } = await api<Record<string, unknown>>(`/api/v1/software/${software.id}`);
      expect(body.tagline).toBeUndefined();
      expect(body).toMatchObject({ name: 'curated-fixture', license: APACHE });
      expect([...(body.keywords as string[])].sort()).toEqual(['browsers', 'fixtures']);
    } finally {
      await context.close();
    }
  });

  it('adds a release, placing an error about one of its downloads beside that download', async () => {
    const { context, page } = await openPage(browser, registry);
    try {
      await signIn(page, `/software/${software.id}/releases/new`);
      await page.getByLabel('Version').fill('2.0.0');
      await page.getByLabel('Date published').fill('2026-01-15');
      await page.getByRole('button', { name: 'Add a download' }).click();
      const download = page.getByRole('group', { name: 'Download 1' });
      // The new download's first field has the focus.
      await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('release-downloads-0-url');
      await download.getByLabel('URL').fill('https://example.org/dl/tool-2.0.0.tar.gz');
      await download.getByLabel('Platform').fill('linux-amd64');
      const size = download.getByLabel('Size in bytes');
      await size.fill('big');
      await page.getByRole('button', { name: 'Add release' }).click();
      await invalidBeside(size, 'downloads[0].byte_size must be a whole number');

      await size.fill('1234');
      await page.getByRole('button', { name: 'Add release' }).click();
      await page.waitForURL(RECORD_PATH);
      expect(page.url()).toContain('/release/');
      const { body } = await api<{ items: Record<string, any>[] }>(
        `/api/v1/software/${software.id}/releases`,
      );
      const release = body.items.find((item) => item.version === '2.0.0');
      expect(release).toMatchObject({ date_published: '2026-01-15' });
      expect(release?.downloads).toMatchObject([
        { url: 'https://example.org/dl/tool-2.0.0.tar.gz', platform: 'linux-amd64', byte_size: 1234 },
      ]);
    } finally {
      await context.close();
    }
  });

  it('registers a deployment of the software named in the address, and edits it', async () => {
    const { context, page } = await openPage(browser, registry);
    try {
      await signIn(page, `/instances/new?software=${software.id}`);
      const select = page.getByLabel('Software (required)');
      await page.getByRole('option', { name: 'curated-fixture' }).waitFor({ state: 'attached' });
      expect(await select.inputValue()).toBe(software.iri);
      await page.getByLabel('Label (required)').fill('ui-deployment');
      await page.getByLabel('Endpoint URL').fill('https://ui-deployment.example.org');
      await page.getByLabel('Availability').selectOption('public');
      await page.getByRole('checkbox', { name: /^advertise:produce/ }).check();
      await page.getByRole('button', { name: 'Register deployment' }).click();
      await page.waitForURL(RECORD_PATH);
      expect(page.url()).toContain('/instance/');
      const { body } = await api<Record<string, unknown>>(`/api/v1/instances/${idOnPage(page)}`);
      expect(body).toMatchObject({
        label: 'ui-deployment',
        software: software.iri,
        endpoint_url: 'https://ui-deployment.example.org',
        availability: 'public',
        allowed_scopes: ['advertise:produce'],
      });

      // Editing sends only what changed, and clears what was emptied.
      const id = idOnPage(page);
      const patches: unknown[] = [];
      page.on('request', (request) => {
        if (request.method() === 'PATCH') patches.push(request.postDataJSON());
      });
      await page.goto(`/instance/${id}/edit`);
      const label = page.getByLabel('Label (required)');
      await label.waitFor();
      expect(await label.inputValue()).toBe('ui-deployment');
      await label.fill('ui-deployment renamed');
      await page.getByLabel('Endpoint URL').fill('');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL(`${registry.url}/instance/${id}`);
      expect(patches).toEqual([{ label: 'ui-deployment renamed', endpoint_url: null }]);
      const edited = (await api<Record<string, unknown>>(`/api/v1/instances/${id}`)).body;
      expect(edited).toMatchObject({ label: 'ui-deployment renamed', availability: 'public' });
      expect(edited.endpoint_url).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it('mints a token shown only once, and revokes it after asking', async () => {
    const { context, page } = await openPage(browser, registry);
    try {
      await signIn(page, `/software/${software.id}/tokens`);
      await page.getByRole('group', { name: 'Scopes' }).waitFor();
      await page.getByLabel('Label').fill('ci pipeline');
      await page.getByRole('button', { name: 'Create token' }).click();
      const once = page.getByRole('region', { name: 'Your new token' });
      await once.waitFor();
      expect(await once.textContent()).toContain('This is the only time it is shown');
      const field = once.getByLabel('Token');
      expect(await field.getAttribute('readonly')).not.toBeNull();
      const token = await field.inputValue();
      expect(token).toMatch(/^reg_[0-9a-f]{12}_[0-9a-f]{64}$/);
      const row = page.getByRole('row').filter({ hasText: 'ci pipeline' });
      await row.waitFor();
      expect(await row.textContent()).toContain('Active');
      await screenshot(page, 'tokens');
      expect((await api<{ authenticated: boolean }>('/api/v1/whoami', { token })).body.authenticated).toBe(
        true,
      );

      // Gone once the page is loaded again; the list keeps only its prefix.
      await page.reload();
      await row.waitFor();
      expect(await page.getByRole('region', { name: 'Your new token' }).count()).toBe(0);
      expect(await page.content()).not.toContain(token.slice(17));
      expect(await row.textContent()).toContain(token.slice(0, 16));

      await row.getByRole('button', { name: /^Revoke token/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Revoke this token?' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Revoke token' }).click();
      await row.filter({ hasText: 'Revoked' }).waitFor();
      expect((await api('/api/v1/whoami', { token })).status).toBe(401);
    } finally {
      await context.close();
    }
  });

  it('creates a webhook subscription sending CloudEvents signed the Standard Webhooks way', async () => {
    const { context, page } = await openPage(browser, registry);
    try {
      await signIn(page, `/instance/${deployment.id}/subscriptions`);
      await page.getByLabel('Label').fill('to the broker');
      await page.getByLabel('Webhook URL').fill('http://127.0.0.1:9/broker');
      await page.getByLabel('Body format').selectOption('cloudevents');
      await page.getByLabel('Signature').selectOption('standard-webhooks');
      await page.getByRole('button', { name: 'Create subscription' }).click();
      const once = page.getByRole('region', { name: /webhook secret/ });
      await once.waitFor();
      // The Standard Webhooks form of a secret: whsec_ and the base64 of its bytes.
      expect(await once.getByLabel('Webhook secret').inputValue()).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
      const card = page.getByRole('article', { name: 'to the broker' });
      await card.getByText(/CloudEvents, signed with Standard Webhooks/).waitFor();
      const { body } = await api<{ items: Record<string, any>[] }>(
        `/api/v1/instances/${deployment.id}/subscriptions`,
      );
      const created = body.items.find((item) => item.label === 'to the broker');
      expect(created).toMatchObject({
        webhook_url: 'http://127.0.0.1:9/broker',
        format: 'cloudevents',
        signature: 'standard-webhooks',
      });
      expect((await api(`/api/v1/subscriptions/${created!.id}`, { method: 'DELETE' })).status).toBe(204);
    } finally {
      await context.close();
    }
  });

  it('creates a subscription with a webhook (its secret shown once), pauses it and deletes it', async () => {
    const { context, page } = await openPage(browser, registry);
    try {
      await signIn(page, `/instance/${deployment.id}/subscriptions`);
      await page.getByText('No subscriptions yet.').waitFor();
      await page.getByLabel('Label').fill('rdf graphs in');
      await pick(page, 'Artifact types', 'RDF graph', /^RDF graph/);
      await page.getByRole('checkbox', { name: /^Consumed/ }).check();
      const webhook = page.getByLabel('Webhook URL');
      await webhook.fill('not a url');
      await page.getByRole('button', { name: 'Create subscription' }).click();
      await invalidBeside(webhook, 'is not an absolute URL');

      await webhook.fill('http://127.0.0.1:9/hook');
      await page.getByRole('button', { name: 'Create subscription' }).click();
      const once = page.getByRole('region', { name: /webhook secret/ });
      await once.waitFor();
      expect(await once.getByLabel('Webhook secret').inputValue()).toMatch(/^whsec_[0-9a-f]{64}$/);
      const card = page.getByRole('article', { name: 'rdf graphs in' });
      // Type IRIs are shown by their labels once those are looked up.
      await card.getByText('Types: RDF graph').waitFor();
      const text = (await card.textContent()) ?? '';
      expect(text).toContain('Types: RDF graph');
      expect(text).toContain('Roles: consumed');
      expect(text).toContain(
        "Webhook to http://127.0.0.1:9/hook (the registry's JSON, signed with x-reg-signature)",
      );
      const { body } = await api<{ items: Record<string, any>[] }>(
        `/api/v1/instances/${deployment.id}/subscriptions`,
      );
      expect(body.items).toHaveLength(1);
      expect(body.items[0]).toMatchObject({
        label: 'rdf graphs in',
        webhook_url: 'http://127.0.0.1:9/hook',
        filter: { conforms_to: [`${registry.url}/type/rdf-graph`], roles: ['consumed'], exclude_own: true },
        format: 'reg',
        signature: 'reg',
      });

      await card.getByRole('button', { name: 'Disable rdf graphs in' }).click();
      await card.getByRole('button', { name: 'Enable rdf graphs in' }).waitFor();
      expect(await card.textContent()).toContain('Disabled');
      await card.getByText('Recent deliveries').click();
      await card.getByText('Nothing has matched yet.').waitFor();

      await card.getByRole('button', { name: 'Delete rdf graphs in' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete this subscription?' });
      await dialog.getByRole('button', { name: 'Delete subscription' }).click();
      await page.getByText('No subscriptions yet.').waitFor();
      expect(
        (await api<{ total: number }>(`/api/v1/instances/${deployment.id}/subscriptions`)).body.total,
      ).toBe(0);
    } finally {
      await context.close();
    }
  });
});
