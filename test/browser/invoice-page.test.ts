import type { Browser, Page } from 'playwright-core';
import type { Client, TestApi } from '../support/api';
import { accessibilityViolations, browserTest, closeBrowserSuite, openBrowserSuite, screenshot } from '../support/browser';
import { movableClock } from '../support/clock';

let api: TestApi;
let client: Client;
let browser: Browser | undefined;
let page: Page;
let csp: string[];

beforeAll(async () => {
  ({ api, client, browser, page, csp } = await openBrowserSuite('test/browser/invoice-page.test.ts'));
}, 60_000);
afterAll(() => closeBrowserSuite({ api, browser }));

const customer = async (extra: Record<string, unknown> = {}) =>
  (await client.post('/v1/customers', { name: 'Jane Payer', currency: 'EUR', billing_address: { country: 'FR' }, ...extra })).body;
/** A to_pay invoice of 100.00 € + 20 % VAT = 120.00 €. */
const toPay = async (customerId: string) =>
  (await client.post('/v1/invoices', { customer_id: customerId, status: 'to_pay', line_items: [{ name: 'Consulting', unit_amount: 10_000 }] })).body;
const invoice = async (id: string) => (await client.get(`/v1/invoices/${id}`)).body;
const payments = (inv: { transactions: Array<{ type: string; status: string }> }) => inv.transactions.filter((t) => t.type === 'payment');

const it_ = browserTest(() => browser);

