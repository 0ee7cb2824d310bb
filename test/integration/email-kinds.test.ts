import { jest } from '@jest/globals';
import { handler as streamHandler } from '../../functions/streams/events';
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { htmlPart, linkOf, onlyMail, startEmailEnv, startSmtpForEmails, subjectsTo, textPart, type EmailEnv } from '../support/email-env';
import { partOfType } from '../support/mime';
import { readPdf } from '../support/pdf-text';
import { pricedProduct } from '../support/subscriptions';

/*
 * The kinds of email beyond the invoice, its receipt and the reminder before the due date (emails.test.ts): each
 * received once through a real SMTP server, in French, German or English, with its attachment read back and its link
 * answering 200 through the local server; nothing for a kind switched off; a redelivered batch sends nothing more.
 * The 3-D Secure email needs Stripe: email-action-required.test.ts.
 */

// Each test runs the stream, the scheduler and the sender to a real SMTP server, PDFs rendered: seconds each, more
// on a loaded machine.
jest.setTimeout(120_000);

let api: TestApi;
let client: Client;
let env: EmailEnv;
let entityId: string;
const clock = movableClock();
const DAY = 86_400_000;

beforeAll(async () => {
  const smtp = await startSmtpForEmails();
  api = await startTestApi();
  client = await api.client();
  env = await startEmailEnv(smtp, new Set([client.workspace]));
  entityId = (await withEntity(client, { name: 'Acme SAS', email_from: 'billing@acme.test', email_reply_to: 'ar@acme.test' })).id;
});
afterAll(async () => {
  await env.close();
  await api.close();
  clock.restore();
});

/** Scheduled work of this file's workspace only: other test files share the table. */
const runDue = () => runDueWork(clock.now(), { workspaces: new Set([client.workspace]) });

async function customer(language: string, billingEmail: string, extra: Record<string, unknown> = {}) {
  const reply = await client.post('/v1/customers', { name: `Buyer ${language}`, currency: 'EUR', language, billing_email: billingEmail, billing_address: { country: 'FR' }, ...extra });
  expect(reply.status).toBe(201);
  return reply.body;
}
async function issue(customerId: string) {
  const reply = await client.post('/v1/invoices', { customer_id: customerId, status: 'to_pay', line_items: [{ name: 'Platform', unit_amount: 10_000 }] });
  expect(reply.status).toBe(201);
  return reply.body;
}
const saveCard = async (customerId: string, token: string) => {
  const reply = await client.post(`/v1/customers/${customerId}/payment-methods`, { token });
  expect(reply.status).toBe(201);
  return reply.body;
};
const opens = async (url: string) => expect((await fetch(url)).status).toBe(200);
const emailsOf = async (query: string) => (await client.get(`/v1/emails?${query}`)).body.data as any[];
const setSettings = (settings: Record<string, boolean>) => client.put(`/v1/invoicing-entities/${entityId}`, { email_settings: settings });

describe('a failed automatic collection', () => {
  it('tells a customer without reminders that the payment failed, with the pay link (de)', async () => {
    const buyer = await customer('de', 'ap-failed@buyer.test', { invoice_reminders_enabled: false });
    await saveCard(buyer.id, 'tok_chargeDeclined');
    const invoice = await issue(buyer.id);
    await runDue();
    await env.settle();

    expect(subjectsTo(env, 'ap-failed@buyer.test').sort()).toEqual([`Rechnung ${invoice.number} von Acme SAS`, `Zahlung fehlgeschlagen: Rechnung ${invoice.number} von Acme SAS`].sort());
    const mail = onlyMail(env, 'ap-failed@buyer.test', `Zahlung fehlgeschlagen: Rechnung ${invoice.number} von Acme SAS`);
    expect(textPart(mail)).toContain('konnte nicht von Ihrem Zahlungsmittel eingezogen werden');
    expect(partOfType(mail, 'application/pdf')).toBeUndefined();
    expect(linkOf(mail)).toBe(invoice.public_url);
    await opens(invoice.public_url);
    expect(await emailsOf(`invoice_id=${invoice.id}&type=payment_failed`)).toMatchObject([{ status: 'sent', to: 'ap-failed@buyer.test', event_id: expect.any(String) }]);
  });

  it('tells a customer with reminders once, by the reminder, worded after the due date when it is past (en)', async () => {
    // Due at once: the failure comes after the due date.
    const buyer = await customer('en', 'ap-overdue@buyer.test', { custom_payment_delay: 0 });
    await saveCard(buyer.id, 'tok_chargeDeclined');
    const invoice = await issue(buyer.id);
    clock.advance(60_000);
    await runDue();
    await env.settle();

    expect(subjectsTo(env, 'ap-overdue@buyer.test').sort()).toEqual([`Invoice ${invoice.number} from Acme SAS`, `Overdue: invoice ${invoice.number} from Acme SAS`].sort());
    const reminder = onlyMail(env, 'ap-overdue@buyer.test', `Overdue: invoice ${invoice.number} from Acme SAS`);
    expect(textPart(reminder)).toContain(`Invoice ${invoice.number} from Acme SAS is overdue: €120.00 was due on`);
    expect(textPart(reminder)).toContain('The last attempt to charge your payment method did not succeed.');
    expect(linkOf(reminder)).toBe(invoice.public_url);
    const failure = await emailsOf(`invoice_id=${invoice.id}&type=payment_failed`);
    expect(failure).toMatchObject([{ status: 'skipped', skipped_reason: 'in_reminder' }]);
    // The invoice shows its reminder's fate, not the failure's decision not to send.
    expect((await client.get(`/v1/invoices/${invoice.id}`)).body.email_status).toBe('sent');
  });
});

