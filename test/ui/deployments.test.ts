/**
 * Deployments on the web page, in a real browser against a real registry fed CDEvents: what runs where on the
 * software's page with its drift flags, a deployment's history newest first and paged, observed capability
 * beside the declared one on both pages, and a webhook subscription's delivery log reached from the
 * subscriptions page, with an attempt the receiver refused, the one it accepted, and a delivery sent again. Every
 * page is checked for script errors and WCAG A/AA violations.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers.js';
import {
  audit,
  hasChromium,
  launchBrowser,
  screenshot,
  startUiRegistry,
  type UiRegistry,
} from '../support/browser.js';
import { startReceiver, type Receiver } from '../support/receivers.js';

type Json = Record<string, any>;

/** Declared by the software: EDAM "Report". */
const REPORT = 'http://edamontology.org/data_2048';
/** Produced by a deployment's runs, never declared: EDAM "URI". */
const URI = 'http://edamontology.org/data_1047';
/** Declared as consumed by the software, never consumed by a run: EDAM "Ontology". */
const ONTOLOGY = 'http://edamontology.org/data_0582';
const FIXTURES = new URL('../fixtures/cdevents/v0.4/', import.meta.url);

const digest = (n: number) => `sha256:${String(n).repeat(64)}`;

/**
 * A genuine CDEvents 0.4 example of `kind` (service_deployed, …) made to be about `environment` and the image
 * of digest `n` (none for a rollback that restores the release before), with its own id and time.
 */
function cdevent(kind: string, id: string, environment: string, n: number | null, minute: number): Json {
  const event = JSON.parse(readFileSync(new URL(`${kind}.json`, FIXTURES), 'utf8')) as Json;
  event.context.id = id;
  event.context.timestamp = `2026-04-01T08:${String(minute).padStart(2, '0')}:00Z`;
  event.subject.content = {
    environment: { id: environment },
    ...(n === null ? {} : { artifactId: `pkg:oci/shop@${digest(n).replace(':', '%3A')}` }),
  };
  return event;
}

/** Collects the script errors of a page. */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** The texts of a table's body rows, one array of cell texts per row. */
async function rowsOf(table: Locator): Promise<string[][]> {
  const rows = await table.locator('tbody tr').all();
  return Promise.all(
    rows.map(async (row) =>
      (await row.locator('th, td').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim()),
    ),
  );
}

/**
 * A new page in a fresh browser context on the registry. The page's Content-Security-Policy is bypassed so that
 * the accessibility checker can be added to it.
 */
async function openPage(browser: Browser, registry: UiRegistry, colorScheme: 'light' | 'dark' = 'light') {
  const context = await browser.newContext({
    baseURL: registry.url,
    viewport: { width: 1280, height: 900 },
    bypassCSP: true,
    colorScheme,
  });
  return { context, page: await context.newPage() };
}

/** The table whose header has a column named `heading`. */
const tableWith = (page: Page, heading: string) =>
  page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: heading, exact: true }) });

