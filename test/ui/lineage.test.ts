/**
 * The lineage picture in a real browser against a seeded registry: an artifact's picture and a run's, the nodes
 * drawn and listed as text, direction and depth kept in the address, expanding and collapsing a node, and an
 * unresolved foreign IRI marked in words.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hasChromium,
  launchBrowser,
  openPage,
  screenshot,
  startUiRegistry,
  type UiRegistry,
} from '../support/browser.js';

type Json = Record<string, any>;

const FOREIGN = 'https://elsewhere.example/artifact/ui-lineage-source';

describe.skipIf(!hasChromium)('lineage picture', () => {
  let registry: UiRegistry;
  let browser: Browser;
  /** A seeded run that used a local input graph and generated a validation report. */
  let run: Json;
  let report: string;
  let input: string;
  /** An artifact advertised here, derived from the report and from a foreign IRI nobody resolved. */
  let summary: string;

  async function call(method: string, path: string, body?: unknown, token?: string): Promise<Json> {
    const response = await registry.request<Json>(method, path, body, token);
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    return response.body;
  }

  const idOf = (iri: string) => iri.slice(iri.lastIndexOf('/') + 1);

  beforeAll(async () => {
    registry = await startUiRegistry({ seed: true });
    browser = await launchBrowser();
    const runs = (await call('GET', '/api/v1/runs?limit=50')).items as Json[];
    const seeded = runs.find(
      (r) => r.label === 'validate-batch-2' && r.instance_label === 'shacl.ids.unimaas.nl',
    );
    expect(seeded).toBeDefined();
    run = await call('GET', `/api/v1/runs/${seeded!.id}`);
    report = run.generated[0].iri;
    input = run.used[0].iri;
    const software = await call('POST', '/api/v1/software', { name: 'summariser' });
    const instance = await call('POST', '/api/v1/instances', { software: software.id, label: 'summary-ci' });
    const token = (await call('POST', `/api/v1/instances/${instance.id}/tokens`, {})).token as string;
    const advertised = await call(
      'POST',
      '/api/v1/advertise/produced',
      {
        run: { external_key: 'ui-lineage-1', label: 'summarise reports' },
        artifacts: [
          {
            title: 'Derived summary',
            conforms_to: `${registry.url}/type/conformance-summary`,
            was_derived_from: [report, FOREIGN],
          },
        ],
      },
      token,
    );
    summary = advertised.artifacts[0];
  });

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
    return { page, close: () => context.close() };
  }

  it("draws an artifact's lineage, marks the unresolved foreign IRI, and lists it all as text", async () => {
    const { page, close } = await openPicture(`/lineage?artifact=${idOf(summary)}`);
    try {
      await node(page, /^Artifact Derived summary; the centre/).waitFor();
      await node(page, /^Run summarise reports/).waitFor();
      await node(page, /^Artifact Validation report — batch 2 at deployment 1/).waitFor();
      const foreign = node(page, /^Unresolved foreign IRI ui-lineage-source/);
      await foreign.waitFor();
      // Marked in words on the node itself (and by a drawn warning sign), not by colour alone.
      expect(await foreign.locator('text').first().textContent()).toContain('Unresolved foreign IRI');
      expect(await foreign.locator('.lg-icon').count()).toBe(1);
      expect(await page.locator('svg .lg-node').count()).toBe(4);
      // Edge labels name the PROV relation.
      const labels = await page.locator('svg .lg-edge-label').allTextContents();
      expect(labels.sort()).toEqual(['wasDerivedFrom', 'wasDerivedFrom', 'wasGeneratedBy']);

      // Selecting the foreign node shows why it is unresolved beside the picture.
      await foreign.click();
      const panel = page.getByRole('complementary', { name: 'Selected node' });
      await panel.getByText('Not resolved: this registry holds nothing about it yet').waitFor();
      expect(await panel.getByRole('link', { name: /another registry/ }).getAttribute('href')).toBe(FOREIGN);

      // The text alternative lists the same nodes and links.
      await page.getByText(/^The picture as text/).click();
      const nodes = page.getByRole('table', { name: 'Nodes' });
      expect(await nodes.getByRole('row').count()).toBe(1 + 4);
      const foreignRow = nodes.getByRole('row', { name: /ui-lineage-source/ });
      expect(await foreignRow.textContent()).toMatch(/Unresolved foreign IRI.*unresolved/);
      const links = page.getByRole('table', { name: /^Links/ });
      expect(await links.getByRole('row').count()).toBe(1 + 3);
      expect(
        await links.getByRole('row', { name: /Derived summary wasGeneratedBy summarise reports/ }).count(),
      ).toBe(1);
    } finally {
      await close();
    }
  });

  it('keeps direction and depth in the address and redraws for them', async () => {
    const { page, close } = await openPicture(`/lineage?artifact=${idOf(summary)}`);
    try {
      await node(page, /^Artifact Derived summary/).waitFor();
      expect(await node(page, /^Artifact input graph/).count()).toBe(0);
      await page.getByLabel('Depth').selectOption('3');
      await node(page, /^Artifact input graph/).waitFor();
      expect(new URL(page.url()).searchParams.get('depth')).toBe('3');
      await node(page, /^Run validate-batch-2/).waitFor();

      await page.getByLabel('Direction').selectOption('down');
      await page.getByText(/^1 node shown/).waitFor();
      expect(new URL(page.url()).searchParams.get('direction')).toBe('down');
      expect(await page.locator('svg .lg-node').count()).toBe(1);
    } finally {
      await close();
    }
  });

  it('expands a node on demand and collapses what only hangs off it', async () => {
    const { page, close } = await openPicture(`/lineage?artifact=${idOf(summary)}&depth=1`);
    try {
      const reportNode = node(page, /^Artifact Validation report — batch 2 at deployment 1/);
      await reportNode.waitFor();
      expect(await reportNode.getAttribute('aria-label')).toContain('press Enter to expand');
      expect(await node(page, /^Run validate-batch-2/).count()).toBe(0);

      // Activating the node fetches its own lineage and merges it in.
      await reportNode.click();
      await node(page, /^Run validate-batch-2/).waitFor();
      await node(page, /^Artifact input graph/).waitFor();
      expect(await page.locator('svg .lg-node').count()).toBe(6);
      await page
        .getByRole('status')
        .filter({ hasText: /Added 2 nodes around Validation report/ })
        .waitFor();

      // Collapsing it hides the run and the input, which are only reachable through it.
      await reportNode.focus();
      await page.keyboard.press('-');
      await node(page, /^Run validate-batch-2/).waitFor({ state: 'detached' });
      expect(await node(page, /^Artifact input graph/).count()).toBe(0);
      expect(await reportNode.getAttribute('aria-label')).toMatch(/ \+2 more; collapsed$/);
      expect(await reportNode.locator('.lg-more').textContent()).toBe('+2 more');

      // Enter shows them again; arrow keys move the focus between nodes.
      await page.keyboard.press('Enter');
      await node(page, /^Run validate-batch-2/).waitFor();
      await page.keyboard.press('Home');
      const focused = () => page.locator(':focus').getAttribute('aria-label');
      await expect.poll(focused).toMatch(/^Artifact Derived summary/);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(focused).not.toMatch(/^Artifact Derived summary/);
      expect(await focused()).toMatch(/^(Artifact|Run|Unresolved foreign IRI) /);
      await screenshot(page, 'lineage');
    } finally {
      await close();
    }
  });

  it("draws a run with what it used and generated, and expands an artifact of it through the artifact's lineage", async () => {
    const { page, close } = await openPicture(`/lineage?run=${run.id as string}`);
    try {
      await node(page, /^Run validate-batch-2; the centre/).waitFor();
      await node(page, /^Artifact input graph/).waitFor();
      const output = node(page, /^Artifact Validation report — batch 2 at deployment 1/);
      await output.waitFor();
      expect(await page.locator('svg .lg-node').count()).toBe(3);
      const labels = await page.locator('svg .lg-edge-label').allTextContents();
      expect(labels.sort()).toEqual(['used', 'wasGeneratedBy']);

      // The report's own lineage brings the summary derived from it.
      await output.click();
      await node(page, /^Artifact Derived summary/).waitFor();
      await page.getByText(/^The picture as text/).click();
      expect(
        await page
          .getByRole('table', { name: 'Nodes' })
          .getByRole('row', { name: /Derived summary/ })
          .count(),
      ).toBe(1);
      expect(
        await page.getByRole('link', { name: /Open the page of validate-batch-2/ }).getAttribute('href'),
      ).toBe(`/run/${run.id as string}`);
      // Each node links to its page: this registry's records by their paths.
      const inputLink = page
        .getByRole('table', { name: 'Nodes' })
        .getByRole('link', { name: /^input graph/ });
      expect(await inputLink.getAttribute('href')).toBe(new URL(input).pathname);
    } finally {
      await close();
    }
  });

  it('says when the run or artifact is not in the registry', async () => {
    const { context, page } = await openPage(browser, registry);
    try {
      await page.goto('/lineage?artifact=no-such-artifact');
      await page.getByRole('alert').getByText('This artifact is not in this registry.').waitFor();
    } finally {
      await context.close();
    }
  });
});
