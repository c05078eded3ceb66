/**
 * Accessibility of the main pages, checked by axe-core (WCAG 2.1 A and AA rules: names and labels, roles,
 * landmarks, colour contrast, …) in Chromium, in the light and the dark colour scheme, on a seeded registry;
 * and a keyboard walk: the skip link comes first and moves focus to the main region.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit, hasChromium, launchBrowser, startUiRegistry, type UiRegistry } from '../support/browser.js';

describe.skipIf(!hasChromium)('accessibility of the web page', () => {
  let registry: UiRegistry;
  let browser: Browser;
  const pages: [name: string, path: string, ready: string][] = [];

  const api = async <T>(path: string): Promise<T> => {
    const response = await registry.request<T>('GET', path);
    expect(response.status, path).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    registry = await startUiRegistry({ seed: true });
    browser = await launchBrowser();
    const first = async (path: string) => (await api<{ items: { id: string }[] }>(path)).items[0]!.id;
    const software = await first('/api/v1/software');
    const instance = await first('/api/v1/instances');
    const run = await first('/api/v1/runs');
    const artifact = await first('/api/v1/artifacts');
    pages.push(
      ['home', '/', 'main h1'],
      ['software list', '/software', `main a[href="/software/${software}"]`],
      ['software', `/software/${software}`, 'main h1'],
      ['deployment', `/instance/${instance}`, 'main h1'],
      ['run', `/run/${run}`, 'main h1'],
      ['artifact', `/artifact/${artifact}`, 'main h1'],
      ['types', '/types', 'main h1'],
      ['search', '/search?q=shacl', 'main h1'],
      ['lineage', `/lineage?artifact=${artifact}`, 'main svg'],
      ['sparql', '/sparql', 'main textarea'],
      ['connect an agent', '/connect', 'main pre'],
      ['sign-in', '/signin', 'main h1'],
    );
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await registry?.stop();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`has no WCAG A/AA violations on the main pages (${scheme} scheme)`, async () => {
      // The page's policy forbids inline scripts; the audit script is injected by the test only.
      const context = await browser.newContext({
        baseURL: registry.url,
        bypassCSP: true,
        colorScheme: scheme,
      });
      try {
        const found: string[] = [];
        for (const [name, path, ready] of pages) {
          const page = await context.newPage();
          await page.goto(path);
          await page.locator(ready).first().waitFor({ state: 'visible', timeout: 15_000 });
          await page.waitForLoadState('networkidle');
          found.push(...(await audit(page)).map((line) => `${name} (${path}): ${line}`));
          await page.close();
        }
        expect(found).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  }

  it('starts the tab order with a skip link that moves focus to the main region', async () => {
    const context = await browser.newContext({ baseURL: registry.url });
    try {
      const page = await context.newPage();
      await page.goto('/software');
      await page.locator('main h1').waitFor();
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to content' });
      await expect
        .poll(() => skip.evaluate((element) => element === (globalThis as any).document.activeElement))
        .toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('main');
    } finally {
      await context.close();
    }
  });
});
