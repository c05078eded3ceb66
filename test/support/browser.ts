/**
 * The web page under test: a real `reg serve` (seeded with the worked example when asked) whose base IRI is the
 * loopback address it listens on, so record IRIs open as pages, and Debian's Chromium driven by playwright-core.
 * Screenshots go to `test-results/screenshots/`.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { freePort, ROOT_TOKEN, runReg, startServe, testEnv, type ServerProcess } from '../helpers.js';

export const CHROMIUM = '/usr/bin/chromium';
/** True where Debian's chromium is installed (`.ci/run` installs it; elsewhere the browser suite is skipped). */
export const hasChromium = fs.existsSync(CHROMIUM);
export const SCREENSHOT_DIR = path.resolve('test-results', 'screenshots');

/** Flags that keep Chromium quiet on a machine with no outside network. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches headless Chromium (a fresh profile each time). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

/** A running registry for the browser. */
export interface UiRegistry {
  /** Its base IRI, which is also the address it listens on (`http://127.0.0.1:<port>`). */
  readonly url: string;
  readonly env: Record<string, string>;
  readonly server: ServerProcess;
  /**
   * Calls its API with a bearer (the root token unless another is given) and a JSON body when one is given;
   * returns the status and the body (parsed JSON, `undefined` when empty). Callers check the status.
   */
  request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

/**
 * Starts `reg serve` on a fresh data directory with the base IRI equal to its address. With `seed`, the worked
 * example is loaded first (`reg seed`, on the stopped registry). `env` adds or overrides settings.
 */
export async function startUiRegistry(
  options: { seed?: boolean; env?: Record<string, string> } = {},
): Promise<UiRegistry> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = testEnv({
    REG_BASE_IRI: url,
    REG_LISTEN: `127.0.0.1:${port}`,
    // The built page in the package, unless REG_TEST_UI_DIR names another build.
    ...(process.env.REG_TEST_UI_DIR === undefined ? {} : { REG_STATIC_DIR: process.env.REG_TEST_UI_DIR }),
    ...options.env,
  });
  if (options.seed === true) {
    const seeded = await runReg(['seed'], env);
    if (seeded.code !== 0) throw new Error(`reg seed failed: ${seeded.stderr}`);
  }
  const server = await startServe(env);
  return {
    url,
    env,
    server,
    request: async (method, path, body, token = ROOT_TOKEN) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
    },
    stop: async () => {
      await server.stop();
    },
  };
}

/** A new page in a fresh browser context (no storage shared with other tests) on the registry. */
export async function openPage(
  browser: Browser,
  registry: UiRegistry,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: registry.url, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  return { context, page };
}

/** Saves a full-page screenshot as `test-results/screenshots/<name>.png` and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The root token every test registry is started with. */
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One rule an axe run found broken. */
interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe on the page as it is and returns its violations, one line each. */
export async function audit(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(options: unknown): Promise<{ violations: Violation[] }> } }
    ).axe;
    const result = await axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations;
  });
  return violations.map(
    (v) =>
      `${v.id} (${v.impact ?? '?'}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(', ')}`,
  );
}

export { ROOT_TOKEN };
