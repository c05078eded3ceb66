/**
 * The lineage picture of datasets reported through OpenLineage, in a real browser: a table written three times
 * stands as one dataset node with its number of versions, and opens into its versions; a lineage larger than one
 * answer is marked partial and completed with "Load more"; and the picture is fitted into view when it opens,
 * after it grows, and again with "Fit to view" after the reader moved it; all of it passes axe-core's WCAG A/AA
 * rules.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  audit,
  hasChromium,
  launchBrowser,
  openPage,
  screenshot,
  startUiRegistry,
  type UiRegistry,
} from '../support/browser.js';
import { completeRunEvent } from '../support/openlineage.js';

type Json = Record<string, any>;

const HUB = { namespace: 'postgres://warehouse:5432', name: 'sales.public.orders' };
const LOADS = 3;
const READERS = 12;

describe.skipIf(!hasChromium)('lineage picture of datasets', () => {
  let registry: UiRegistry;
  let browser: Browser;
  let token: string;
  /** The versions of the orders table, oldest first. */
  const hubVersions: string[] = [];

  async function call(method: string, path: string, body?: unknown, bearer?: string): Promise<Json> {
    const response = await registry.request<Json>(method, path, body, bearer);
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    return response.body;
  }

  /** A COMPLETE RunEvent of a job reading `inputs` and writing `outputs` at `time`. */
  async function run(job: string, time: string, inputs: object[], outputs: object[]): Promise<Json> {
    return call('POST', '/api/v1/lineage', completeRunEvent(job, time, inputs, outputs), token);
  }

  const idOf = (iri: string) => iri.slice(iri.lastIndexOf('/') + 1);
  const newest = () => idOf(hubVersions[hubVersions.length - 1]!);

  beforeAll(async () => {
    registry = await startUiRegistry();
    browser = await launchBrowser();
    const software = await call('POST', '/api/v1/software', { name: 'pipelines' });
    const instance = await call('POST', '/api/v1/instances', { software: software.id, label: 'scheduler' });
    token = (await call('POST', `/api/v1/instances/${instance.id}/tokens`, {})).token as string;
    // The orders table is loaded on three days; a dozen reports read its newest version.
    for (let day = 1; day <= LOADS; day++) {
      const load = await run('load orders', `2026-04-0${day}T01:00:00Z`, [], [HUB]);
      hubVersions.push(load.produced[0] as string);
    }
    for (let at = 0; at < READERS; at++)
      await run(
        `report ${at}`,
        '2026-04-03T02:00:00Z',
        [HUB],
        [{ namespace: 's3://reports', name: `report-${at}` }],
      );
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await registry?.stop();
  });

  /** A node of the picture, found by the words it is read out with. */
  const node = (page: Page, name: RegExp) => page.locator('svg').getByRole('button', { name });

  async function openPicture(path: string): Promise<{ page: Page; close: () => Promise<void> }> {
    const { context, page } = await openPage(browser, registry);
    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: /^Lineage of / }).waitFor();
    await page.locator('svg .lg-node').first().waitFor();
    return { page, close: () => context.close() };
  }

  /**
   * The nodes of the picture lying partly or wholly outside the visible area of the SVG, measured in one pass
   * inside the page (so a view applied midway cannot mix two states) after two frames, since the view is set in a
   * layout effect and refitted when the picture's room changes size.
   */
  async function outside(page: Page): Promise<string[]> {
    return page.evaluate(async () => {
      type Rect = { left: number; top: number; right: number; bottom: number };
      type Element = { getBoundingClientRect(): Rect; getAttribute(name: string): string | null };
      const scope = globalThis as unknown as {
        requestAnimationFrame(done: () => void): void;
        document: {
          querySelector(s: string): Element | null;
          querySelectorAll(s: string): Iterable<Element>;
        };
      };
      for (let frame = 0; frame < 2; frame++)
        await new Promise<void>((resolve) => scope.requestAnimationFrame(() => resolve()));
      const box = scope.document.querySelector('svg.lg-svg')!.getBoundingClientRect();
      const found: string[] = [];
      for (const each of scope.document.querySelectorAll('svg .lg-node')) {
        const at = each.getBoundingClientRect();
        const inside =
          at.left >= box.left - 0.5 &&
          at.top >= box.top - 0.5 &&
          at.right <= box.right + 0.5 &&
          at.bottom <= box.bottom + 0.5;
        if (!inside) found.push(each.getAttribute('aria-label') ?? '?');
      }
      return found;
    });
  }

  /** The picture settles with every node in view (it is refitted as it grows and as its room changes size). */
  const allInView = (page: Page) => expect.poll(() => outside(page)).toEqual([]);

  it('shows the versions of a dataset as one node with their number, and opens it into its versions', async () => {
    const { page, close } = await openPicture(`/lineage?artifact=${newest()}&depth=2`);
    try {
      const hub = node(page, /^Dataset, 3 versions sales\.public\.orders; the centre of this picture/);
      await hub.waitFor();
      expect(await hub.locator('.lg-tag').first().textContent()).toBe('Dataset, 3 versions ');
      // One node for the table, none for its versions one by one.
      expect(await node(page, /^Artifact sales\.public\.orders/).count()).toBe(0);
      expect(await page.locator('svg .lg-node.lg-dataset').count()).toBe(1);
      // The reports, each written once, are artifacts.
      expect(await node(page, /^Artifact report-/).count()).toBe(READERS);
      await allInView(page);

      // The panel beside the picture lists the versions and offers to show them apart.
      await hub.click();
      const panel = page.getByRole('complementary', { name: 'Selected node' });
      await panel.getByRole('heading', { name: 'Versions' }).waitFor();
      expect(await panel.locator('.lg-links').first().getByRole('link').count()).toBe(LOADS);

      // The text view says the same.
      await page.getByText(/^The picture as text/).click();
      const row = page
        .getByRole('table', { name: 'Nodes' })
        .getByRole('row', { name: /sales\.public\.orders/ });
      expect(await row.textContent()).toContain('Dataset, 3 versions');
      await screenshot(page, 'lineage-datasets');

      await panel.getByRole('button', { name: 'Show its 3 versions' }).click();
      await page.waitForURL(/versions=all/);
      const versions = node(page, /^Artifact sales\.public\.orders; .*of 3 of sales\.public\.orders/);
      await expect.poll(() => versions.count()).toBe(LOADS);
      expect(await page.locator('svg .lg-node.is-marked').count()).toBe(LOADS);
      expect(await page.locator('svg .lg-node.lg-dataset').count()).toBe(0);
      // The focus lands on the first version, and the picture says what it marked.
      await expect
        .poll(() => page.locator(':focus').getAttribute('aria-label'))
        .toMatch(/^Artifact sales\.public\.orders; .*version 1 of 3 of sales\.public\.orders/);
      await page
        .locator('.lg-versions-note')
        .getByText('Showing every version apart: the 3 versions of sales.public.orders are marked.')
        .waitFor();
      await screenshot(page, 'lineage-versions');

      // "Fit to view" shows everything, and grouping again brings the dataset back.
      await page.getByRole('button', { name: 'Fit to view' }).click();
      await allInView(page);
      await page.getByRole('button', { name: 'Group versions into datasets' }).click();
      await hub.waitFor();
      expect(new URL(page.url()).searchParams.get('versions')).toBeNull();
      expect(await page.getByLabel('Versions', { exact: true }).inputValue()).toBe('datasets');

      // The control above the picture shows every version too, and Enter on a dataset opens it.
      await page.getByLabel('Versions', { exact: true }).selectOption('all');
      await expect.poll(() => node(page, /^Artifact sales\.public\.orders/).count()).toBe(LOADS);
      // Only the versions opened from their dataset are marked.
      expect(await page.locator('svg .lg-node.is-marked').count()).toBe(0);
      await page.getByLabel('Versions', { exact: true }).selectOption('datasets');
      await hub.waitFor();
      await hub.focus();
      await page.keyboard.press('v');
      await page.waitForURL(/versions=all/);
      await expect.poll(() => page.locator('svg .lg-node.is-marked').count()).toBe(LOADS);
    } finally {
      await close();
    }
  });

  it('marks a partial lineage, loads the rest page by page, and keeps it all in view', async () => {
    const whole = await call(
      'GET',
      `/api/v1/artifacts/${newest()}/lineage?direction=both&depth=2&collapse=datasets&max_nodes=2000`,
    );
    expect(whole.partial).toBe(false);
    const all = whole.nodes.length as number;
    expect(all).toBeGreaterThan(2 * READERS);

    const { page, close } = await openPicture(`/lineage?artifact=${newest()}&depth=2&max_nodes=8`);
    try {
      const loadMore = page.getByRole('button', { name: 'Load more' });
      await loadMore.waitFor();
      await page
        .locator('.lg-partial')
        .getByText(/the registry gave this lineage in parts/)
        .waitFor();
      const first = await page.locator('svg .lg-node').count();
      expect(first).toBeLessThanOrEqual(8);
      expect(await page.locator('.lg-count').textContent()).toBe(`${first} nodes shown, more to load.`);
      await page
        .getByText(/^The picture as text: .*; partial, more of this lineage can be loaded$/)
        .waitFor();
      await allInView(page);

      // The button reads "Loading more…" while a part is on its way: a step ends when the button reads "Load more"
      // again over a larger picture, or is gone with the last part.
      const step = () =>
        page.evaluate(() => {
          const scope = globalThis as unknown as {
            document: {
              querySelector(s: string): { textContent: string | null } | null;
              querySelectorAll(s: string): { length: number };
            };
          };
          return {
            button: scope.document.querySelector('.lg-partial button')?.textContent ?? null,
            nodes: scope.document.querySelectorAll('svg .lg-node').length,
          };
        });
      let clicks = 0;
      while ((await step()).button !== null) {
        const before = (await step()).nodes;
        await loadMore.click();
        await expect
          .poll(async () => {
            const now = await step();
            return now.button === null || (now.button === 'Load more' && now.nodes > before);
          })
          .toBe(true);
        // Every step of the way the picture is fitted into view.
        await allInView(page);
        clicks++;
        expect(clicks).toBeLessThan(20);
      }
      expect(clicks).toBeGreaterThan(1);
      expect(await page.locator('svg .lg-node').count()).toBe(all);
      expect(await page.locator('.lg-count').textContent()).toBe(`${all} nodes shown.`);
      await page
        .getByRole('status')
        .filter({ hasText: /the whole lineage is loaded/ })
        .waitFor();
      // The dataset node gathered its versions from every page, once.
      await node(page, /^Dataset, 3 versions sales\.public\.orders/).waitFor();
      expect(await node(page, /^Artifact report-/).count()).toBe(READERS);
      await page.getByText(/^The picture as text: \d+ nodes and \d+ links$/).waitFor();
      const links = new Set(
        (whole.edges as Json[]).map(
          (edge) => `${edge.from as string} ${edge.predicate as string} ${edge.to as string}`,
        ),
      );
      expect(await page.locator('svg .lg-edge').count()).toBe(links.size);

      // Moved by the reader, the picture leaves the view; "Fit to view" brings it all back.
      const svg = (await page.locator('svg.lg-svg').boundingBox())!;
      await page.mouse.move(svg.x + 5, svg.y + svg.height - 5);
      await page.mouse.down();
      await page.mouse.move(svg.x + svg.width / 2, svg.y + svg.height / 2, { steps: 5 });
      await page.mouse.up();
      for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
      await expect.poll(async () => (await outside(page)).length).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Fit to view' }).click();
      await allInView(page);
      await screenshot(page, 'lineage-loaded');
    } finally {
      await close();
    }
  });

  it('has no WCAG A/AA violations with a dataset, its versions marked, and a partial answer', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      // The page's policy forbids inline scripts; the audit script is injected by the test only.
      const context = await browser.newContext({
        baseURL: registry.url,
        bypassCSP: true,
        colorScheme: scheme,
      });
      try {
        const page = await context.newPage();
        await page.goto(`/lineage?artifact=${newest()}&depth=2&max_nodes=8`);
        await page.getByRole('button', { name: 'Load more' }).waitFor();
        await page.getByText(/^The picture as text/).click();
        await page.waitForLoadState('networkidle');
        expect(await audit(page), `${scheme}: partial`).toEqual([]);
        await page.goto(`/lineage?artifact=${newest()}&depth=2`);
        await node(page, /^Dataset, 3 versions/).click();
        await page.getByRole('button', { name: 'Show its 3 versions' }).waitFor();
        await page.getByText(/^How to read the picture/).click();
        await page.getByText(/^The picture as text/).click();
        await page.waitForLoadState('networkidle');
        expect(await audit(page), `${scheme}: grouped`).toEqual([]);
        await page.getByRole('button', { name: 'Show its 3 versions' }).click();
        await page.locator('.lg-versions-note').waitFor();
        await page.waitForLoadState('networkidle');
        expect(await audit(page), `${scheme}: versions marked`).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
