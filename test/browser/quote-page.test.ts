import type { Browser, Page } from 'playwright-core';
import type { Client, TestApi } from '../support/api';
import { accessibilityViolations, browserTest, closeBrowserSuite, openBrowserSuite, screenshot } from '../support/browser';
import { seatTiers } from '../support/route-fixtures/catalog';

let api: TestApi;
let client: Client;
let browser: Browser | undefined;
let page: Page;
let csp: string[];

beforeAll(async () => {
  ({ api, client, browser, page, csp } = await openBrowserSuite('test/browser/quote-page.test.ts'));
}, 60_000);
afterAll(() => closeBrowserSuite({ api, browser }));

const MONTHLY = { period: 'months', count: 1 };
const it_ = browserTest(() => browser);

const customer = async (extra: Record<string, unknown> = {}) =>
  (await client.post('/v1/customers', { name: 'Initech', currency: 'EUR', billing_address: { country: 'FR' }, ...extra })).body;
async function priced(name: string, type: string, body: Record<string, unknown>) {
  const product = (await client.post('/v1/products', { name, type })).body;
  const reply = await client.post('/v1/price-configurations', { product_id: product.id, currency: 'EUR', billing_interval: MONTHLY, ...body });
  expect(reply.status).toBe(201);
  return { product_id: product.id as string, price_configuration_id: reply.body.id as string };
}
/** Platform 100.00 €/month for a year (1,200.00 €) and 12 seats at the volume tiers (12 × 8.00 € = 96.00 €/month). */
async function sentQuote(customerId: string, flags: Record<string, unknown> = {}) {
  const platform = await priced('Platform', 'flat_fee', { type: 'fee', prices: [{ amount: 10_000 }], commitment_interval: { period: 'years', count: 1 } });
  const seats = await priced('Seats', 'seat', { type: 'volume', prices: seatTiers });
  const reply = await client.post('/v1/quotes', {
    customer_id: customerId, type: 'subscription', status: 'pending_signature',
    line_items: [{ ...platform, quantity: 1 }, { ...seats, quantity: 12 }],
    terms: 'Payment within 30 days.', comments: 'Launch pricing for Initech.', ...flags,
  });
  expect([reply.status, reply.body.code]).toEqual([201, undefined]);
  return reply.body;
}

describe('the quote page', () => {
  it_('shows the quote, collects payment details and a custom property, and signs it: the subscription exists', async () => {
    const buyer = await customer();
    const quote = await sentQuote(buyer.id, {
      collect_payment_details: true, collect_custom_property_ids: ['po_number'], display_phase_value: true,
      display_first_invoice_amount: true, display_price_tiers: 'all',
    });
    expect(quote.url).toMatch(new RegExp(`^${api.url}/pages/quotes/`));
    await page.goto(quote.url);
    await expect(page.locator('h1').textContent()).resolves.toBe(`Quote ${quote.number}`);
    await expect(page.locator('#quote-value').textContent()).resolves.toBe('€1,296.00');
    const text = await page.locator('main').textContent();
    for (const shown of ['Payment within 30 days.', 'Launch pricing for Initech.', 'First invoice (excluding tax)', '€196.00', '1 to 10 units: €10.00 per unit', 'From 11 units: €8.00 per unit', 'Price per period']) {
      expect(text).toContain(shown);
    }
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'quote-to-sign');

    await page.fill('#sign-card', 'tok_visa');
    await page.getByLabel('po_number').fill('PO-4711');
    await page.getByLabel('Full name').fill('Bill Lumbergh');
    await page.getByLabel('E-mail address').fill('bill@initech.test');
    await page.getByLabel(/I have read and accept/).check();
    await Promise.all([page.waitForURL(/notice=signed/), page.getByRole('button', { name: 'Sign the quote' }).click()]);
    await expect(page.locator('[role=status]').first().textContent()).resolves.toBe('Thank you, the quote is signed.');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'quote-signed');

    const signed = (await client.get(`/v1/quotes/${quote.id}`)).body;
    expect(signed).toMatchObject({ status: 'signed', signer_name: 'Bill Lumbergh', signer_email: 'bill@initech.test', subscription_id: expect.stringMatching(/^sub_/) });
    const subscription = await client.get(`/v2/subscriptions/${signed.subscription_id}`);
    expect(subscription.status).toBe(200);
    expect(subscription.body).toMatchObject({ customer_id: buyer.id, quote_id: quote.id, status: 'active' });
    const after = (await client.get(`/v1/customers/${buyer.id}`)).body;
    expect(after.custom_properties).toMatchObject({ po_number: 'PO-4711' });
    expect(after.current_payment_method).toMatchObject({ type: 'card', last_4_digits: 4242 });
    expect(csp).toEqual([]);
  });

  it_('refuses a signature without acceptance and says so, signing nothing', async () => {
    const quote = await sentQuote((await customer()).id);
    const form = await (await fetch(quote.url)).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(form)![1]!;
    const answer = await fetch(`${quote.url}/sign`, {
      method: 'POST', redirect: 'manual', body: new URLSearchParams({ csrf, signer_name: 'Bill', signer_email: 'bill@initech.test' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: api.url },
    });
    expect(answer.status).toBe(422);
    expect(await answer.text()).toContain('Please fill in: I have read and accept this quote and its terms.');
    expect((await client.get(`/v1/quotes/${quote.id}`)).body.status).toBe('pending_signature');
  });

  it_('honours the display flags: no value, no tiers, no phases', async () => {
    const quote = await sentQuote((await customer()).id, { display_quote_value: false, display_price_tiers: 'none', display_taxes: false });
    await page.goto(quote.url);
    expect(await page.locator('#quote-value').count()).toBe(0);
    const text = await page.locator('main').textContent();
    for (const hidden of ['units:', 'Price per period', 'First invoice', '1,296.00', 'Amounts exclude taxes']) expect(text).not.toContain(hidden);
  });

  it_('shows the quote in French and in German, with locale-formatted amounts', async () => {
    const fr = await sentQuote((await customer({ language: 'fr' })).id, { display_price_tiers: 'matching' });
    await page.goto(fr.url);
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    await expect(page.locator('h1').textContent()).resolves.toBe(`Devis ${fr.number}`);
    await expect(page.locator('#quote-value').textContent()).resolves.toMatch(/^1\s296,00\s€$/);
    const frText = await page.locator('main').textContent();
    expect(frText).toContain('Valeur totale');
    expect(frText).toMatch(/À partir de 11 unités : 8,00\s€ par unité/);
    expect(frText).not.toContain('De 1 à 10 unités'); // matching: only the tier the quantity used
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'quote-fr');

    const de = await sentQuote((await customer({ language: 'de' })).id);
    await page.goto(de.url);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await expect(page.locator('h1').textContent()).resolves.toBe(`Angebot ${de.number}`);
    await expect(page.locator('#quote-value').textContent()).resolves.toMatch(/^1\.296,00\s€$/);
    await expect(page.getByRole('button', { name: 'Angebot unterzeichnen' }).count()).resolves.toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'quote-de');
  });
});
