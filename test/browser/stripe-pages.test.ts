import type { Browser, Page } from 'playwright-core';
import { withEntity, type Client } from '../support/api';
import { accessibilityViolations, browserTest, cspViolations, launchBrowser, screenshot } from '../support/browser';
import { describeWithStripeFixtures } from '../support/stripe/fixtures';
import { serveStripeJs } from '../support/stripe/stripe-js';
import { stripeSuite } from '../support/stripe/suite';

const WEBHOOK_SECRET = 'whsec_hostedPagesTestSecret';

/** Waits for a condition the browser or the stand-in's webhook brings about (no fixed sleep). */
async function until<T>(what: string, probe: () => Promise<T> | T, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The CSP's directives, by name. */
const directives = (csp: string) => new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources] as const));

describeWithStripeFixtures('the hosted pages with Stripe connected: the Payment Element, 3-D Secure, the portal\'s card', () => {
  const s = stripeSuite({ webhookSecret: WEBHOOK_SECRET });
  let browser: Browser | undefined;
  let page: Page;
  let csp: string[];
  beforeAll(async () => {
    browser = await launchBrowser('test/browser/stripe-pages.test.ts');
    if (!browser) return;
    page = await (await browser.newContext()).newPage();
    csp = cspViolations(page);
    await serveStripeJs(page, s.env.standIn);
    // Stripe sends what the browser changes at the stand-in to the workspace's webhook URL, signed.
    const { webhook_url } = (await s.client.get('/v1/payment-providers')).body.data[0];
    s.env.standIn.sendWebhooks(s.keys.account, webhook_url, WEBHOOK_SECRET);
  }, 60_000);
  afterAll(() => browser?.close());
  afterEach(() => expect(csp).toEqual([]));
  const it_ = browserTest(() => browser);

  const customer = async (client: Client = s.client) =>
    (await client.post('/v1/customers', { name: 'Jane Payer', currency: 'EUR', billing_address: { country: 'FR' } })).body as { id: string };
  /** A to_pay invoice of 100.00 € + 20 % VAT = 120.00 €. */
  const toPay = async (customerId: string, client: Client = s.client) =>
    (await client.post('/v1/invoices', { customer_id: customerId, status: 'to_pay', line_items: [{ name: 'Consulting', unit_amount: 10_000 }] })).body;
  const invoice = async (id: string) => (await s.client.get(`/v1/invoices/${id}`)).body;
  const payments = (inv: { transactions: Array<{ type: string; status: string }> }) => inv.transactions.filter((t) => t.type === 'payment');
  const intentsOf = (invoiceId: string) => [...s.keys.account.paymentIntents.values()].filter((pi) => pi.metadata.invoice_id === invoiceId);
  const delivered = (type: string, objectId: string) =>
    until(`${type} delivered`, () => s.env.standIn.deliveries.find((d) => d.type === type && d.objectId === objectId), (d) => !!d && d.status !== 0);

  it_('pays an invoice with a card in the Payment Element: one PaymentIntent, the invoice paid', async () => {
    const inv = await toPay((await customer()).id);
    const response = await page.goto(inv.public_url);
    expect(response!.status()).toBe(200);
    expect(await page.locator('#pay-card').count()).toBe(0); // no sandbox field
    const sources = await page.locator('script').evaluateAll((scripts) => scripts.map((el) => [el.getAttribute('src'), el.textContent]));
    expect(sources).toEqual([['https://js.stripe.com/v3/', ''], [expect.stringMatching(/^\/pages\/assets\/stripe-payment\.js$/), '']]);
    await page.fill('#stand-in-card', 'pm_card_visa');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'stripe-invoice-to-pay');
    await Promise.all([page.waitForURL(/notice=paid/), page.getByRole('button', { name: 'Pay €120.00' }).click()]);
    await expect(page.locator('[role=status]').first().textContent()).resolves.toContain('This invoice is paid');

    const [intent, ...others] = intentsOf(inv.id);
    expect(others).toEqual([]);
    expect(intent).toMatchObject({ amount: 12_000, currency: 'eur', status: 'succeeded' });
    const paid = await invoice(inv.id);
    expect(paid).toMatchObject({ status: 'paid', amount_due: 0, amount_paid: 12_000 });
    expect(payments(paid)).toMatchObject([{ status: 'succeeded', provider_id: intent!.id, payment_method: { brand: 'visa', last_4_digits: 4242 } }]);
  });

  it_('a declined card: Stripe\'s reason shown, the invoice in error, one PaymentIntent', async () => {
    const inv = await toPay((await customer()).id);
    await page.goto(inv.public_url);
    await page.fill('#stand-in-card', 'pm_card_chargeDeclined');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Pay €120.00' }).click()]);
    await expect(page.locator('[role=alert]').first().textContent()).resolves.toBe('The payment failed: the card was declined.');
    expect((await invoice(inv.id)).status).toBe('error');
    expect(intentsOf(inv.id)).toHaveLength(1);
  });

  it_('3-D Secure asked by an off-session charge is completed on the page: the same PaymentIntent, paid once', async () => {
    const cus = await customer();
    expect((await s.client.post(`/v1/customers/${cus.id}/payment-methods`, { provider: 'stripe', token: 'pm_card_authenticationRequired' })).status).toBe(201);
    const inv = await toPay(cus.id);
    const charged = (await s.client.post(`/v1/invoices/${inv.id}/charge`, {})).body;
    expect(charged).toMatchObject({ status: 'to_pay', amount_paid: 0, transactions: [{ status: 'pending', error_type: 'authentication_required' }] });
    const [intent] = intentsOf(inv.id);
    expect(intent!.status).toBe('requires_payment_method'); // Stripe declined it off session: the customer must act

    await page.goto(inv.public_url);
    expect(await page.locator('#stripe-pay').count()).toBe(0); // no second payment while this one waits
    await expect(page.locator('#stripe-action p').textContent()).resolves.toBe('Your bank asks you to confirm this payment of €120.00.');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Confirm the payment' }).click();
    await screenshot(page, 'stripe-invoice-3ds');
    await Promise.all([page.waitForURL(/notice=paid/), page.getByRole('button', { name: 'Complete authentication' }).click()]);

    expect(intentsOf(inv.id)).toEqual([expect.objectContaining({ id: intent!.id, status: 'succeeded' })]);
    // Stripe's payment_intent.succeeded reached the service too: applied once, whichever came first.
    expect((await delivered('payment_intent.succeeded', intent!.id))!.status).toBe(200);
    const paid = await invoice(inv.id);
    expect(paid).toMatchObject({ status: 'paid', amount_due: 0, amount_paid: 12_000 });
    expect(payments(paid)).toMatchObject([{ status: 'succeeded', provider_id: intent!.id }]);
  });

  it_('3-D Secure asked on session by a new card: Stripe.js runs the next action, then the invoice is paid', async () => {
    const inv = await toPay((await customer()).id);
    await page.goto(inv.public_url);
    await page.fill('#stand-in-card', 'pm_card_authenticationRequired');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Pay €120.00' }).click()]);
    const [intent] = intentsOf(inv.id);
    expect(intent!.status).toBe('requires_action');
    await page.getByRole('button', { name: 'Confirm the payment' }).click();
    await Promise.all([page.waitForURL(/notice=paid/), page.getByRole('button', { name: 'Complete authentication' }).click()]);
    expect(intentsOf(inv.id)).toEqual([expect.objectContaining({ id: intent!.id, status: 'succeeded' })]);
    expect(payments(await invoice(inv.id))).toMatchObject([{ status: 'succeeded', provider_id: intent!.id }]);
  });

  it_('adds a card in the portal through a SetupIntent: the card listed once; removing it detaches it at Stripe', async () => {
    const cus = await customer();
    const session = (await s.client.post(`/v1/customers/${cus.id}/portal-sessions`)).body;
    await page.goto(session.url);
    expect(await page.locator('#portal-card').count()).toBe(0);
    await page.fill('#stand-in-card', 'pm_card_mastercard');
    expect(await accessibilityViolations(page)).toEqual([]);
    await Promise.all([page.waitForURL(/notice=card_added/), page.getByRole('button', { name: 'Save the card' }).click()]);
    await expect(page.locator('[data-payment-method]').textContent()).resolves.toContain('MASTERCARD');
    await screenshot(page, 'stripe-portal-card-added');

    const [setupIntent] = [...s.keys.account.setupIntents.values()].filter((si) => si.metadata?.customer_id === cus.id && si.status === 'succeeded');
    await delivered('setup_intent.succeeded', setupIntent!.id); // saved by the form, or by Stripe's event first: once
    const methods = (await s.client.get(`/v1/customers/${cus.id}/payment-methods`)).body;
    expect(methods.data).toMatchObject([{ provider: 'stripe', card: { brand: 'mastercard', last4: '4444' }, is_default: true }]);

    // Removing it in the portal detaches it at Stripe too.
    await Promise.all([page.waitForURL(/notice=card_removed/), page.getByRole('button', { name: /^Remove/ }).click()]);
    expect((await s.client.get(`/v1/customers/${cus.id}/payment-methods`)).body.data).toEqual([]);
    expect(s.keys.account.paymentMethods.get(setupIntent!.payment_method as string)!.customer).toBeNull();
  });

  it_('the CSP allows Stripe\'s hosts and the page\'s script file, nothing broader; without Stripe, the sandbox form', async () => {
    const other = await s.env.api.client();
    await withEntity(other);
    const sandboxInvoice = await toPay((await customer(other)).id, other);
    const sandbox = (await page.goto(sandboxInvoice.public_url))!.headers()['content-security-policy']!;
    expect(await page.locator('#pay-card').count()).toBe(1);
    expect(await page.locator('script').count()).toBe(0);
    expect(sandbox).not.toMatch(/script-src|frame-src|connect-src|stripe/);

    const stripeInvoice = await toPay((await customer()).id);
    const withStripe = directives((await page.goto(stripeInvoice.public_url))!.headers()['content-security-policy']!);
    // Every directive of the sandbox page is there unchanged; only Stripe's three are added, as Stripe documents them.
    for (const [name, sources] of directives(sandbox)) expect([name, withStripe.get(name)]).toEqual([name, sources]);
    expect(withStripe.get('script-src')).toEqual(["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com']);
    expect(withStripe.get('frame-src')).toEqual(['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com']);
    expect(withStripe.get('connect-src')).toEqual(['https://api.stripe.com']);
    expect(withStripe.size).toBe(directives(sandbox).size + 3);
    // The page's script is a file the service serves as JavaScript.
    const script = await page.request.get(new URL('/pages/assets/stripe-payment.js', s.env.api.url).href);
    expect([script.status(), script.headers()['content-type'], script.headers()['x-content-type-options']]).toEqual([200, 'text/javascript; charset=utf-8', 'nosniff']);
  });
});