describe('the credit note', () => {
  it('is emailed once when issued, with its PDF (fr), unless the entity switched credit_note_issued off', async () => {
    const buyer = await customer('fr', 'ap-credit@buyer.test');
    const invoice = await issue(buyer.id);
    const note = (await client.post(`/v1/invoices/${invoice.id}/credit-notes`, { amount: 2_000 })).body;
    expect(note.number).toEqual(expect.any(String));
    await env.settle();

    const mail = onlyMail(env, 'ap-credit@buyer.test', `Avoir ${note.number} de Acme SAS`);
    expect(textPart(mail)).toContain(`Acme SAS a émis l'avoir ${note.number} d'un montant de 20,00`);
    const pdf = partOfType(mail, 'application/pdf')!;
    expect(pdf.headers['content-disposition']).toContain(`${note.number}.pdf`);
    const pdfText = readPdf(pdf.body).text;
    expect(pdfText).toContain(note.number);
    expect(pdfText).toContain('Avoir');
    expect(linkOf(mail)).toBe(note.public_url);
    await opens(note.public_url);
    expect(await emailsOf(`invoice_id=${note.id}`)).toMatchObject([{ type: 'credit_note_issued', status: 'sent' }]);

    expect((await setSettings({ credit_note_issued: false })).status).toBe(200);
    try {
      const quiet = await customer('fr', 'ap-credit-off@buyer.test');
      const second = await issue(quiet.id);
      const off = (await client.post(`/v1/invoices/${second.id}/credit-notes`, { amount: 2_000 })).body;
      await env.settle();
      expect(subjectsTo(env, 'ap-credit-off@buyer.test')).toEqual([`Facture ${second.number} de Acme SAS`]);
      expect(await emailsOf(`invoice_id=${off.id}`)).toMatchObject([{ type: 'credit_note_issued', status: 'skipped', skipped_reason: 'kind_off' }]);
    } finally {
      await setSettings({});
    }
  });
});

