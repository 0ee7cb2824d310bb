import type { Browser, Page } from 'playwright-core';
import type { Client, TestApi } from '../support/api';
import { accessibilityViolations, browserTest, closeBrowserSuite, openBrowserSuite, screenshot } from '../support/browser';
import { movableClock } from '../support/clock';
import { pricedProduct, subscribe } from '../support/subscriptions';

let api: TestApi;
let client: Client;
let browser: Browser | undefined;
let page: Page;
let csp: string[];

beforeAll(async () => {
  ({ api, client, browser, page, csp } = await openBrowserSuite('test/browser/portal.test.ts'));
}, 60_000);
afterAll(() => closeBrowserSuite({ api, browser }));

const it_ = browserTest(() => browser);

/** A customer with an invoice to pay, a credit note, a wallet of 50.00 €, 40 credits and an active subscription. */
async function customerWithHistory(extra: Record<string, unknown> = {}) {
  const customer = (await client.post('/v1/customers', { name: 'Globex', currency: 'EUR', billing_address: { country: 'FR' }, ...extra })).body;
  const invoice = (await client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Support plan', unit_amount: 10_000 }] })).body;
  const credited = (await client.post(`/v1/invoices/${invoice.id}/credit-notes`, { amount: 2_400 })).body;
  const wallet = (await client.post('/v1/wallets', { customer_id: customer.id })).body;
  await client.post(`/v1/wallets/${wallet.id}/load`, { type: 'free', amount: 5_000 });
  const credits = (await client.post('/v1/products', { name: 'API credits', type: 'credit' })).body;
  await client.post(`/v1/customers/${customer.id}/credits/${credits.id}/topup`, { credit_count: 40 });
  const plan = await pricedProduct(client, 'flat_fee', { name: 'Pro plan', amount: 4_900 });
  await subscribe(client, { customer_id: customer.id, starts_at: new Date(Date.now() - 60_000).toISOString(), products: [{ ...plan, quantity: 2 }] });
  return { customer, invoice, creditNote: credited };
}
const session = async (customerId: string) => {
  const reply = await client.post(`/v1/customers/${customerId}/portal-sessions`);
  expect(reply.status).toBe(201);
  return reply.body;
};

describe('the customer portal', () => {
  it_('lists documents and balances, adds a card, makes another the default, removes one and downloads a PDF', async () => {
    const { customer, invoice, creditNote } = await customerWithHistory();
    const portal = await session(customer.id);
    expect(portal).toMatchObject({ customer_id: customer.id, url: expect.stringMatching(new RegExp(`^${api.url}/pages/portal/`)), revoked_at: null });
    expect(Date.parse(portal.expires_at) - Date.parse(portal.created_at)).toBe(3_600_000);
    const response = await page.goto(portal.url);
    expect(response!.status()).toBe(200);
    expect(response!.headers()['content-security-policy']).toMatch(/form-action 'self'/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Billing of Globex');
    const text = await page.locator('main').textContent();
    for (const shown of [invoice.number, creditNote.number, 'Wallet balance', '€50.00', 'Credits of API credits', '40 credits', 'Pro plan × 2', 'Active', 'Next billing date']) {
      expect(text).toContain(shown);
    }
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'portal');

    for (const token of ['tok_visa', 'tok_insufficientFunds']) {
      await page.fill('#portal-card', token);
      await Promise.all([page.waitForURL(/notice=card_added/), page.getByRole('button', { name: 'Save the card' }).click()]);
    }
    const methods = (await client.get(`/v1/customers/${customer.id}/payment-methods`)).body.data;
    expect(methods.map((m: { card: { last4: string }; is_default: boolean }) => [m.card.last4, m.is_default])).toEqual([['9995', false], ['4242', true]]);
    await Promise.all([page.waitForURL(/notice=default_changed/), page.getByRole('button', { name: /Make default: VISA ending in 9995/ }).click()]);
    expect((await client.get(`/v1/customers/${customer.id}`)).body.current_payment_method_id).toBe(methods[0].id);
    await Promise.all([page.waitForURL(/notice=card_removed/), page.getByRole('button', { name: /Remove: VISA ending in 4242/ }).click()]);
    expect((await client.get(`/v1/customers/${customer.id}/payment-methods`)).body.data.map((m: { id: string }) => m.id)).toEqual([methods[0].id]);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'portal-cards');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: `PDF ${invoice.number}` }).click()]);
    const chunks: Buffer[] = [];
    for await (const chunk of (await download.createReadStream())!) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).subarray(0, 5).toString()).toBe('%PDF-');
    expect(csp).toEqual([]);
  });

  it_('refuses an expired session (410), a revoked one (404) and a tampered one (404)', async () => {
    const { customer } = await customerWithHistory();
    const expiring = await session(customer.id);
    const clock = movableClock();
    try {
      clock.setOffset(3_601_000);
      expect((await page.goto(expiring.url))!.status()).toBe(410);
      await expect(page.locator('h1').textContent()).resolves.toBe('This link has expired');
    } finally {
      clock.restore();
    }
    const revoked = await session(customer.id);
    const deleted = await client.delete(`/v1/customers/${customer.id}/portal-sessions/${revoked.id}`);
    expect([deleted.status, deleted.body.revoked_at]).toEqual([200, expect.any(String)]);
    expect((await page.goto(revoked.url))!.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('This page is not available');
    expect((await client.delete(`/v1/customers/${customer.id}/portal-sessions/${revoked.id}`)).status).toBe(404);
    // An invoice link is not a portal link, even though both are signed by the same key.
    const invoiceLink = (await client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'A', unit_amount: 100 }] })).body.public_url;
    expect((await page.goto(`${api.url}/pages/portal/${invoiceLink.split('/').pop()}`))!.status()).toBe(404);
  });

  it_('speaks French and German, with locale-formatted balances', async () => {
    const fr = await customerWithHistory({ language: 'fr' });
    await page.goto((await session(fr.customer.id)).url);
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    await expect(page.locator('h1').textContent()).resolves.toBe('Facturation de Globex');
    await expect(page.locator('#wallet-balance').textContent()).resolves.toMatch(/^50,00\s€$/);
    expect(await page.locator('main').textContent()).toContain('Moyens de paiement');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'portal-fr');

    const de = await customerWithHistory({ language: 'de' });
    await page.goto((await session(de.customer.id)).url);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await expect(page.locator('h1').textContent()).resolves.toBe('Abrechnung von Globex');
    await expect(page.locator('#wallet-balance').textContent()).resolves.toMatch(/^50,00\s€$/);
    expect(await page.locator('main').textContent()).toContain('Zahlungsmethoden');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'portal-de');
  });
});
