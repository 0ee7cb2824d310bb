import type { Browser, Page } from 'playwright-core';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { accessibilityViolations, browserTest, cspViolations, launchBrowser, screenshot } from '../support/browser';
import { movableClock } from '../support/clock';
import { pricedProduct, subscribe, type PricedProduct } from '../support/subscriptions';

/**
 * The portal's self-service forms (docs/hosted-pages.md, "Portal actions"), each submitted in Chromium and checked
 * through the API afterwards: the subscription's or customer's state, and the events told, the same as the API's.
 */
let api: TestApi;
let client: Client;
let browser: Browser | undefined;
let page: Page;
let csp: string[];
let entity: { id: string };
let pro: PricedProduct;
let business: PricedProduct;

beforeAll(async () => {
  browser = await launchBrowser('test/browser/portal-actions.test.ts');
  api = await startTestApi({ events: true });
  client = await api.client();
  entity = await withEntity(client);
  pro = await pricedProduct(client, 'flat_fee', { name: 'Pro plan', amount: 4_900 });
  business = await pricedProduct(client, 'flat_fee', { name: 'Business plan', amount: 9_900 });
  if (browser) {
    page = await (await browser.newContext()).newPage();
    csp = cspViolations(page);
  }
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

const it_ = browserTest(() => browser);

const portalSettings = async (settings: Record<string, unknown>) => {
  const reply = await client.put(`/v1/invoicing-entities/${entity.id}`, { portal_settings: settings });
  expect(reply.status).toBe(200);
};

/** A customer with Pro plan × 2 running since a minute ago (its first period billed), and its portal open. */
async function subscribedCustomer() {
  const customer = (await client.post('/v1/customers', { name: 'Globex', currency: 'EUR', billing_address: { country: 'FR' } })).body;
  const subscription = await subscribe(client, { customer_id: customer.id, starts_at: new Date(Date.now() - 60_000).toISOString(), products: [{ ...pro, quantity: 2 }] });
  const portal = (await client.post(`/v1/customers/${customer.id}/portal-sessions`)).body;
  expect((await page.goto(portal.url))!.status()).toBe(200);
  return { customer, subscription, portal };
}

/** The event types told about `id`, sorted (the events of one write have no order among themselves). */
async function eventsOf(id: string): Promise<string[]> {
  await api.events.settle();
  const messages = (await client.get('/v1/webhooks/messages?limit=250')).body.data as Array<{ payload: { event_type: string; data: { id: string } } }>;
  return messages.filter((m) => m.payload.data.id === id).map((m) => m.payload.event_type).sort();
}

const submit = (button: string, notice: string) => Promise.all([page.waitForURL(new RegExp(`notice=${notice}`)), page.getByRole('button', { name: button }).click()]);
const getSubscription = async (id: string) => (await client.get(`/v2/subscriptions/${id}`)).body;

describe('the portal actions', () => {
  beforeEach(() => portalSettings({}));

  it_('cancels a subscription at the end of its period and undoes it, telling the events the API tells', async () => {
    const { subscription, customer } = await subscribedCustomer();
    expect(await page.locator('main').textContent()).toContain(`It ends at the end of the current period`);
    await submit('Cancel the subscription', 'subscription_cancelled');
    const cancelled = await getSubscription(subscription.id);
    expect(cancelled).toMatchObject({ status: 'active', cancel_at_period_end: true, ends_at: subscription.current_period_ends_at });
    expect(await page.locator('main').textContent()).toContain('Your cancellation is recorded.');
    expect(await accessibilityViolations(page)).toEqual([]);
    await submit('Keep the subscription', 'subscription_reactivated');
    expect(await getSubscription(subscription.id)).toMatchObject({ status: 'active', cancel_at_period_end: false, ends_at: null });

    // The same through the API, on a twin: the same events.
    const twin = await subscribe(client, { customer_id: customer.id, starts_at: new Date(Date.now() - 60_000).toISOString(), products: [{ ...pro, quantity: 2 }] });
    expect((await client.post(`/v1/subscriptions/${twin.id}/cancel`, {})).status).toBe(200);
    expect((await client.post(`/v1/subscriptions/${twin.id}/uncancel`)).status).toBe(200);
    const told = await eventsOf(subscription.id);
    expect(told).toEqual(['subscription.activated', 'subscription.cancellation_scheduled', 'subscription.created', 'subscription.updated', 'subscription.updated']);
    expect(await eventsOf(twin.id)).toEqual(told);
    expect(csp).toEqual([]);
  });

  it_('changes the plan and quantity after a preview of the proration the change then invoices, as PATCH does', async () => {
    await portalSettings({ allow_plan_change: true, allowed_price_configuration_ids: [business.price_configuration_id], allow_quantity_change: true });
    const clock = movableClock({ stopped: true }); // the preview and the change at the same instant: the same proration
    try {
      const { subscription, customer } = await subscribedCustomer();
      await page.getByLabel('Plan').selectOption({ label: 'Business plan' });
      await page.getByLabel('Quantity').fill('3');
      await Promise.all([page.waitForURL(/change=/), page.getByRole('button', { name: 'Preview the change' }).click()]);
      expect(await getSubscription(subscription.id)).toMatchObject({ products: [{ price_configuration_id: pro.price_configuration_id, quantity: 2 }] });
      const dueNow = await page.locator('#preview-due-now').textContent();
      expect(await page.locator('.preview').textContent()).toMatch(/Business plan \(prorated\)[\s\S]*Credit: Unused time on Pro plan × 2/);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'portal-change-preview');
      await submit('Confirm the change', 'subscription_changed');

      const changed = await getSubscription(subscription.id);
      expect(changed.products).toMatchObject([{ product_id: business.product_id, price_configuration_id: business.price_configuration_id, quantity: 3 }]);
      const invoices = (await client.get(`/v1/invoices?customer_id=${customer.id}`)).body.data as Array<{ subscription_id: string | null; amount_excluding_tax: number; created_at: string }>;
      const proration = invoices.filter((i) => i.subscription_id === subscription.id).at(-1)!;
      expect(dueNow).toBe(new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' }).format(proration.amount_excluding_tax / 100));

      // The same change through the API, on a twin at the same instant: the same proration invoice, the same events.
      const twin = await subscribe(client, { customer_id: customer.id, starts_at: new Date(Date.now() - 60_000).toISOString(), products: [{ ...pro, quantity: 2 }] });
      expect((await client.patch(`/v2/subscriptions/${twin.id}`, { products: [{ ...business, quantity: 3 }] })).status).toBe(200);
      const twinInvoices = (await client.get(`/v1/invoices?customer_id=${customer.id}`)).body.data as typeof invoices;
      expect(twinInvoices.filter((i) => i.subscription_id === twin.id).at(-1)!.amount_excluding_tax).toBe(proration.amount_excluding_tax);
      expect(await eventsOf(twin.id)).toEqual(await eventsOf(subscription.id));
    } finally {
      clock.restore();
    }
  });

  it_('updates the billing address, tax id and email, and refuses a tax id of another format, changing nothing', async () => {
    const { customer } = await subscribedCustomer();
    const before = await eventsOf(customer.id);
    await page.getByLabel('Billing email').fill('billing@globex.test');
    await page.getByLabel('Address', { exact: true }).fill('Unter den Linden 1');
    await page.getByLabel('Postal code').fill('10117');
    await page.getByLabel('City').fill('Berlin');
    await page.getByLabel('Country').selectOption('DE');
    await page.getByLabel('Tax id').fill('de 123 456 789');
    await submit('Save the billing details', 'billing_updated');
    const updated = (await client.get(`/v1/customers/${customer.id}`)).body;
    expect(updated).toMatchObject({
      billing_email: 'billing@globex.test', billing_address: { line1: 'Unter den Linden 1', zip: '10117', city: 'Berlin', country: 'DE' },
      tax_ids: [{ value: 'DE123456789', status: 'unverified' }],
    });
    // One customer.updated, as PUT /v1/customers/{id} tells.
    expect(await eventsOf(customer.id)).toEqual([...before, 'customer.updated'].sort());

    await page.getByLabel('Tax id').fill('FR40303265045');
    await submit('Save the billing details', 'tax_id_invalid');
    expect(await page.locator('[role=alert]').textContent()).toBe('This tax id does not have the format of the billing country. Nothing was changed.');
    expect((await client.get(`/v1/customers/${customer.id}`)).body).toEqual(updated);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it_('refuses what portal_settings does not allow, on the page and without a change', async () => {
    await portalSettings({ allow_plan_change: true, allowed_price_configuration_ids: [business.price_configuration_id] });
    const { subscription, portal } = await subscribedCustomer();
    expect(await page.getByLabel('Quantity').count()).toBe(0);
    // A quantity the settings do not allow, asked through the preview's own URL: refused on the page.
    const item = subscription.products[0]!.id;
    await page.goto(`${portal.url}?change=${subscription.id}&item=${item}&price_configuration_id=${pro.price_configuration_id}&quantity=5`);
    expect(await page.locator('[role=alert]').textContent()).toBe('This portal does not allow that. Nothing was changed.');
    expect(await page.locator('.preview').count()).toBe(0);

    // Cancellation switched off after the page was shown: the form is refused.
    await page.goto(portal.url);
    await portalSettings({ allow_cancel: false });
    await submit('Cancel the subscription', 'not_allowed');
    expect(await page.locator('[role=alert]').textContent()).toBe('This portal does not allow that. Nothing was changed.');
    expect(await getSubscription(subscription.id)).toMatchObject({ cancel_at_period_end: false });
    expect(await page.getByRole('button', { name: 'Cancel the subscription' }).count()).toBe(0);
    await portalSettings({ allow_billing_details_update: false });
    await page.reload();
    expect(await page.locator('#billing-details').count()).toBe(0);
    expect(await eventsOf(subscription.id)).toEqual(['subscription.activated', 'subscription.created']);
  });

  it_('downloads every invoice and credit note as PDF and e-invoice, and shows the usage of the current period per aggregator', async () => {
    const { customer, subscription, portal } = await subscribedCustomer();
    const invoice = (await client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Support', unit_amount: 10_000 }] })).body;
    const creditNote = (await client.post(`/v1/invoices/${invoice.id}/credit-notes`, { amount: 2_400 })).body;
    const meter = (await client.post('/v1/aggregators', { name: 'tokens', event_type: 'llm_call', operation: 'sum', property: 'tokens', unit_name: 'tokens' })).body.id;
    const metered = (await client.post('/v1/products', { name: 'Tokens', type: 'dynamic', aggregator_id: meter })).body;
    const price = (await client.post('/v1/price-configurations', {
      product_id: metered.id, currency: 'EUR', type: 'volume', prices: [{ from: 1, to: null, amount: 3, unit_count: 1, on_tier_incomplete: 'pro_rata' }], billing_interval: { period: 'months', count: 1 },
    })).body;
    expect((await client.patch(`/v2/subscriptions/${subscription.id}`, { products: [{ ...pro, quantity: 2 }, { product_id: metered.id, price_configuration_id: price.id, quantity: 1 }] })).status).toBe(200);
    const now = Date.now();
    const sent = await client.post('/v1/events/batch', [40, 60].map((tokens, i) => ({ customer_id: customer.id, event_type: 'llm_call', timestamp: new Date(now - 1_000 * (i + 1)).toISOString(), record: { id: `e${i}`, tokens } })));
    expect(sent.status).toBe(201);
    await api.events.settle();
    await page.goto(portal.url);
    expect(await page.locator('main').textContent()).toMatch(/Tokens: 100 tokens since/);

    const documents = (await client.get(`/v1/invoices?customer_id=${customer.id}&take=100`)).body.data as Array<{ number: string; status: string; type: string }>;
    const issued = documents.filter((d) => d.status !== 'draft');
    expect(issued.map((d) => d.number)).toEqual(expect.arrayContaining([invoice.number, creditNote.number]));
    for (const doc of issued) {
      const pdf = await page.request.get((await page.getByRole('link', { name: `PDF ${doc.number}` }).getAttribute('href'))!);
      expect([pdf.status(), pdf.headers()['content-type'], (await pdf.body()).subarray(0, 5).toString()]).toEqual([200, 'application/pdf', '%PDF-']);
      const xml = await page.request.get((await page.getByRole('link', { name: `E-invoice ${doc.number}` }).getAttribute('href'))!);
      expect([xml.status(), xml.headers()['content-type']]).toEqual([200, 'application/xml']);
      expect(await xml.text()).toContain(`<cbc:ID>${doc.number}</cbc:ID>`);
    }
  });

  it_('refuses a form without its CSRF token or from another site, changing nothing', async () => {
    const { subscription, portal } = await subscribedCustomer();
    const token = await page.locator('form[action$="/subscriptions"] input[name=csrf]').first().inputValue();
    const post = (csrf: string, origin: string) =>
      fetch(`${portal.url}/subscriptions`, {
        method: 'POST', redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body: new URLSearchParams({ csrf, action: 'cancel', subscription_id: subscription.id }).toString(),
      });
    const pagesOrigin = new URL(api.url).origin;
    for (const [csrf, origin] of [[`${token.slice(0, -2)}AA`, pagesOrigin], [token, 'https://attacker.test']] as const) {
      const reply = await post(csrf, origin);
      expect([reply.status, reply.headers.get('location')]).toEqual([303, expect.stringMatching(/\?notice=form_expired$/)]);
    }
    // Another form's token (the billing details') is no cancellation's either.
    const billingToken = await page.locator('#billing-details input[name=csrf]').inputValue();
    expect((await post(billingToken, pagesOrigin)).headers.get('location')).toMatch(/\?notice=form_expired$/);
    expect(await getSubscription(subscription.id)).toMatchObject({ cancel_at_period_end: false });
    // The genuine token from the pages' origin does it.
    expect((await post(token, pagesOrigin)).headers.get('location')).toMatch(/\?notice=subscription_cancelled$/);
    expect(await getSubscription(subscription.id)).toMatchObject({ cancel_at_period_end: true });
  });
});
