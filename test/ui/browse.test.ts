/**
 * Browsing the registry in a real browser: the front page, the lists with their filters and paging, every
 * kind of record page (opened by following links and by opening a record IRI directly), the README rendered
 * safely, types with a vocabulary search, and search across kinds. Locators go by role and label, so each
 * one also checks that the page names its controls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  hasChromium,
  launchBrowser,
  openPage,
  ROOT_TOKEN,
  screenshot,
  startUiRegistry,
  type UiRegistry,
} from '../support/browser.js';
import { waitFor } from '../helpers.js';

const README_BASE = 'https://code.example.org/acme/readme-demo/blob/main/';
const README = [
  '# Readme demo',
  '',
  '<script>alert(1)</script>',
  '',
  'See the [relative docs](docs/x.md), ![the logo](img/logo.png) and [a trap](javascript:alert(2)).',
  '',
  'More at https://example.org/more.',
].join('\n');

/** Waits (up to ten seconds) until the locator shows something, and returns it. */
async function shown(locator: Locator): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible', timeout: 10_000 });
  return locator;
}

/** Waits for the page's heading and checks it is the only `<h1>`. */
async function heading(page: Page, name: string | RegExp): Promise<void> {
  await shown(page.getByRole('heading', { level: 1, name }));
  expect(await page.locator('h1').count()).toBe(1);
}

