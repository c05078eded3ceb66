/**
 * Signing in on the web page: with the registry's identity provider (the authorization code flow with PKCE
 * against a real oidc-provider, logging in on its own page and coming back as a person with a role, the
 * access token renewed silently before it expires), by pasting an API token (accepted and refused), and on a
 * private registry, where nothing shows until someone signs in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { waitFor } from '../helpers.js';
import {
  hasChromium,
  launchBrowser,
  openPage,
  ROOT_TOKEN,
  screenshot,
  startUiRegistry,
  type UiRegistry,
} from '../support/browser.js';
import { loginAtProvider, startProvider, type TestProvider } from '../support/oidc.js';

const UI_CLIENT = 'reg-ui';
/** Short-lived access tokens, so the silent renewal happens while the test watches. */
const TOKEN_TTL_S = 12;
const UNKNOWN_TOKEN = `reg_000000000000_${'0'.repeat(64)}`;

/** The bearer the page holds for this tab. */
const bearerOf = (page: Page) => page.evaluate<string | null>('sessionStorage.getItem("reg.bearer")');

/** `whoami` for the page's own bearer, asked from inside the page. */
const whoamiOf = (page: Page) =>
  page.evaluate<Record<string, unknown>>(
    'fetch("/api/v1/whoami", { headers: { authorization: `Bearer ${sessionStorage.getItem("reg.bearer")}` } }).then((r) => r.json())',
  );