describe('the quote sent for signature', () => {
  it('goes to the address the send names, with the message and the sign link (de)', async () => {
    const buyer = await customer('de', 'ap-quote@buyer.test');
    const line = await pricedProduct(client, 'flat_fee', { amount: 5_000, name: 'Plattform' });
    const quote = (await client.post('/v1/quotes', { customer_id: buyer.id, type: 'one_off', status: 'approved', line_items: [{ ...line, quantity: 2 }] })).body;
    expect(quote.status).toBe('approved');
    const sent = await client.post(`/v1/quotes/${quote.id}/send`, { email: 'cfo@buyer.test', message: 'Wie besprochen.\nGrüße' });
    expect(sent.status).toBe(200);
    await env.settle();

    const mail = onlyMail(env, 'cfo@buyer.test', `Angebot ${quote.number} von Acme SAS`);
    expect(env.mailsTo('ap-quote@buyer.test')).toEqual([]);
    expect(textPart(mail)).toContain(`Acme SAS hat Ihnen das Angebot ${quote.number} (100,00`);
    expect(textPart(mail)).toContain('Nachricht:\nWie besprochen.\nGrüße');
    expect(linkOf(mail)).toBe(sent.body.url);
    const page = await fetch(sent.body.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(quote.number);
    expect(await emailsOf(`customer_id=${buyer.id}&type=quote_sent`)).toMatchObject([{ quote_id: quote.id, invoice_id: null, to: 'cfo@buyer.test', cc: [], status: 'sent' }]);
  });
});

describe('the portal link on request (POST /v1/customers/{id}/portal-sessions with send_email)', () => {
  const open = (customerId: string, body: unknown, key?: string) =>
    api.raw('POST', `/v1/customers/${customerId}/portal-sessions`, {
      headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json', ...(key && { 'idempotency-key': key }) }, body: JSON.stringify(body),
    });

  it('emails the session\'s link once (de), once per Idempotency-Key', async () => {
    const buyer = await customer('de', 'ap-portal@buyer.test');
    const first = await open(buyer.id, { send_email: true }, `portal-${buyer.id}`);
    expect(first.status).toBe(201);
    expect(first.body.email_id).toMatch(/^eml_/);
    const again = await open(buyer.id, { send_email: true }, `portal-${buyer.id}`);
    expect([again.status, again.headers.get('idempotent-replayed'), again.body.id]).toEqual([201, 'true', first.body.id]);
    await env.settle();

    const mail = onlyMail(env, 'ap-portal@buyer.test', 'Ihr Abrechnungsportal bei Acme SAS');
    expect(textPart(mail)).toContain('Hier ist Ihr Link zum Abrechnungsportal von Acme SAS');
    expect(linkOf(mail)).toBe(first.body.url);
    await opens(first.body.url);
    expect(await emailsOf(`customer_id=${buyer.id}&type=portal_link`)).toMatchObject([{ id: first.body.email_id, portal_session_id: first.body.id, status: 'sent' }]);
    // Without send_email, a session as before: no email.
    const plain = await open(buyer.id, {});
    expect([plain.status, plain.body.email_id]).toEqual([201, null]);
  });

  it('refuses, writing nothing, when the entity switched portal_link off or the customer has no address', async () => {
    const buyer = await customer('en', 'ap-portal-off@buyer.test');
    const silent = (await client.post('/v1/customers', { name: 'Silent', currency: 'EUR' })).body;
    const total = (await client.get('/v1/emails?take=0')).body.meta.total;
    expect(await open(silent.id, { send_email: true })).toMatchObject({ status: 422, body: { code: 'no_recipient' } });
    expect((await setSettings({ portal_link: false })).status).toBe(200);
    try {
      expect(await open(buyer.id, { send_email: true })).toMatchObject({ status: 422, body: { code: 'email_kind_off' } });
    } finally {
      await setSettings({});
    }
    expect(await open(buyer.id, { send_email: 'yes' })).toMatchObject({ status: 400 });
    await env.settle();
    expect((await client.get('/v1/emails?take=0')).body.meta.total).toBe(total);
    expect(env.mailsTo('ap-portal-off@buyer.test')).toEqual([]);
  });
});

/* The notices move the clock (days, then years): last. */

describe('the trial ending', () => {
  it('is emailed once, 3 days before the trial ends, with a portal link (en)', async () => {
    const buyer = await customer('en', 'ap-trial@buyer.test');
    const seat = await pricedProduct(client, 'seat', { amount: 1_200, name: 'Seats' });
    const trialEnd = new Date(clock.now().getTime() + 10 * DAY).toISOString();
    const sub = await client.post('/v2/subscriptions', { customer_id: buyer.id, starts_at: clock.now().toISOString(), products: [{ ...seat, quantity: 2 }], trial_ends_at: trialEnd });
    expect(sub.status).toBe(201);
    await runDue();
    await env.settle();
    expect(env.mailsTo('ap-trial@buyer.test')).toEqual([]);

    clock.advance(7 * DAY + 60_000);
    await runDue();
    await runDue();
    await env.settle();
    const date = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(trialEnd));
    const mail = onlyMail(env, 'ap-trial@buyer.test', `Your trial with Acme SAS ends on ${date}`);
    expect(textPart(mail)).toContain(`Your trial ends on ${date}.`);
    expect(htmlPart(mail)).not.toMatch(/<img|<script|src=/i);
    const [email] = await emailsOf(`customer_id=${buyer.id}&type=trial_ending`);
    expect(email).toMatchObject({ subscription_id: sub.body.id, portal_session_id: expect.stringMatching(/^ps_/), status: 'sent' });
    await opens(linkOf(mail));
    // Its renewals would run through the years the next test moves the clock by.
    expect((await client.post(`/v1/subscriptions/${sub.body.id}/cancel`, { mode: 'immediately' })).status).toBe(200);
  });
});

describe('the card expiring', () => {
  it('is emailed once, 30 days before the end of its expiry month, with a portal link (fr)', async () => {
    const buyer = await customer('fr', 'ap-card@buyer.test');
    const method = await saveCard(buyer.id, 'tok_visa');
    // A card deleted before its notice date is told nothing.
    const gone = await customer('fr', 'ap-card-gone@buyer.test');
    const deleted = await saveCard(gone.id, 'tok_visa');
    expect((await client.delete(`/v1/customers/${gone.id}/payment-methods/${deleted.id}`)).status).toBe(200);
    const { exp_month, exp_year } = method.card;
    const ends = Date.UTC(exp_year, exp_month, 1);
    clock.setOffset(ends - 31 * DAY - Date.now());
    await runDue();
    await env.settle();
    expect(env.mailsTo('ap-card@buyer.test')).toEqual([]);

    clock.setOffset(ends - 30 * DAY + 60_000 - Date.now());
    await runDue();
    await runDue();
    await env.settle();
    const mail = onlyMail(env, 'ap-card@buyer.test', 'Votre carte se terminant par 4242 expire bientôt');
    expect(textPart(mail)).toContain(`Votre carte visa se terminant par 4242, enregistrée chez Acme SAS, expire le 31 décembre ${exp_year}.`);
    await opens(linkOf(mail));
    expect(await emailsOf(`customer_id=${buyer.id}&type=card_expiring`)).toMatchObject([{ payment_method_id: method.id, status: 'sent' }]);
    expect(env.mailsTo('ap-card-gone@buyer.test')).toEqual([]);
    clock.setOffset(0);
  });
});

describe('a redelivered stream batch', () => {
  it('sends none of the emails above a second time, notices included', async () => {
    await env.settle();
    const before = env.smtp.received.length;
    const batch = [...env.seen];
    await streamHandler({ Records: batch });
    await env.settle();
    expect(env.smtp.received.length).toBe(before);
  });
});
