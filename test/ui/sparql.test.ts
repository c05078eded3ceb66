/**
 * The SPARQL console in a real browser against a seeded registry: an example query run into a table, the
 * downloads holding the same rows, the query kept in the address, ASK by keyboard, and a syntax error shown
 * with the registry's own detail beside the editor.
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hasChromium,
  launchBrowser,
  openPage,
  ROOT_TOKEN,
  screenshot,
  startUiRegistry,
  type UiRegistry,
} from '../support/browser.js';

/** Splits the CSV the console writes (fields quoted only when they hold a comma, quote or line break). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

describe.skipIf(!hasChromium)('SPARQL console', () => {
  let registry: UiRegistry;
  let browser: Browser;

  beforeAll(async () => {
    registry = await startUiRegistry({ seed: true });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await registry?.stop();
  });

  async function download(page: Page, name: string): Promise<string> {
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name, exact: true }).click(),
    ]);
    return fs.readFileSync(await file.path(), 'utf8');
  }

  it('runs an example into a table whose downloads hold the same rows', async () => {
    const { context, page } = await openPage(browser, registry);
    try {
      await page.goto('/sparql');
      await page.getByRole('heading', { level: 1, name: 'SPARQL console' }).waitFor();
      await page.getByLabel('Example queries').selectOption({ label: 'Latest runs of one deployment' });
      await page.getByRole('button', { name: 'Use this example' }).click();
      const query = await page.getByLabel('Query').inputValue();
      expect(query).toContain('rdfs:label "shacl.ids.unimaas.nl"');
      await page.getByRole('button', { name: 'Run', exact: true }).click();

      const table = page.getByRole('table', { name: 'Query results' });
      await table.waitFor();
      await page.getByText(/^3 rows · \d+ ms$/).waitFor();
      expect(await table.getByRole('columnheader').allTextContents()).toEqual([
        '?run',
        '?status',
        '?started',
      ]);
      const rows = table.locator('tbody tr');
      expect(await rows.count()).toBe(3);
      // Run IRIs are this registry's: shown as their paths and linked to their pages.
      const links = table.locator('tbody td:first-child a');
      const shownRuns = await links.allTextContents();
      for (const text of shownRuns) expect(text).toMatch(/^\/run\/[\w-]+$/);
      expect(await links.first().getAttribute('href')).toBe(shownRuns[0]);
      // Literals keep their datatype, shown beside the value.
      expect(await rows.first().locator('td').nth(2).textContent()).toMatch(/Z \^\^xsd:dateTime$/);

      // The query is in the address, so this state can be linked.
      expect(new URL(page.url()).searchParams.get('query')).toBe(query);

      // The CSV and SPARQL JSON downloads hold the rows of the table.
      const csv = parseCsv(await download(page, 'CSV'));
      expect(csv[0]).toEqual(['run', 'status', 'started']);
      expect(csv.slice(1).map((row) => row[0])).toEqual(shownRuns.map((path) => `${registry.url}${path}`));
      expect(csv.slice(1).map((row) => row[1])).toEqual(['success', 'success', 'success']);
      const json = JSON.parse(await download(page, 'SPARQL JSON'));
      expect(json.head.vars).toEqual(['run', 'status', 'started']);
      expect(json.results.bindings.map((b: any) => [b.run.value, b.status.value, b.started.value])).toEqual(
        csv.slice(1),
      );
      await screenshot(page, 'sparql');
    } finally {
      await context.close();
    }
  });

  it('answers ASK with yes or no when run with Ctrl+Enter, and CONSTRUCT as Turtle', async () => {
    const { context, page } = await openPage(browser, registry);
    try {
      await page.goto('/sparql');
      const editor = page.getByLabel('Query');
      await editor.fill('ASK { GRAPH <urn:reg:local> { ?s a <https://w3id.org/reg/ns#Software> } }');
      await editor.press('Control+Enter');
      await page.locator('.sq-ask').getByText('Yes').waitFor();
      await editor.fill('ASK { <urn:nothing> ?p ?o }');
      await editor.press('Control+Enter');
      await page.locator('.sq-ask').getByText('No').waitFor();

      await editor.fill(
        'CONSTRUCT { ?s a <https://w3id.org/reg/ns#Software> } WHERE { GRAPH <urn:reg:local> { ?s a <https://w3id.org/reg/ns#Software> } }',
      );
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const turtle = page.getByLabel('Results as Turtle');
      await turtle.waitFor();
      expect((await turtle.textContent())?.match(/<https:\/\/w3id\.org\/reg\/ns#Software>/g)?.length).toBe(4);
      expect(await download(page, 'Turtle')).toBe(await turtle.textContent());
    } finally {
      await context.close();
    }
  });

  it('shows a syntax error with its detail beside the editor', async () => {
    const { context, page } = await openPage(browser, registry);
    try {
      await page.goto('/sparql');
      const editor = page.getByLabel('Query');
      await editor.fill('SELECT ?s WHERE { ?s ?p ?o');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const alert = page.locator('form').getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(/The query could not be run \(400\).*SPARQL syntax error: /);
      expect(await editor.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('table', { name: 'Query results' }).count()).toBe(0);

      // Fixing the query clears the error.
      await editor.fill('SELECT ?s WHERE { ?s ?p ?o } LIMIT 2');
      await editor.press('Control+Enter');
      await page.getByText(/^2 rows · /).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('on a registry whose SPARQL is not public, asks to sign in, and sends the bearer once signed in', async () => {
    const closed = await startUiRegistry({ env: { REG_SPARQL_PUBLIC: 'false' } });
    const { context, page } = await openPage(browser, closed);
    try {
      await page.goto('/sparql');
      await page
        .getByRole('note')
        .getByText(/SPARQL on this registry is not public/)
        .waitFor();
      const editor = page.getByLabel('Query');
      await editor.fill('ASK { ?s ?p ?o }');
      await editor.press('Control+Enter');
      const alert = page.locator('form').getByRole('alert');
      await alert.getByText(/not public: sign in to run queries/).waitFor();
      expect(await alert.textContent()).toContain('(401)');

      // The bearer of the tab's session (as the sign-in page stores it) goes with the query.
      await context.addInitScript({
        content: `sessionStorage.setItem('reg.bearer', ${JSON.stringify(ROOT_TOKEN)})`,
      });
      await page.goto('/sparql');
      await page.getByLabel('Query').fill('ASK { ?s ?p ?o }');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await page.locator('.sq-ask').getByText('Yes').waitFor();
      expect(await page.getByRole('note').count()).toBe(0);
    } finally {
      await context.close();
      await closed.stop();
    }
  });
});