describe.skipIf(!hasChromium)('signing in on the web page', () => {
  let browser: Browser;
  let provider: TestProvider;
  let withProvider: UiRegistry;
  let privateRegistry: UiRegistry;

  beforeAll(async () => {
    // The provider must exist before the registry (which trusts its issuer); the registry's address, which is
    // the token audience and the redirect URI's origin, is known only once it runs.
    provider = await startProvider({
      audience: 'http://registry.invalid',
      clients: [],
      accounts: { curator: ['curator'], reader: ['reader'] },
      accessTokenTtl: TOKEN_TTL_S,
    });
    [withProvider, privateRegistry, browser] = await Promise.all([
      startUiRegistry({ env: { REG_OIDC_ISSUER: provider.issuer, REG_OIDC_CLIENT_ID: UI_CLIENT } }),
      startUiRegistry({ seed: true, env: { REG_PUBLIC_READ: 'false' } }),
      launchBrowser(),
    ]);
    provider.reconfigure({
      audience: withProvider.url,
      clients: [{ id: UI_CLIENT, public: true, redirectUris: [`${withProvider.url}/auth/callback`] }],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([withProvider?.stop(), privateRegistry?.stop(), provider?.stop()]);
  });

  it('signs a person in at the identity provider, renews the token silently, and signs out', async () => {
    const { context, page } = await openPage(browser, withProvider);
    try {
      await page.goto('/signin?next=%2Fsoftware');
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      const host = new URL(provider.issuer).host;
      const button = page.getByRole('button', { name: `Sign in with ${host}` });
      await button.waitFor();
      // Both ways are offered, each labelled.
      expect(await page.getByLabel('API token', { exact: true }).getAttribute('type')).toBe('password');
      await screenshot(page, 'signin');

      await button.click();
      await page.waitForURL(`${provider.issuer}/**`);
      await loginAtProvider(page, 'curator');
      await page.waitForURL(`${withProvider.url}/software`);

      const banner = page.getByRole('banner');
      await banner.getByRole('button', { name: 'Sign out' }).waitFor();
      expect(await banner.textContent()).toContain('curator');
      const who = await whoamiOf(page);
      expect(who).toMatchObject({
        authenticated: true,
        credential: 'oidc-human',
        subject: `${provider.issuer}|curator`,
        roles: ['curator'],
        is_curator: true,
      });

      // The refresh token (in memory only) renews the access token before it runs out.
      const first = await bearerOf(page);
      expect(first).toMatch(/^ey/);
      await waitFor(async () => ((await bearerOf(page)) ?? first) !== first, (TOKEN_TTL_S + 8) * 1000);
      expect(await whoamiOf(page)).toMatchObject({ authenticated: true, credential: 'oidc-human' });

      await banner.getByRole('button', { name: 'Sign out' }).click();
      await banner.getByRole('link', { name: 'Sign in' }).waitFor();
      expect(await bearerOf(page)).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('says why a sign-in failed: a forged answer, a cancelled login, a token the registry refuses', async () => {
    const { context, page } = await openPage(browser, withProvider);
    const host = new URL(provider.issuer).host;
    const failure = async (pattern: RegExp) => {
      await page.waitForURL(/\/auth\/callback/);
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(pattern);
      expect(await bearerOf(page)).toBeNull();
      // A way back: try again, or return to where the sign-in started.
      expect(await page.getByRole('link', { name: 'Go back without signing in' }).getAttribute('href')).toBe(
        '/types',
      );
      await page.getByRole('link', { name: 'Try again' }).click();
      await page.waitForURL(/\/signin\?next=%2Ftypes$/);
    };
    try {
      // An answer nobody started in this tab (a replayed or forged one).
      await page.goto('/auth/callback?code=forged&state=forged');
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(/No sign-in was started in this tab/);

      // The person cancels at the provider.
      await page.goto('/signin?next=%2Ftypes');
      await page.getByRole('button', { name: `Sign in with ${host}` }).click();
      await page.waitForURL(`${provider.issuer}/**`);
      await page.getByRole('link', { name: '[ Cancel ]' }).click();
      await failure(/The identity provider refused the sign-in \(access_denied/);

      // The provider issues a token for another audience, which the registry refuses.
      provider.reconfigure({ audience: 'http://elsewhere.invalid' });
      try {
        await page.getByRole('button', { name: `Sign in with ${host}` }).click();
        await page.waitForURL(`${provider.issuer}/**`);
        await loginAtProvider(page, 'reader');
        await failure(/the registry refused its token: token audience does not include/);
      } finally {
        provider.reconfigure({ audience: withProvider.url });
      }
    } finally {
      await context.close();
    }
  });

  it('signs in with a pasted API token, and refuses one the registry does not know', async () => {
    const { context, page } = await openPage(browser, withProvider);
    try {
      await page.goto('/signin');
      const field = page.getByLabel('API token', { exact: true });
      await field.fill(UNKNOWN_TOKEN);
      await page.getByRole('button', { name: 'Sign in with this token' }).click();
      const refusal = page.getByRole('alert');
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain(
        'The registry refused this token: token is unknown, revoked or expired',
      );
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
      const errorId = describedBy.split(' ').find((id) => id.endsWith('error'));
      expect(await page.locator(`#${errorId}`).textContent()).toContain('refused');
      expect(await bearerOf(page)).toBeNull();

      await field.fill(ROOT_TOKEN);
      await page.getByRole('button', { name: 'Sign in with this token' }).click();
      const banner = page.getByRole('banner');
      await banner.getByRole('button', { name: 'Sign out' }).waitFor();
      expect(await banner.textContent()).toContain('bootstrap admin');
      // Without `next`, the page says who is signed in.
      const status = page.getByRole('status').filter({ hasText: 'You are signed in as bootstrap admin' });
      await status.waitFor();
      expect(await status.textContent()).toContain('the bootstrap (root) token');
      expect(await field.inputValue()).toBe('');
    } finally {
      await context.close();
    }
  });

  it('shows a private registry only after signing in', async () => {
    const { context, page } = await openPage(browser, privateRegistry);
    try {
      await page.goto('/signin');
      await page.getByLabel('API token', { exact: true }).waitFor();
      // No identity provider here: pasting a token is the only way.
      expect(await page.getByRole('button', { name: /^Sign in with (?!this token)/ }).count()).toBe(0);

      await page.goto('/software');
      const prompt = page.getByRole('alert').filter({ hasText: 'private' });
      await prompt.waitFor();
      expect(await page.getByRole('link', { name: 'shacl-manager' }).count()).toBe(0);
      await prompt.getByRole('link', { name: 'Sign in' }).click();
      await page.waitForURL(/\/signin\?next=%2Fsoftware/);
      await page.getByLabel('API token', { exact: true }).fill(ROOT_TOKEN);
      await page.getByRole('button', { name: 'Sign in with this token' }).click();
      await page.waitForURL(`${privateRegistry.url}/software`);
      await page.getByRole('link', { name: 'shacl-manager' }).first().waitFor();
    } finally {
      await context.close();
    }
  });
});