describe.skipIf(!hasChromium)('deployments on the web page', () => {
  let registry: UiRegistry;
  let browser: Browser;
  let receiver: Receiver;
  let software: Json;
  let eu: { instance: Json; token: string };
  let us: { instance: Json; token: string };

  /** Calls the API and checks the status, showing the answer when it differs. */
  const call = async (
    method: string,
    path: string,
    status: number,
    body?: unknown,
    token?: string,
  ): Promise<Json> => {
    const answer = await registry.request<Json>(method, path, body, token);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(status);
    return answer.body ?? {};
  };

  /** A deployment of `of` (the shop unless another software is given) and a token it acts with. */
  const deployment = async (label: string, of: Json = software) => {
    const instance = await call('POST', '/api/v1/instances', 201, { software: of.iri, label });
    const minted = await call('POST', `/api/v1/instances/${instance.id}/tokens`, 201, {
      scopes: ['advertise:produce', 'subscribe:artifacts'],
    });
    return { instance, token: minted.token as string };
  };

  const sendEvent = (event: Json, token?: string, query = '') =>
    call('POST', `/api/v1/deployment-events${query}`, 201, event, token);

  /** Opens `path` and waits for its level-one heading. */
  const open = async (page: Page, path: string, heading: string | RegExp) => {
    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  };

  /** Signs the page in with a pasted API token, then goes to `next`. */
  const signIn = async (page: Page, token: string, next: string) => {
    await page.goto(`/signin?next=${encodeURIComponent(next)}`);
    await page.getByLabel('API token', { exact: true }).fill(token);
    await page.getByRole('button', { name: 'Sign in with this token' }).click();
    await page.waitForURL(`${registry.url}${next}`);
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    [registry, browser] = await Promise.all([
      startUiRegistry({
        env: {
          REG_SUBSCRIPTION_ALLOW_HTTP: 'true',
          REG_SUBSCRIPTION_ALLOW_PRIVATE_TARGETS: 'true',
          REG_SUBSCRIPTION_TICK: '200ms',
          REG_SUBSCRIPTION_BACKOFF_BASE: '1s',
          REG_DELIVERY_RETENTION: '36h',
        },
      }),
      launchBrowser(),
    ]);
    software = await call('POST', '/api/v1/software', 201, {
      name: 'shop',
      capability: { produces: [REPORT], consumes: [ONTOLOGY] },
    });
    for (const [version, n, day] of [
      ['1.0.0', 1, '2026-01-10'],
      ['2.0.0', 2, '2026-02-10'],
    ] as const)
      await call('POST', `/api/v1/software/${software.id}/releases`, 201, {
        version,
        image_digest: digest(n),
        date_published: day,
      });
    eu = await deployment('shop eu');
    us = await deployment('shop us');
    // eu: deployed 1.0.0, upgraded to 2.0.0, rolled back to 1.0.0 (the release before, from its history).
    await sendEvent(cdevent('service_deployed', 'eu-1', 'production', 1, 1), eu.token);
    await sendEvent(cdevent('service_upgraded', 'eu-2', 'production', 2, 2), eu.token);
    await sendEvent(cdevent('service_rolledback', 'eu-3', 'production', null, 3), eu.token);
    // us: deployed 2.0.0 in the same environment, reported by the root token naming the deployment.
    await sendEvent(
      cdevent('service_deployed', 'us-1', 'production', 2, 4),
      undefined,
      `?instance=${us.instance.id}`,
    );
    // eu's runs produced a declared report and an undeclared URI.
    await call(
      'POST',
      '/api/v1/advertise/produced',
      201,
      {
        run: { external_key: 'eu-run-1' },
        artifacts: [
          {
            title: 'Weekly report',
            conforms_to: REPORT,
            distributions: [{ download_url: 'https://data.example.org/report.ttl' }],
          },
          {
            title: 'Shop address',
            conforms_to: URI,
            distributions: [{ download_url: 'https://data.example.org/uri.txt' }],
          },
        ],
      },
      eu.token,
    );
  });

  afterAll(async () => {
    await browser?.close();
    await registry?.stop();
    await receiver?.close();
  });

  it('shows what runs where on the software page, flagging the deployment behind the latest release', async () => {
    const { context, page } = await openPage(browser, registry);
    const errors = pageErrors(page);
    try {
      await open(page, `/software/${software.id}`, 'shop');
      const table = tableWith(page, 'Drift');
      await table.waitFor();
      // Production runs two deployments (other tests may add deployments elsewhere).
      const rows = (await rowsOf(table)).filter((row) => row[1] === 'production');
      expect(rows).toHaveLength(2);
      const byLabel = new Map(rows.map((row) => [row[0], row]));
      const euRow = byLabel.get('shop eu');
      const usRow = byLabel.get('shop us');
      expect(euRow?.slice(1, 3)).toEqual(['production', '1.0.0']);
      expect(usRow?.slice(1, 3)).toEqual(['production', '2.0.0']);
      expect(euRow?.at(-1)).toContain('behind latest');
      expect(euRow?.at(-1)).toContain('versions differ');
      expect(usRow?.at(-1)).not.toContain('behind latest');
      expect(usRow?.at(-1)).toContain('versions differ');
      // The summary above the table names the latest release and the environment that runs several versions.
      const summary = page.locator('p', { hasText: 'Latest release:' });
      expect((await summary.textContent())?.replace(/\s+/g, ' ')).toBe(
        'Latest release: 2.0.0. 1 behind it. Versions differ in production.',
      );
      await summary.getByRole('link', { name: '2.0.0' }).click();
      await page.waitForURL(/\/release\/[0-9a-f-]{36}$/);
      await page.goBack();
      // Each deployment's name leads to its page.
      await table.getByRole('link', { name: 'shop eu' }).click();
      await page.waitForURL(`${registry.url}/instance/${eu.instance.id}`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows the software's observed capability beside the declared one", async () => {
    const { context, page } = await openPage(browser, registry);
    const errors = pageErrors(page);
    try {
      await open(page, `/software/${software.id}`, 'shop');
      const table = tableWith(page, 'Way');
      await table.waitFor();
      const rows = await rowsOf(table);
      const byType = new Map(rows.map((row) => [row[0], row]));
      expect([...byType.keys()].sort()).toEqual(['Report', 'URI not declared']);
      expect(byType.get('Report')?.slice(1, 4)).toEqual(['Produced', '1', '1']);
      expect(byType.get('URI not declared')?.slice(1, 4)).toEqual(['Produced', '1', '1']);
      // What was declared and never seen is named below the table, with the way it was declared.
      const unseen = page.locator('p', { hasText: 'Declared but not seen' });
      // Its label is looked up after the section appears.
      await expect
        .poll(async () => (await unseen.textContent())?.replace(/\s+/g, ' '))
        .toBe('Declared but not seen in the last 30 days: Ontology (consumed)');
      await tableWith(page, 'Drift').waitFor();
      await screenshot(page, 'software-deployments');
      expect(await audit(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows a deployment's history newest first, with the versions before and after each event", async () => {
    const { context, page } = await openPage(browser, registry);
    const errors = pageErrors(page);
    try {
      await open(page, `/instance/${eu.instance.id}`, 'shop eu');
      const table = tableWith(page, 'Sent by');
      await table.waitFor();
      const rows = await rowsOf(table);
      expect(rows.map((row) => row.slice(1, 4))).toEqual([
        ['service.rolledback', '2.0.0 → 1.0.0', 'production'],
        ['service.upgraded', '1.0.0 → 2.0.0', 'production'],
        ['service.deployed', '– → 1.0.0', '– → production'],
      ]);
      expect(rows.map((row) => row.slice(4))).toEqual(Array(3).fill(['yes', 'this deployment']));
      // Each entry is dated by its event.
      expect(await table.locator('tbody tr th time').first().getAttribute('datetime')).toMatch(
        /^2026-04-01T08:03:00(\.000)?Z$/,
      );
      expect(await page.getByText('3 entries.').count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Older' }).count()).toBe(0);

      // Observed capability: the URI its runs produced is flagged as not declared.
      const observed = tableWith(page, 'Way');
      await observed.waitFor();
      const byType = new Map((await rowsOf(observed)).map((row) => [row[0], row]));
      expect([...byType.keys()].sort()).toEqual(['Report', 'URI not declared']);
      expect(byType.get('URI not declared')?.[1]).toBe('Produced');
      // The deployment declares nothing itself: the comparison is with its software's declaration.
      const basis = page.locator('p', { hasText: 'Compared with the capability declared by' });
      expect((await basis.textContent())?.replace(/\s+/g, ' ')).toBe(
        'Compared with the capability declared by its software.',
      );
      expect(await basis.getByRole('link', { name: 'its software' }).getAttribute('href')).toBe(
        `/software/${software.id}`,
      );
      await screenshot(page, 'deployment-history');
      expect(await audit(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('names the one entry of a deployment reported by another credential', async () => {
    const { context, page } = await openPage(browser, registry);
    const errors = pageErrors(page);
    try {
      await open(page, `/instance/${us.instance.id}`, 'shop us');
      const table = tableWith(page, 'Sent by');
      await table.waitFor();
      const [row, ...more] = await rowsOf(table);
      expect(more).toEqual([]);
      expect(row?.slice(1, 4)).toEqual(['service.deployed', '– → 2.0.0', '– → production']);
      const history = await call('GET', `/api/v1/instances/${us.instance.id}/history`, 200);
      expect(row?.[5]).toBe(history.items[0].sender);
      expect(row?.[5]).not.toBe('this deployment');
      await page.getByText('1 entry.', { exact: true }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows a removed deployment as removed in what runs where and in its history', async () => {
    const kiosk = await call('POST', '/api/v1/software', 201, { name: 'kiosk' });
    await call('POST', `/api/v1/software/${kiosk.id}/releases`, 201, {
      version: '3.0.0',
      image_digest: digest(3),
      date_published: '2026-03-01',
    });
    const booth = await deployment('kiosk booth', kiosk);
    await sendEvent(cdevent('service_deployed', 'booth-1', 'store', 3, 30), booth.token);
    await sendEvent(cdevent('service_removed', 'booth-2', 'store', null, 31), booth.token);
    const { context, page } = await openPage(browser, registry);
    const errors = pageErrors(page);
    try {
      await open(page, `/software/${kiosk.id}`, 'kiosk');
      const overview = tableWith(page, 'Drift');
      await overview.waitFor();
      const [row, ...more] = await rowsOf(overview);
      expect(more).toEqual([]);
      expect(row?.slice(0, 3)).toEqual(['kiosk booth', 'store', '3.0.0']);
      expect(row?.[4]).toBe('removed');
      expect(await page.locator('p', { hasText: 'Latest release:' }).textContent()).toContain(
        'No deployment is behind it.',
      );

      await open(page, `/instance/${booth.instance.id}`, 'kiosk booth');
      const history = tableWith(page, 'Sent by');
      await history.waitFor();
      expect((await rowsOf(history)).map((entry) => [entry[1], entry[4]])).toEqual([
        ['service.removed', 'removed'],
        ['service.deployed', 'yes'],
      ]);
      expect(await audit(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('pages a long history towards older entries and back', async () => {
    const busy = await deployment('shop canary');
    for (let minute = 10; minute < 22; minute++)
      await sendEvent(
        cdevent(
          minute === 10 ? 'service_deployed' : 'service_upgraded',
          `canary-${minute}`,
          'canary',
          minute % 2 === 0 ? 1 : 2,
          minute,
        ),
        busy.token,
      );
    const { context, page } = await openPage(browser, registry);
    const errors = pageErrors(page);
    try {
      await open(page, `/instance/${busy.instance.id}`, 'shop canary');
      const table = tableWith(page, 'Sent by');
      await table.waitFor();
      // Read in one go, so that a table being replaced by the next page is never read half old, half new.
      const datetimes = () =>
        table
          .locator('tbody tr th time')
          .evaluateAll((times) => (times as unknown as { dateTime: string }[]).map((time) => time.dateTime));
      const first = await datetimes();
      expect(first).toHaveLength(10);
      expect(first[0]).toMatch(/^2026-04-01T08:21:00/);
      expect(first[9]).toMatch(/^2026-04-01T08:12:00/);
      await page.getByText('Entries 1–10 of 12.').waitFor();
      expect(await page.getByRole('button', { name: 'Newer' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Older' }).click();
      await expect.poll(async () => (await datetimes()).length).toBe(2);
      await page.getByText('Entries 11–12 of 12.').waitFor();
      // The focus moved to the entries shown, not lost with the button that is gone on the last page.
      await expect
        .poll(() =>
          page.evaluate(
            'document.activeElement?.tagName === "DIV" && document.activeElement.querySelectorAll("table").length === 1 && document.activeElement.querySelectorAll("tbody tr").length === 2',
          ),
        )
        .toBe(true);
      const older = await datetimes();
      expect(older[0]).toMatch(/^2026-04-01T08:11:00/);
      expect(older[1]).toMatch(/^2026-04-01T08:10:00/);
      expect((await rowsOf(table))[1]?.[1]).toBe('service.deployed');
      expect(await page.getByRole('button', { name: 'Older' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Newer' }).click();
      await expect.poll(async () => (await datetimes()).length).toBe(10);
      expect((await datetimes())[0]).toMatch(/^2026-04-01T08:21:00/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the delivery log of a webhook subscription, with a refused and an accepted attempt, and sends one again', async () => {
    const hook = receiver.url('/deliveries');
    // The artifact comes from another software's deployment, so the shop's observed capability stays as it is.
    const feed = await deployment(
      'feed',
      await call('POST', '/api/v1/software', 201, { name: 'feed', capability: { produces: [URI] } }),
    );
    const created = await call(
      'POST',
      `/api/v1/instances/${us.instance.id}/subscriptions`,
      201,
      { label: 'uris from the feed', webhook_url: hook, filter: { conforms_to: [URI] } },
      us.token,
    );
    const sid = created.subscription.id as string;
    const atHook = () => receiver.received.filter((request) => request.path === '/deliveries');
    receiver.respond = (request) =>
      request.path === '/deliveries' && atHook().length === 1
        ? { status: 500, body: 'receiver down for maintenance' }
        : { status: 204 };
    const advertised = await call(
      'POST',
      '/api/v1/advertise/produced',
      201,
      {
        run: { external_key: 'feed-run-1' },
        artifacts: [
          {
            title: 'Another shop address',
            conforms_to: URI,
            distributions: [{ download_url: 'https://data.example.org/uri-2.txt' }],
          },
        ],
      },
      feed.token,
    );
    await waitFor(() => atHook().length >= 2, 20_000);
    await waitFor(
      async () => (await call('GET', `/api/v1/subscriptions/${sid}/log`, 200)).total >= 2,
      10_000,
    );

    const { context, page } = await openPage(browser, registry);
    const errors = pageErrors(page);
    try {
      const subscriptions = `/instance/${us.instance.id}/subscriptions`;
      await signIn(page, us.token, subscriptions);
      const card = page.getByRole('article', { name: 'uris from the feed' });
      await card.waitFor();
      expect(await audit(page)).toEqual([]);
      await card.getByRole('link', { name: 'Delivery log of uris from the feed' }).click();
      await page.waitForURL(`${registry.url}/subscriptions/${sid}/log`);
      await page.getByRole('heading', { level: 1, name: 'Delivery log of uris from the feed' }).waitFor();
      const attempts = tableWith(page, 'Attempt');
      await attempts.waitFor();
      const rows = await rowsOf(attempts);
      // Newest first: the accepted second attempt, then the refused first one with the start of its answer.
      expect(rows.map((row) => row.slice(1, 3))).toEqual([
        ['2', '204'],
        ['1', '500'],
      ]);
      expect(rows[1]?.[5]).toContain('Answer');
      await attempts.locator('tbody tr').nth(1).locator('summary', { hasText: 'Answer' }).click();
      await attempts.getByText('receiver down for maintenance').waitFor();
      // The refused attempt says when the delivery was tried again; the delivery itself is delivered by now.
      expect(rows[1]?.[6]).toMatch(/\d/);
      // Both attempts were of the one artifact advertised, linked to its page.
      const artifactPage = new URL(advertised.artifacts[0] as string).pathname;
      for (const link of await attempts.getByRole('link', { name: /^artifact / }).all())
        expect(await link.getAttribute('href')).toBe(artifactPage);
      expect(await attempts.getByRole('link', { name: /^artifact / }).count()).toBe(2);
      expect(rows[0]?.[6]).toBe('—');
      expect(rows.map((row) => row[7]?.split(' ')[0])).toEqual(['delivered', 'delivered']);
      expect(await page.locator('dl').textContent()).toContain('x-reg-signature');
      await page
        .getByRole('heading', { level: 2, name: 'Attempts (2, kept 36 hours after a delivery finishes)' })
        .waitFor();
      await screenshot(page, 'subscription-log');
      expect(await audit(page)).toEqual([]);

      // Sending the delivery again: the page says it is queued, and the receiver gets a third request.
      await attempts
        .getByRole('button', { name: /^Send again/ })
        .first()
        .click();
      const notice = page.getByRole('status').filter({ hasText: 'is queued to be sent again' });
      await notice.waitFor();
      await waitFor(() => atHook().length >= 3, 20_000);
      const [first, , third] = atHook();
      expect(third?.body).toBe(first?.body);
      await waitFor(
        async () => (await call('GET', `/api/v1/subscriptions/${sid}/log`, 200)).total >= 3,
        10_000,
      );
      await page.reload();
      await attempts.waitFor();
      expect((await rowsOf(attempts)).map((row) => row.slice(1, 3))).toEqual([
        ['3', '204'],
        ['2', '204'],
        ['1', '500'],
      ]);
      await page.getByRole('link', { name: 'Back to the subscriptions' }).click();
      await page.waitForURL(`${registry.url}${subscriptions}`);
      await card.waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }

    // Without signing in, the page says who may read the log and offers to sign in.
    const anonymous = await openPage(browser, registry);
    try {
      await anonymous.page.goto(`/subscriptions/${sid}/log`);
      const refusal = anonymous.page.getByRole('alert');
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('sign in as the deployment that owns the subscription');
      expect(await refusal.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
        `/signin?next=${encodeURIComponent(`/subscriptions/${sid}/log`)}`,
      );
      expect(await anonymous.page.getByRole('table').count()).toBe(0);
    } finally {
      await anonymous.context.close();
    }
  });

  it('pages a long delivery log towards older attempts and back', async () => {
    const NAME = 'http://edamontology.org/data_2099';
    const producer = await deployment(
      'names producer',
      await call('POST', '/api/v1/software', 201, { name: 'names', capability: { produces: [NAME] } }),
    );
    const subscriber = await deployment(
      'names subscriber',
      await call('POST', '/api/v1/software', 201, { name: 'name reader' }),
    );
    const created = await call(
      'POST',
      `/api/v1/instances/${subscriber.instance.id}/subscriptions`,
      201,
      { label: 'names', webhook_url: receiver.url('/names'), filter: { conforms_to: [NAME] } },
      subscriber.token,
    );
    const sid = created.subscription.id as string;
    await call(
      'POST',
      '/api/v1/advertise/produced',
      201,
      {
        run: { external_key: 'names-1' },
        artifacts: Array.from({ length: 55 }, (_, n) => ({
          title: `Name ${n}`,
          conforms_to: NAME,
          distributions: [{ download_url: `https://data.example.org/names/${n}.txt` }],
        })),
      },
      producer.token,
    );
    await waitFor(
      async () => (await call('GET', `/api/v1/subscriptions/${sid}/log`, 200)).total === 55,
      30_000,
    );

    const { context, page } = await openPage(browser, registry);
    const errors = pageErrors(page);
    try {
      await signIn(page, subscriber.token, `/subscriptions/${sid}/log`);
      const attempts = tableWith(page, 'Attempt');
      await attempts.waitFor();
      expect(await attempts.locator('tbody tr').count()).toBe(50);
      await page.getByText('Attempts 1–50 of 55, newest first.').waitFor();
      expect(await page.getByRole('button', { name: 'Newer attempts' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Older attempts' }).click();
      await page.getByText('Attempts 51–55 of 55, newest first.').waitFor();
      expect(await attempts.locator('tbody tr').count()).toBe(5);
      expect(await page.getByRole('button', { name: 'Older attempts' }).count()).toBe(0);
      // The focus moved to the attempts shown, not lost with the button that is gone on the last page.
      await expect
        .poll(() =>
          page.evaluate(
            'document.activeElement?.tagName === "DIV" && document.activeElement.querySelectorAll("tbody tr").length === 5',
          ),
        )
        .toBe(true);
      await page.getByRole('button', { name: 'Newer attempts' }).click();
      await page.getByText('Attempts 1–50 of 55, newest first.').waitFor();
      expect(await attempts.locator('tbody tr').count()).toBe(50);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('has no WCAG A/AA violations in the dark scheme either, nor with a delivery log still empty', async () => {
    const created = await call(
      'POST',
      `/api/v1/instances/${eu.instance.id}/subscriptions`,
      201,
      { label: 'ontologies', webhook_url: receiver.url('/quiet'), filter: { conforms_to: [ONTOLOGY] } },
      eu.token,
    );
    const sid = created.subscription.id as string;
    const { context, page } = await openPage(browser, registry, 'dark');
    const errors = pageErrors(page);
    try {
      const found: string[] = [];
      await open(page, `/software/${software.id}`, 'shop');
      await tableWith(page, 'Drift').waitFor();
      await tableWith(page, 'Way').waitFor();
      found.push(...(await audit(page)));
      await open(page, `/instance/${eu.instance.id}`, 'shop eu');
      await tableWith(page, 'Sent by').waitFor();
      await tableWith(page, 'Way').waitFor();
      found.push(...(await audit(page)));
      await signIn(page, eu.token, `/subscriptions/${sid}/log`);
      await page.getByRole('heading', { level: 1, name: 'Delivery log of ontologies' }).waitFor();
      await page.getByText('No webhook attempts yet.').waitFor();
      await screenshot(page, 'subscription-log-empty-dark');
      found.push(...(await audit(page)));
      expect(found).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