describe('the invoice page', () => {
  it_('shows the invoice with a strict CSP and no accessibility violation, and pays it with tok_visa', async () => {
    const inv = await toPay((await customer()).id);
    expect(inv.public_url).toMatch(new RegExp(`^${api.url}/pages/invoices/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{22}$`));
    const response = await page.goto(inv.public_url);
    expect(response!.status()).toBe(200);
    const headers = response!.headers();
    expect(headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(headers['content-security-policy']).not.toMatch(/script-src/);
    await expect(page.locator('h1').textContent()).resolves.toContain(`Invoice ${inv.number}`);
    await expect(page.locator('#amount-due').textContent()).resolves.toBe('€120.00');
    expect(await page.locator('script').count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'invoice-to-pay');

    await page.fill('#pay-card', 'tok_visa');
    await Promise.all([page.waitForURL(/notice=paid/), page.getByRole('button', { name: 'Pay €120.00' }).click()]);
    await expect(page.locator('[role=status]').first().textContent()).resolves.toContain('This invoice is paid');
    await screenshot(page, 'invoice-paid');
    const paid = await invoice(inv.id);
    expect(paid).toMatchObject({ status: 'paid', amount_due: 0, amount_paid: 12_000 });
    expect(payments(paid)).toMatchObject([{ status: 'succeeded', payment_method: { brand: 'visa', last_4_digits: 4242 } }]);
    expect(csp).toEqual([]);
  });

  it_('shows why tok_chargeDeclined was declined and leaves the invoice in error', async () => {
    const inv = await toPay((await customer()).id);
    await page.goto(inv.public_url);
    await page.fill('#pay-card', 'tok_chargeDeclined');
    await Promise.all([page.waitForURL((url) => url.pathname.endsWith(inv.public_url.split('/').pop()!)), page.getByRole('button', { name: /Pay/ }).last().click()]);
    await expect(page.locator('[role=alert]').textContent()).resolves.toBe('The payment failed: the card was declined.');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'invoice-declined');
    const failed = await invoice(inv.id);
    expect(failed).toMatchObject({ status: 'error', amount_paid: 0, amount_due: 12_000 });
    expect(payments(failed)).toMatchObject([{ status: 'failed', error_type: 'payment_method_declined' }]);
  });

  it_('charges once when the pay button is clicked twice, and when the same form is posted twice at once', async () => {
    const payer = await customer();
    await client.post(`/v1/customers/${payer.id}/payment-methods`, { token: 'tok_visa' });
    const clicked = await toPay(payer.id);
    await page.goto(clicked.public_url);
    await page.getByRole('button', { name: 'Pay €120.00' }).first().dblclick();
    // The second submit aborts the first's navigation, which waitForURL may report (ERR_ABORTED): then wait for the second's.
    await page.waitForURL(/notice=/).catch((error: Error) => {
      if (!/ERR_ABORTED|frame was detached/.test(error.message)) throw error;
      return page.waitForURL(/notice=/);
    });
    expect(payments(await invoice(clicked.id))).toHaveLength(1);

    // The same form (same CSRF nonce) sent twice at once, as a double submit or a resend does.
    const posted = await toPay(payer.id);
    const form = await (await fetch(posted.public_url)).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(form)![1]!;
    const send = () => fetch(`${posted.public_url}/pay`, {
      method: 'POST', redirect: 'manual', body: new URLSearchParams({ csrf, method: 'saved' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: api.url, 'sec-fetch-site': 'same-origin' },
    });
    const answers = await Promise.all([send(), send(), send()]);
    expect(answers.map((a) => a.status)).toEqual([303, 303, 303]);
    const after = await invoice(posted.id);
    expect(after.status).toBe('paid');
    expect(payments(after)).toHaveLength(1);
    // A later resend of that form (a reload) charges nothing either.
    expect((await send()).status).toBe(303);
    expect(payments(await invoice(posted.id))).toHaveLength(1);
  });

  // Plain HTTP (no browser needed): the pay form as a card tester would post it.
  it('stops taking cards after 5 declines of the invoice in an hour (card testing), and takes them again an hour later', async () => {
    const inv = await toPay((await customer()).id);
    const payWith = async (token: string) => {
      const csrf = /name="csrf" value="([^"]+)"/.exec(await (await fetch(inv.public_url)).text())![1]!;
      const answer = await fetch(`${inv.public_url}/pay`, {
        method: 'POST', redirect: 'manual', body: new URLSearchParams({ csrf, method: 'card', token }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: api.url, 'sec-fetch-site': 'same-origin' },
      });
      return answer.headers.get('location') ?? '';
    };
    for (let attempt = 0; attempt < 5; attempt++) expect(await payWith('tok_chargeDeclined')).not.toMatch(/notice=/);
    expect(payments(await invoice(inv.id))).toHaveLength(5);
    expect(await payWith('tok_visa')).toMatch(/notice=too_many_attempts$/);
    expect(await invoice(inv.id)).toMatchObject({ status: 'error', amount_paid: 0 });
    expect(payments(await invoice(inv.id))).toHaveLength(5);
    const told = await (await fetch(`${inv.public_url}?notice=too_many_attempts`)).text();
    expect(told).toContain('This invoice was declined too many times in the last hour.');

    const clock = movableClock();
    try {
      clock.setOffset(61 * 60_000);
      expect(await payWith('tok_visa')).toMatch(/notice=paid$/);
      expect(await invoice(inv.id)).toMatchObject({ status: 'paid', amount_due: 0 });
    } finally {
      clock.restore();
    }
  }, 60_000);

  it_('refuses a form without its CSRF token or from another site, and charges nothing', async () => {
    const payer = await customer();
    await client.post(`/v1/customers/${payer.id}/payment-methods`, { token: 'tok_visa' });
    const inv = await toPay(payer.id);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await (await fetch(inv.public_url)).text())![1]!;
    const post = (body: Record<string, string>, headers: Record<string, string>) => fetch(`${inv.public_url}/pay`, {
      method: 'POST', redirect: 'manual', body: new URLSearchParams(body), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
    const missing = await post({ method: 'saved' }, { origin: api.url });
    const forged = await post({ method: 'saved', csrf: `${'A'.repeat(22)}.${'B'.repeat(22)}` }, { origin: api.url });
    const crossSite = await post({ method: 'saved', csrf }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    for (const answer of [missing, forged, crossSite]) expect(answer.headers.get('location')).toMatch(/notice=form_expired$/);
    expect(await invoice(inv.id)).toMatchObject({ status: 'to_pay', transactions: [] });
  });
});

describe('the links', () => {
  it_('refuses a tampered link (404) and an expired one (410), and a revoked one after revocation', async () => {
    const inv = await toPay((await customer()).id);
    const [payload, mac] = inv.public_url.split('/').pop()!.split('.');
    const base = inv.public_url.slice(0, inv.public_url.lastIndexOf('/') + 1);
    // The MAC's first character changed: all six of its bits are the MAC's. (Changing only the last one's 4 padding
    // bits keeps the MAC's bytes: that spelling is refused too, test/unit/page-links.test.ts.)
    const otherMac = `${base}${payload}.${mac!.startsWith('A') ? 'B' : 'A'}${mac!.slice(1)}`;
    const other = await toPay((await customer()).id);
    const otherPayload = `${base}${other.public_url.split('/').pop()!.split('.')[0]}.${mac}`;
    for (const url of [otherMac, otherPayload]) {
      const refused = await page.goto(url);
      expect(refused!.status()).toBe(404);
      await expect(page.locator('h1').textContent()).resolves.toBe('This link is not valid');
    }
    expect(await accessibilityViolations(page)).toEqual([]);

    const clock = movableClock();
    try {
      clock.setOffset(Date.parse(inv.due_at) - Date.now() + 181 * 86_400_000);
      const expired = await page.goto(inv.public_url);
      expect(expired!.status()).toBe(410);
      await expect(page.locator('h1').textContent()).resolves.toBe('This link has expired');
      await screenshot(page, 'link-expired');
    } finally {
      clock.restore();
    }

    const revoked = await client.post(`/v1/invoices/${inv.id}/revoke-links`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.public_url).not.toBe(inv.public_url);
    expect((await page.goto(inv.public_url))!.status()).toBe(404);
    expect((await page.goto(revoked.body.public_url))!.status()).toBe(200);
  });
});

describe('languages', () => {
  it_('shows the invoice in French and in German, with locale-formatted amounts', async () => {
    const fr = await toPay((await customer({ language: 'fr' })).id);
    await page.goto(fr.public_url);
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    await expect(page.locator('h1').textContent()).resolves.toContain(`Facture ${fr.number}`);
    await expect(page.locator('.totals .due th').textContent()).resolves.toBe('Reste à payer');
    await expect(page.locator('#amount-due').textContent()).resolves.toMatch(/^120,00\s€$/);
    await expect(page.getByRole('button', { name: /^Payer 120,00\s€$/ }).count()).resolves.toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'invoice-fr');

    const de = await toPay((await customer({ language: 'de' })).id);
    await page.goto(de.public_url);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await expect(page.locator('h1').textContent()).resolves.toContain(`Rechnung ${de.number}`);
    await expect(page.locator('.totals .due th').textContent()).resolves.toBe('Offener Betrag');
    await expect(page.locator('#amount-due').textContent()).resolves.toMatch(/^120,00\s€$/);
    await expect(page.getByRole('button', { name: /^120,00\s€ bezahlen$/ }).count()).resolves.toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'invoice-de');
  });
});
