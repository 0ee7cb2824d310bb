import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Client, TestApi } from '../support/api';
import { accessibilityViolations, browserTest, closeBrowserSuite, openBrowserSuite, screenshot } from '../support/browser';
import { seatTiers } from '../support/route-fixtures/catalog';
import { pricedProduct, subscribe } from '../support/subscriptions';

/**
 * Every hosted page on a phone (390×844) and a laptop (1280×800): nothing wider than the screen (no horizontal
 * scrolling), no accessibility violation, no CSP violation. With `DOCS_IMAGES=1` it also writes the pages'
 * screenshots of docs/hosted-pages.md (docs/images/{invoice-page,quote-page,portal}-{390,1280}.png).
 */
let api: TestApi;
let client: Client;
let browser: Browser | undefined;
let page: Page;
let csp: string[];

beforeAll(async () => {
  ({ api, client, browser, page, csp } = await openBrowserSuite('test/browser/phone-layout.test.ts'));
}, 60_000);
afterAll(() => closeBrowserSuite({ api, browser }));

const it_ = browserTest(() => browser);
const SIZES = [{ width: 390, height: 844 }, { width: 1280, height: 800 }] as const;
const LONG = 'Implementation, onboarding and data migration services for the enterprise workspace (phase two of three)';

/** A customer with long names and long amounts, an invoice of many lines with a credit note, and a sent quote. */
async function documents() {
  const customer = (await client.post('/v1/customers', {
    name: 'Internationale Handelsgesellschaft für Betriebsausstattung mbH', currency: 'EUR', billing_email: 'accounts.payable.department@internationale-handelsgesellschaft.example',
    billing_address: { country: 'DE', line1: 'Friedrichstraße 123, Hinterhaus, 4. Obergeschoss', city: 'Berlin', zip: '10117' },
  })).body;
  const lines = [
    { name: LONG, description: 'Delivered on site over twelve working days by two senior consultants', unit_amount: 123_456_789, quantity: 1 },
    ...Array.from({ length: 8 }, (_, i) => ({ name: `Licence seat ${i + 1}`, unit_amount: 1_234_567, quantity: 12 })),
  ];
  const invoice = (await client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: lines })).body;
  await client.post(`/v1/invoices/${invoice.id}/credit-notes`, { amount: 2_400 });
  const platform = await pricedProduct(client, 'flat_fee', { name: 'Enterprise platform with premium support', amount: 1_234_567 });
  const business = await pricedProduct(client, 'flat_fee', { name: 'Enterprise platform, yearly commitment', amount: 2_234_567 });
  const seatsProduct = (await client.post('/v1/products', { name: 'Seats', type: 'seat' })).body;
  const seats = (await client.post('/v1/price-configurations', { product_id: seatsProduct.id, currency: 'EUR', type: 'volume', prices: seatTiers, billing_interval: { period: 'months', count: 1 } })).body;
  const quote = (await client.post('/v1/quotes', {
    customer_id: customer.id, type: 'subscription', status: 'pending_signature', display_phase_value: true,
    line_items: [{ ...platform, quantity: 1 }, { product_id: seatsProduct.id, price_configuration_id: seats.id, quantity: 120 }], terms: LONG,
  })).body;
  await subscribe(client, { customer_id: customer.id, starts_at: new Date(Date.now() - 60_000).toISOString(), products: [{ ...platform, quantity: 2 }] });
  const entity = (await client.get('/v1/invoicing-entities')).body.data[0];
  await client.put(`/v1/invoicing-entities/${entity.id}`, {
    portal_settings: { allow_plan_change: true, allowed_price_configuration_ids: [business.price_configuration_id], allow_quantity_change: true },
  });
  const portal = (await client.post(`/v1/customers/${customer.id}/portal-sessions`)).body;
  return { invoice, quote, portal };
}

/** Nothing on the page is wider than the screen, and axe finds nothing. */
async function readableAt(target: Page, width: number) {
  expect(await target.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  expect(await accessibilityViolations(target)).toEqual([]);
}

describe('the hosted pages on a phone and a laptop', () => {
  it_('show the invoice, the quote, the portal (with a change previewed) and a message page without horizontal scrolling', async () => {
    const { invoice, quote, portal } = await documents();
    const docsImages = process.env.DOCS_IMAGES === '1' ? join(process.cwd(), 'docs', 'images') : undefined;
    if (docsImages) mkdirSync(docsImages, { recursive: true });
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const [name, url, status] of [['invoice', invoice.public_url, 200], ['quote', quote.url, 200], ['portal', portal.url, 200], ['message', `${api.url}/pages/portal/not-a-link`, 404]] as const) {
        expect((await page.goto(url))!.status()).toBe(status);
        await readableAt(page, size.width);
        await screenshot(page, `${name}-${size.width}`);
        if (docsImages && name !== 'portal' && name !== 'message') await page.screenshot({ path: join(docsImages, `${name}-page-${size.width}.png`), fullPage: true });
      }
      // The portal's preview step, with its proration table.
      await page.goto(portal.url);
      await page.getByLabel('Plan').selectOption({ label: 'Enterprise platform, yearly commitment' });
      await Promise.all([page.waitForURL(/change=/), page.getByRole('button', { name: 'Preview the change' }).click()]);
      expect(await page.locator('.preview').count()).toBe(1);
      await readableAt(page, size.width);
      await screenshot(page, `portal-preview-${size.width}`);
      if (docsImages) await page.screenshot({ path: join(docsImages, `portal-${size.width}.png`), fullPage: true });
    }
    // On the phone the invoice's line table is one stacked block per line, each value beside its column's name.
    await page.setViewportSize(SIZES[0]);
    await page.goto(invoice.public_url);
    const cell = page.locator('table.lines tbody tr').first().locator('td[data-label]').last();
    expect(await cell.evaluate((td) => (globalThis as unknown as { getComputedStyle: (e: unknown) => { display: string } }).getComputedStyle(td).display)).toBe('flex');
    expect(csp).toEqual([]);
  }, 180_000);
});
