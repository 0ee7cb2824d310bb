import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startTestApi, withEntity, type TestApi } from './api';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it). */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Where the browser tests leave their screenshots for review (git-ignored). */
export const SCREENSHOTS = join(process.cwd(), 'test-output', 'screenshots');

/** One headless Chromium per test file; undefined (and a printed notice) where Chromium is absent. */
export async function launchBrowser(file: string): Promise<Browser | undefined> {
  if (!hasChromium) {
    console.warn(`${file}: skipped, ${CHROMIUM} is missing (apt-get install -y chromium).`);
    return undefined;
  }
  const { chromium } = await import('playwright-core');
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/**
 * The WCAG 2.1 A and AA violations axe-core finds on the page. Injected through the DevTools protocol (which the
 * pages' CSP does not govern), so the page keeps its real policy while it is checked.
 */
export async function accessibilityViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(() =>
    (globalThis as unknown as { axe: { run: (ctx: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    }),
  );
  return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map((n) => ({ target: n.target })) }));
}

/** Any Content-Security-Policy violation the page reports (a blocked style or script would show here). */
export function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

export const screenshot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

/**
 * What every browser test file starts with: the test API with one client and its invoicing entity, Chromium (when
 * present) with one page whose CSP violations are collected. `closeBrowserSuite` ends both.
 */
export async function openBrowserSuite(file: string) {
  const browser = await launchBrowser(file);
  const api = await startTestApi();
  const client = await api.client();
  await withEntity(client);
  const page = browser ? await (await browser.newContext({ acceptDownloads: true })).newPage() : (undefined as unknown as Page);
  return { browser, api, client, page, csp: browser ? cspViolations(page) : [] };
}

export async function closeBrowserSuite(suite: { browser?: Browser; api?: TestApi }): Promise<void> {
  await suite.browser?.close();
  await suite.api?.close();
}

/** A browser test: run where Chromium is, a no-op (after launchBrowser's printed notice) where it is not. */
export const browserTest = (browser: () => Browser | undefined) => (name: string, fn: () => Promise<void>, timeout = 60_000) =>
  it(name, async () => (browser() ? fn() : undefined), timeout);