describe.skipIf(!hasChromium)('browsing the registry', () => {
  let registry: UiRegistry;
  let browser: Browser;
  let readme: { id: string; iri: string };
  let deployment: { id: string; label: string };

  const api = async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await registry.request<T>(body === undefined ? 'GET' : 'POST', path, body);
    expect(response.status >= 200 && response.status < 300, `${path}: ${response.status}`).toBe(true);
    return response.body;
  };

  beforeAll(async () => {
    // Probing every second, so a deployment whose health endpoint is the registry's own is soon up.
    registry = await startUiRegistry({ seed: true, env: { REG_HEALTH_CHECK_INTERVAL: '1s' } });
    browser = await launchBrowser();
    readme = await api('/api/v1/software', {
      name: 'readme-demo',
      tagline: 'A program with a README full of traps',
      kinds: ['cli'],
      readme: README,
      readme_base_url: README_BASE,
    });
    const [shaclManager] = (await api<{ items: { id: string }[] }>('/api/v1/software?q=shacl-manager')).items;
    deployment = await api('/api/v1/instances', {
      software: shaclManager?.id,
      label: 'browser-test-deployment',
      endpoint_url: registry.url,
      health_endpoint: `${registry.url}/healthz`,
    });
    await waitFor(
      async () => (await api<{ health?: string }>(`/api/v1/instances/${deployment.id}`)).health === 'up',
      20_000,
    );
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await registry?.stop();
  });

  it('shows the front page with counts, a search box and the newest records', async () => {
    const { context, page } = await openPage(browser, registry);
    await page.goto('/');
    await heading(page, /registry/);
    await shown(page.getByRole('link', { name: /5\s+software/ }));
    await shown(page.getByRole('link', { name: /12\s+runs/ }));
    await shown(page.getByRole('heading', { name: 'Newest software' }));
    await shown(page.getByRole('link', { name: 'readme-demo' }));
    await screenshot(page, 'home');
    await page.getByLabel('Search software, deployments, runs and artifacts').fill('sulo');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/search\?q=sulo$/);
    await shown(page.getByRole('link', { name: 'sulo-schema-builder' }));
    await context.close();
  });

  it('filters software by a facet, keeps the filter in the URL, and opens a software page', async () => {
    const { context, page } = await openPage(browser, registry);
    await page.goto('/software');
    await heading(page, 'Software');
    await shown(page.getByRole('link', { name: 'rdf_tx' }));
    const service = page.getByRole('group', { name: 'Kind' }).getByRole('checkbox', { name: /service/ });
    await service.check();
    await page.waitForURL(/kind=service/);
    await shown(page.getByText('2 software'));
    expect(await page.getByRole('link', { name: 'rdf_tx' }).count()).toBe(0);
    expect(await service.isChecked()).toBe(true);
    await shown(page.getByRole('list', { name: 'Filters in force' }).getByText(/Kind: service/));
    await screenshot(page, 'software-list');
    // Back to the unfiltered list, then forward to the filtered one: the URL is the state.
    await page.goBack();
    await shown(page.getByRole('link', { name: 'rdf_tx' }));
    await page.goForward();
    await shown(page.getByText('2 software'));

    await page.getByRole('link', { name: 'shacl-manager' }).click();
    await heading(page, 'shacl-manager');
    await shown(page.getByRole('row', { name: /2\.1\.0/ }));
    await shown(page.getByRole('row', { name: /browser-test-deployment/ }));
    await shown(page.getByRole('link', { name: 'SHACL validation report' }));
    expect(await page.getByRole('link', { name: 'Download as Turtle' }).getAttribute('href')).toMatch(
      /^\/software\/[\w-]+\.ttl$/,
    );
    // Anonymous readers get no management links.
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    await screenshot(page, 'software-detail');

    await page
      .getByRole('table')
      .filter({ has: page.getByRole('columnheader', { name: 'Published' }) })
      .getByRole('link', { name: '2.1.0' })
      .click();
    await heading(page, 'shacl-manager 2.1.0');
    await shown(page.getByText('ghcr.io/maastrichtu-ids/shacl-manager:2.1.0').first());
    await context.close();
  });

  it('renders a README safely, resolving relative links against its base, and offers curators their links', async () => {
    const { context, page } = await openPage(browser, registry);
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await page.goto(`/software/${readme.id}`);
    await heading(page, 'readme-demo');
    const rendered = await shown(page.getByRole('region', { name: 'README' }));
    await shown(rendered.getByRole('heading', { level: 3, name: 'Readme demo' }));
    await shown(rendered.getByText('<script>alert(1)</script>'));
    expect(await page.locator('main script').count()).toBe(0);
    expect(await rendered.getByRole('link', { name: 'relative docs' }).getAttribute('href')).toBe(
      `${README_BASE}docs/x.md`,
    );
    expect(await rendered.getByRole('img', { name: 'the logo' }).getAttribute('src')).toBe(
      `${README_BASE}img/logo.png`,
    );
    expect(await rendered.getByRole('link', { name: 'a trap' }).count()).toBe(0);
    expect(await rendered.getByRole('link', { name: 'https://example.org/more' }).getAttribute('href')).toBe(
      'https://example.org/more',
    );
    expect(dialogs).toBe(0);
    await screenshot(page, 'software-readme');
    await context.close();

    const curator = await openPage(browser, registry);
    // Signed in as the page does it: the pasted bearer, in this tab's session storage.
    await curator.context.addInitScript({
      content: `sessionStorage.setItem('reg.bearer', ${JSON.stringify(ROOT_TOKEN)});
        sessionStorage.setItem('reg.bearer.kind', 'pasted');`,
    });
    await curator.page.goto(`/software/${readme.id}`);
    await heading(curator.page, 'readme-demo');
    const manage = await shown(curator.page.getByRole('navigation', { name: 'Manage this software' }));
    expect(await manage.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(
      `/software/${readme.id}/edit`,
    );
    expect(await manage.getByRole('link', { name: 'New release' }).getAttribute('href')).toBe(
      `/software/${readme.id}/releases/new`,
    );
    expect(await manage.getByRole('link', { name: 'Tokens' }).getAttribute('href')).toBe(
      `/software/${readme.id}/tokens`,
    );
    expect(await manage.getByRole('link', { name: 'New deployment' }).getAttribute('href')).toBe(
      `/instances/new?software=${readme.id}`,
    );
    await curator.context.close();
  });

  it('lists deployments by health and shows one with its health, runs and artifacts', async () => {
    const { context, page } = await openPage(browser, registry);
    await page.goto('/instances');
    await heading(page, 'Deployments');
    await page.getByLabel('Health').selectOption('up');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/health=up/);
    await shown(page.getByText('1 deployment'));
    await screenshot(page, 'instance-list');
    await page.getByRole('link', { name: deployment.label }).click();
    await heading(page, deployment.label);
    await shown(page.getByText('responded 200'));
    expect(await page.locator('.badge', { hasText: /^up$/ }).count()).toBe(1);
    await screenshot(page, 'instance-detail');

    // A seeded deployment: its runs and artifacts, each linking to its page.
    await page.goto('/instances?q=shacl.ids');
    await page.getByRole('link', { name: 'shacl.ids.unimaas.nl' }).click();
    await heading(page, 'shacl.ids.unimaas.nl');
    await shown(page.getByRole('heading', { name: 'Newest runs' }));
    await shown(page.getByRole('link', { name: 'validate-batch-1' }));
    await shown(page.getByRole('link', { name: 'Validation report — batch 1 at deployment 1' }));
    await context.close();
  });

  it('filters runs by status and shows a run with what it used and generated', async () => {
    const { context, page } = await openPage(browser, registry);
    await page.goto('/runs');
    await heading(page, 'Runs');
    await shown(page.getByText('12 runs'));
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/status=failed/);
    await shown(page.getByText('1 run'));
    await screenshot(page, 'run-list');
    await page
      .getByRole('row', { name: /failed/ })
      .getByRole('link')
      .first()
      .click();
    await heading(page, /^Run /);
    await shown(page.locator('.badge', { hasText: 'failed' }));
    await shown(page.getByRole('heading', { name: 'Used' }));
    await shown(page.getByRole('heading', { name: 'Generated' }));
    const runId = new URL(page.url()).pathname.split('/').pop();
    expect(await page.getByRole('link', { name: 'Lineage picture' }).getAttribute('href')).toBe(
      `/lineage?run=${runId}`,
    );
    await screenshot(page, 'run-detail');
    await context.close();
  });

  it('pages through runs with the cursor, forward and back to the first page', async () => {
    const { context, page } = await openPage(browser, registry);
    const runLinks = async () => {
      const links = await page.getByRole('table').getByRole('rowheader').getByRole('link').all();
      return Promise.all(links.map((link) => link.getAttribute('href')));
    };
    await page.goto('/runs?limit=5');
    await heading(page, 'Runs');
    const pages = await shown(page.getByRole('navigation', { name: 'Pages' }));
    await shown(pages.getByText('Showing 5 of 12'));
    const first = await runLinks();
    expect(first).toHaveLength(5);
    await pages.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/cursor=/);
    await shown(pages.getByRole('link', { name: 'First page' }));
    await waitFor(async () => (await runLinks())[0] !== first[0], 10_000);
    const second = await runLinks();
    expect(second).toHaveLength(5);
    expect(second.filter((href) => first.includes(href))).toEqual([]);
    await pages.getByRole('link', { name: 'Next page' }).click();
    await shown(pages.getByText('Showing 2 of 12'));
    expect(await pages.getByRole('link', { name: 'Next page' }).count()).toBe(0);
    await pages.getByRole('link', { name: 'First page' }).click();
    await shown(pages.getByText('Showing 5 of 12'));
    expect(await runLinks()).toEqual(first);
    await context.close();
  });

  it('shows an artifact with its distribution, content identifier, availability and foreign origin', async () => {
    const { context, page } = await openPage(browser, registry);
    await page.goto('/artifacts');
    await heading(page, 'Artifacts');
    await page.getByLabel('Title or description').fill('batch 1 at deployment 4');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/q=batch/);
    await screenshot(page, 'artifact-list');
    await page.getByRole('link', { name: 'Validation report — batch 1 at deployment 4' }).click();
    await heading(page, 'Validation report — batch 1 at deployment 4');
    const distribution = await shown(page.getByRole('region', { name: 'Distribution 1' }));
    await shown(distribution.getByText(/^ni:\/\/\/sha-256;/));
    await shown(distribution.getByText('restricted'));
    await shown(distribution.getByText(/access needs a credential/));
    await shown(distribution.getByText(/2\.1 MB/));
    expect(await distribution.getByRole('link', { name: /^Download/ }).getAttribute('href')).toMatch(
      /^https:/,
    );
    await shown(page.getByText('at another registry'));
    expect(
      await page
        .getByRole('link', { name: 'https://reg.mumc.nl/artifact/01J7ZQK8W0RXAB3M2C7YQ1V4TD' })
        .count(),
    ).toBe(1);
    const artifactPath = new URL(page.url()).pathname;
    expect(await page.getByRole('link', { name: 'Lineage picture' }).getAttribute('href')).toBe(
      `/lineage?artifact=${artifactPath.split('/').pop()}`,
    );
    await screenshot(page, 'artifact-detail');

    await distribution.getByRole('link', { name: 'Artifacts with the same content' }).click();
    await page.waitForURL(/content=ni/);
    await shown(page.getByText('1 artifact'));
    await shown(page.getByRole('link', { name: 'Validation report — batch 1 at deployment 4' }));

    // The third batch is described only: no download, and the page says so.
    await page.goto('/artifacts?availability=metadata-only&q=batch%203%20at%20deployment%201');
    await page.getByRole('link', { name: 'Validation report — batch 3 at deployment 1' }).click();
    const described = await shown(page.getByRole('region', { name: 'Distribution 1' }));
    await shown(described.getByText(/the bytes are not obtainable/));
    await shown(described.getByText('no download address'));
    expect(await described.getByRole('link', { name: /^Download/ }).count()).toBe(0);
    await context.close();
  });

  it('opens a record IRI typed into the browser as its page', async () => {
    const [artifact] = (
      await api<{ items: { iri: string; title: string }[] }>(
        '/api/v1/artifacts?q=batch%202%20at%20deployment%202',
      )
    ).items;
    const [run] = (await api<{ items: { iri: string; label: string }[] }>('/api/v1/runs?limit=1')).items;
    const { context, page } = await openPage(browser, registry);
    await page.goto(artifact!.iri);
    await heading(page, artifact!.title);
    await page.goto(run!.iri);
    await heading(page, `Run ${run!.label}`);
    await page.goto(`${registry.url}/type/rdf-graph`);
    await heading(page, 'RDF graph');
    await shown(page.getByRole('heading', { name: 'Produced by' }));
    await shown(page.getByRole('link', { name: 'sulo-schema-builder' }));
    await page.goto(`${registry.url}/artifact/no-such-artifact`);
    await shown(page.getByRole('alert').getByText(/not in this registry/));
    await context.close();
  });

  it('keeps the page of withdrawn software, saying it was withdrawn', async () => {
    const gone = await api<{ id: string }>('/api/v1/software', {
      name: 'withdrawn-demo',
      kinds: ['library'],
    });
    const withdrawn = await registry.request('DELETE', `/api/v1/software/${gone.id}`);
    expect(withdrawn.status).toBe(204);
    const { context, page } = await openPage(browser, registry);
    await page.goto(`/software/${gone.id}`);
    await heading(page, 'withdrawn-demo');
    await shown(page.getByRole('note').getByText(/no longer appears in lists/));
    await page.goto('/software');
    await shown(page.getByRole('link', { name: 'rdf_tx' }));
    expect(await page.getByRole('link', { name: 'withdrawn-demo' }).count()).toBe(0);
    await context.close();
  });

  it('lists the types in use and searches the vocabularies', async () => {
    const { context, page } = await openPage(browser, registry);
    await page.goto('/types');
    await heading(page, 'Types');
    await shown(page.getByRole('row', { name: /RDF graph/ }));
    await page.getByLabel('Term (at least two characters)').fill('shapes');
    await page.getByLabel('Kind of term').selectOption('data');
    await page.getByRole('button', { name: 'Search terms' }).click();
    await page.waitForURL(/q=shapes/);
    expect(page.url()).toContain('branch=data');
    const hit = await shown(page.getByRole('listitem').filter({ hasText: 'SHACL shapes graph' }));
    await shown(hit.getByText(/source: local/));
    await shown(hit.getByText(`${registry.url}/type/shacl-shapes-graph`));
    await screenshot(page, 'types');
    await context.close();
  });

  it('searches across kinds, grouped by kind, and narrows to one kind', async () => {
    const { context, page } = await openPage(browser, registry);
    await page.goto('/search');
    await heading(page, 'Search');
    await page.getByLabel('Words to find').fill('shacl');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=shacl/);
    for (const group of ['Software', 'Deployments', 'Artifacts'])
      await shown(page.getByRole('heading', { level: 2, name: new RegExp(`^${group}`) }));
    await shown(page.getByRole('region', { name: 'Software' }).getByRole('link', { name: 'shacl-manager' }));
    await screenshot(page, 'search');
    await page.getByLabel('Words to find').fill('validate');
    await page.getByLabel('Kind').selectOption('run');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/type=run/);
    await shown(page.getByRole('heading', { level: 2, name: /^Runs/ }));
    expect(await page.getByRole('heading', { level: 2, name: /^Software/ }).count()).toBe(0);
    await page.getByRole('region', { name: 'Runs' }).getByRole('link').first().click();
    await heading(page, /^Run validate-batch/);
    await context.close();
  });
});

describe.skipIf(!hasChromium)('browsing a private registry', () => {
  let registry: UiRegistry;
  let browser: Browser;

  beforeAll(async () => {
    registry = await startUiRegistry({ env: { REG_PUBLIC_READ: 'false' } });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await registry?.stop();
  });

  it('asks an anonymous reader to sign in instead of showing an empty list', async () => {
    const { context, page } = await openPage(browser, registry);
    await page.goto('/software');
    await heading(page, 'Software');
    const alert = await shown(page.getByRole('alert'));
    await shown(alert.getByText('This registry is private: sign in to read it.'));
    expect(await alert.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      '/signin?next=%2Fsoftware',
    );
    expect(await page.getByText('No software matches these filters.').count()).toBe(0);
    await context.close();
  });
});
