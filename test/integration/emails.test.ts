import { jest } from '@jest/globals';
import type { DynamoDBRecord } from 'aws-lambda';
import { handler as streamHandler } from '../../functions/streams/events';
import { startEventRuntime, type EventRuntime } from '../../lib/local/event-runtime';
import { workspaceOf } from '../../shared/db/keys';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, setAfterSendHook, tableName } from '../../shared/db/client';
import { getItem } from '../../shared/db/items';
import { makeCtx } from '../../shared/context';
import { EMAIL_KINDS, EMAILS, emailKey, type EmailItem } from '../../shared/email/email-item';
import { EMAIL_LEASE_MS } from '../../shared/email/send';
import { emailTransport, useEmailTransport } from '../../shared/email/transport';
import { isEmailJob } from '../../shared/domain/webhooks/delivery-queue';
import { LOCK_TIMEOUT_MS } from '../../shared/http/idempotency';
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { parseMime, partOfType, type MimePart } from '../support/mime';
import { readPdf } from '../support/pdf-text';
import { startSmtpCatcher, type ReceivedMail, type SmtpCatcher } from '../support/smtp';

let smtp: SmtpCatcher;
let api: TestApi;
let client: Client;
let events: EventRuntime;
const clock = movableClock();
/** Every stream record the runtime handled for this file's workspace, to deliver a batch again. */
const seen: DynamoDBRecord[] = [];

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  process.env.EMAIL_TRANSPORT = smtp.url;
  api = await startTestApi();
  client = await api.client();
  events = await startEventRuntime({
    endpoint: process.env.DYNAMODB_ENDPOINT!,
    tableName: process.env.TABLE_NAME!,
    from: 'latest',
    accept: (record) => {
      const ours = workspaceOf(record.dynamodb?.Keys?.pk?.S) === client.workspace;
      if (ours) seen.push(record);
      return ours;
    },
    deliveryTickMs: false,
  });
  await withEntity(client, { name: 'Acme SAS', email_from: 'billing@acme.test', email_reply_to: 'ar@acme.test', email_bcc: ['books@acme.test'] });
});
afterAll(async () => {
  useEmailTransport(undefined);
  await events.stop();
  await api.close();
  await smtp.close();
  clock.restore();
  delete process.env.EMAIL_TRANSPORT;
});

/** The stream processed and every due job run: what is sent by now has reached the SMTP server. */
const settle = async () => {
  await events.settle();
  await events.deliverDue();
};
const mailsTo = (address: string): ReceivedMail[] => smtp.received.filter((mail) => mail.recipients.includes(address));
const emailsOfWorkspace = async (): Promise<EmailItem[]> =>
  ((await db.send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `WS#${client.workspace}#${EMAILS}` }, ConsistentRead: true }))).Items ?? []) as EmailItem[];
const text = (message: MimePart) => partOfType(message, 'text/plain')!.body.toString('utf8');

async function customer(language: string | null, billingEmail: string | null, extra: Record<string, unknown> = {}) {
  const reply = await client.post('/v1/customers', { name: `Buyer ${language}`, currency: 'EUR', language, billing_email: billingEmail, invoice_emails: ['cfo@buyer.test'], ...extra });
  expect(reply.status).toBe(201);
  return reply.body;
}

const issue = async (customerId: string) => {
  const reply = await client.post('/v1/invoices', { customer_id: customerId, status: 'to_pay', line_items: [{ name: 'Platform', unit_amount: 12_345 }] });
  expect(reply.status).toBe(201);
  return reply.body;
};

const expected = {
  fr: { subject: 'Facture {n} de Acme SAS', intro: 'a émis la facture', pay: 'Payer la facture', pdf: 'Facture' },
  de: { subject: 'Rechnung {n} von Acme SAS', intro: 'hat die Rechnung', pay: 'Rechnung bezahlen', pdf: 'Rechnung' },
  en: { subject: 'Invoice {n} from Acme SAS', intro: 'has issued invoice', pay: 'Pay the invoice', pdf: 'Invoice' },
} as const;

describe('the invoice-issued email', () => {
  it.each(Object.keys(expected) as (keyof typeof expected)[])('reaches the customer once, in %s, with the PDF and a pay link that opens', async (language) => {
    const address = `ap-${language}@buyer.test`;
    const buyer = await customer(language, address);
    const invoice = await issue(buyer.id);
    await settle();
    await settle();

    const mails = mailsTo(address);
    expect(mails).toHaveLength(1);
    const [mail] = mails as [ReceivedMail];
    expect(mail.from).toBe('billing@acme.test');
    expect(mail.recipients.sort()).toEqual([address, 'books@acme.test', 'cfo@buyer.test'].sort());
    const message = parseMime(mail.raw);
    const words = expected[language];
    expect(message.headers.subject).toBe(words.subject.replace('{n}', invoice.number));
    expect(message.headers.to).toBe(address);
    expect(message.headers.cc).toBe('cfo@buyer.test');
    expect(message.headers.bcc).toBeUndefined();
    expect(message.headers['reply-to']).toBe('ar@acme.test');
    expect(message.headers['message-id']).toMatch(/^<eml_[A-Za-z0-9_-]{26}@acme\.test>$/);

    const body = text(message);
    expect(body).toContain(words.intro);
    expect(body).toContain(`${words.pay}: ${invoice.public_url}`);
    expect(body).toMatch(/148[.,]14/);
    const html = partOfType(message, 'text/html')!.body.toString('utf8');
    expect(html).toContain(`href="${invoice.public_url}"`);
    expect(html).not.toMatch(/<script|<img|src=/i);

    const pdf = partOfType(message, 'application/pdf')!;
    expect(pdf.headers['content-disposition']).toContain(`${invoice.number}.pdf`);
    const pdfText = readPdf(pdf.body).text;
    expect(pdfText).toContain(invoice.number);
    expect(pdfText).toContain(words.pdf);

    const page = await fetch(invoice.public_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(invoice.number);
  });

  it('is not sent to a customer without an email, nor by an entity without email_from', async () => {
    const silent = await customer('en', null, { invoice_emails: [] });
    await issue(silent.id);
    const other = (await client.post('/v1/invoicing-entities', { name: 'Quiet Ltd', country: 'GB', currency: 'EUR' })).body;
    const quiet = await customer('en', 'ap-quiet@buyer.test', { invoicing_entity_id: other.id });
    await issue(quiet.id);
    const before = smtp.received.length;
    await settle();
    expect(smtp.received.length).toBe(before);
    // The decision is kept, so a later redelivery of the event decides nothing anew.
    const skipped = (await emailsOfWorkspace()).filter((email) => email.status === 'skipped').map((email) => [email.customer_id, email.skipped_reason]);
    expect(skipped).toEqual(expect.arrayContaining([[silent.id, 'no_recipient'], [quiet.id, 'no_sender']]));
  });

  it('escapes what the customer and the entity wrote', async () => {
    const buyer = await customer('en', 'ap-escape@buyer.test');
    await client.put(`/v1/invoicing-entities/${(await client.get('/v1/invoicing-entities')).body.data[0].id}`, { trade_name: 'Acme <b>&</b>' });
    await issue(buyer.id);
    await settle();
    const html = partOfType(parseMime(mailsTo('ap-escape@buyer.test')[0]!.raw), 'text/html')!.body.toString('utf8');
    expect(html).toContain('Acme &lt;b&gt;&amp;&lt;/b&gt;');
    expect(html).not.toContain('<b>&</b>');
    await client.put(`/v1/invoicing-entities/${(await client.get('/v1/invoicing-entities')).body.data[0].id}`, { trade_name: null });
  });
});

describe('the receipt', () => {
  it('is sent once when the invoice is paid, with the invoice marked paid', async () => {
    const buyer = await customer('en', 'ap-paid@buyer.test');
    const invoice = await issue(buyer.id);
    await settle();
    expect(await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: invoice.amount_due })).toMatchObject({ status: 201 });
    await settle();
    const mails = mailsTo('ap-paid@buyer.test').map((mail) => parseMime(mail.raw));
    expect(mails.map((mail) => mail.headers.subject)).toEqual([`Invoice ${invoice.number} from Acme SAS`, `Receipt for invoice ${invoice.number} from Acme SAS`]);
    expect(text(mails[1]!)).toContain('has received your payment of');
    const receipt = readPdf(partOfType(mails[1]!, 'application/pdf')!.body).text;
    expect(receipt).toContain('PAID\nPaid on');
    expect(receipt).toMatch(/Payment of [^\n]+, bank transfer\n€148\.14\nAmount due\n€0\.00/);
  });
});

describe('email_settings', () => {
  it('switches a kind off for the entity: the invoice goes out, its receipt does not', async () => {
    const entityId = (await client.get('/v1/invoicing-entities')).body.data[0].id;
    const updated = await client.put(`/v1/invoicing-entities/${entityId}`, { email_settings: { invoice_paid: false } });
    expect(updated.body.email_settings).toEqual({ ...Object.fromEntries(EMAIL_KINDS.map((kind) => [kind, true])), invoice_paid: false });
    try {
      const buyer = await customer('en', 'ap-nopaid@buyer.test');
      const invoice = await issue(buyer.id);
      await settle();
      expect((await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: invoice.amount_due })).status).toBe(201);
      await settle();
      expect(mailsTo('ap-nopaid@buyer.test').map((mail) => parseMime(mail.raw).headers.subject)).toEqual([`Invoice ${invoice.number} from Acme SAS`]);
    } finally {
      await client.put(`/v1/invoicing-entities/${entityId}`, { email_settings: {} });
    }
  });

  it('refuses an unknown kind or a sender that is not an address, and changes nothing', async () => {
    const entityId = (await client.get('/v1/invoicing-entities')).body.data[0].id;
    for (const body of [{ email_settings: { newsletter: true } }, { email_from: 'billing at acme' }, { email_bcc: ['a@b.test', 'nope'] }]) {
      const reply = await client.put(`/v1/invoicing-entities/${entityId}`, body);
      expect(reply.status).toBe(400);
    }
    expect((await client.get(`/v1/invoicing-entities/${entityId}`)).body).toMatchObject({ email_from: 'billing@acme.test', email_bcc: ['books@acme.test'] });
  });
});

describe('the payment reminder', () => {
  /** Scheduled work of this file's workspace only: other test files share the table. */
  const collect = () => runDueWork(clock.now(), { workspaces: new Set([client.workspace]) });

  it('goes with each failed automatic collection, with the pay link, unless the customer turned reminders off', async () => {
    const reminded = await customer('fr', 'ap-remind@buyer.test');
    const silent = await customer('en', 'ap-noremind@buyer.test', { invoice_reminders_enabled: false });
    for (const buyer of [reminded, silent]) expect((await client.post(`/v1/customers/${buyer.id}/payment-methods`, { token: 'tok_chargeDeclined' })).status).toBe(201);
    const invoice = await issue(reminded.id);
    await issue(silent.id);
    await collect();
    await settle();

    const subjects = (address: string) => mailsTo(address).map((mail) => parseMime(mail.raw).headers.subject);
    expect(subjects('ap-remind@buyer.test').sort()).toEqual([`Facture ${invoice.number} de Acme SAS`, `Rappel : facture ${invoice.number} de Acme SAS`].sort());
    // Without reminders, the customer is told the payment failed instead (email-kinds.test.ts).
    expect(subjects('ap-noremind@buyer.test').filter((subject) => subject?.startsWith('Reminder'))).toEqual([]);
    const reminder = parseMime(mailsTo('ap-remind@buyer.test').find((mail) => mail.raw.includes('Rappel'))!.raw);
    expect(text(reminder)).toContain('est en attente de paiement');
    expect(text(reminder)).toContain(`Payer la facture: ${invoice.public_url}`);
    expect(partOfType(reminder, 'application/pdf')).toBeUndefined();
  });
});

describe('exactly once', () => {
  it('sends one email when the stream batch is delivered twice, before and after the send', async () => {
    const buyer = await customer('en', 'ap-twice@buyer.test');
    await settle();
    const before = smtp.received.length;
    await issue(buyer.id);
    await events.settle();
    const batch = [...seen];
    await streamHandler({ Records: batch });
    await settle();
    await streamHandler({ Records: batch });
    await settle();
    expect(mailsTo('ap-twice@buyer.test')).toHaveLength(1);
    // Every earlier change of this file was delivered again too: none of their emails went out a second time.
    expect(smtp.received.length).toBe(before + 1);
    expect(events.queue.pending).toHaveLength(0);
  });

  it('retries a send that failed with the same Message-ID, and the customer gets one email', async () => {
    const buyer = await customer('en', 'ap-retry@buyer.test');
    const real = await emailTransport();
    const tried: string[] = [];
    useEmailTransport({
      async send(email) {
        tried.push(email.raw.toString('utf8'));
        if (tried.length === 1) throw new Error('connection reset before the message was accepted');
        return real.send(email);
      },
    });
    try {
      await issue(buyer.id);
      await settle();
      expect(mailsTo('ap-retry@buyer.test')).toHaveLength(0);
      const ctx = makeCtx(client.workspace, 'test');
      const [stored] = (await emailsOfWorkspace()).filter((item) => item.to === 'ap-retry@buyer.test');
      expect(stored).toMatchObject({ status: 'queued', attempts: 1, last_error: 'connection reset before the message was accepted', lease_until: null });

      clock.advance(45_000); // past the first retry (30 s ± 20 %)
      await settle();
      const mails = mailsTo('ap-retry@buyer.test');
      expect(mails).toHaveLength(1);
      expect(tried).toHaveLength(2);
      expect(parseMime(mails[0]!.raw).headers['message-id']).toBe(parseMime(tried[0]!).headers['message-id']);
      expect(await getItem<EmailItem>(emailKey(ctx, stored!.id), true)).toMatchObject({ status: 'sent', attempts: 2, provider_message_id: expect.any(String) });

      clock.advance(3_600_000);
      await settle();
      expect(mailsTo('ap-retry@buyer.test')).toHaveLength(1);
    } finally {
      useEmailTransport(undefined);
    }
  });

  it('leaves an email that a dead worker took to the job redelivered after the lease, and sends it once', async () => {
    const buyer = await customer('en', 'ap-lease@buyer.test');
    await settle();
    await issue(buyer.id);
    await events.settle();
    const [job] = events.queue.pending.filter(isEmailJob);
    const [email] = (await emailsOfWorkspace()).filter((item) => item.to === 'ap-lease@buyer.test');
    expect(job).toMatchObject({ emailId: email!.id, attempt: 1 });
    // A worker took it (as sendEmail does) and died before sending: its lease stands, the queue has the job no more.
    await db.send(new UpdateCommand({
      TableName: tableName(), Key: { pk: email!.pk, sk: email!.sk }, UpdateExpression: 'SET lease_until = :until',
      ExpressionAttributeValues: { ':until': new Date(clock.now().getTime() + EMAIL_LEASE_MS).toISOString() },
    }));
    await events.deliverDue();
    expect(mailsTo('ap-lease@buyer.test')).toHaveLength(0);

    // SQS hands the job out again after its visibility timeout, longer than the lease.
    clock.advance(EMAIL_LEASE_MS + 1_000);
    await events.queue.enqueue(job!);
    await events.queue.enqueue(job!);
    await events.deliverDue();
    expect(mailsTo('ap-lease@buyer.test')).toHaveLength(1);
    expect(await getItem<EmailItem>(emailKey(makeCtx(client.workspace, 'test'), email!.id), true)).toMatchObject({ status: 'sent', attempts: 1, lease_until: null });
  });
});

describe('the email log (GET /v1/emails)', () => {
  it('lists what was sent with its status and provider id, filtered by invoice, customer, type and status, in this workspace only', async () => {
    const buyer = await customer('en', 'ap-log@buyer.test');
    const silent = await customer('en', null, { invoice_emails: [] });
    const invoice = await issue(buyer.id);
    await issue(silent.id);
    await settle();
    expect((await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: invoice.amount_due })).status).toBe(201);
    await settle();

    const ofInvoice = await client.get(`/v1/emails?invoice_id=${invoice.id}`);
    expect(ofInvoice.status).toBe(200);
    expect(ofInvoice.body.meta).toEqual({ total: 2, taken: 2, skipped: 0, approximateCount: false });
    expect(ofInvoice.body.data.map((email: any) => [email.type, email.status, email.to])).toEqual([
      ['invoice_issued', 'sent', 'ap-log@buyer.test'], ['invoice_paid', 'sent', 'ap-log@buyer.test'],
    ]);
    // The provider's id is the SMTP server's answer naming the message it queued.
    const received = mailsTo('ap-log@buyer.test');
    for (const email of ofInvoice.body.data) expect(received.some((mail) => email.provider_message_id.endsWith(`queued as ${mail.queueId}`))).toBe(true);

    const paidOnly = await client.get(`/v1/emails?customer_id=${buyer.id}&type=invoice_paid`);
    expect(paidOnly.body.data.map((email: any) => email.id)).toEqual([ofInvoice.body.data[1].id]);
    const skipped = await client.get(`/v1/emails?customer_id=${silent.id}&status=skipped`);
    expect(skipped.body.data).toMatchObject([{ status: 'skipped', skipped_reason: 'no_recipient', to: null, provider_message_id: null }]);
    expect((await client.get(`/v1/emails?customer_id=${silent.id}&status=sent`)).body.meta.total).toBe(0);
    const page = await client.get(`/v1/emails?invoice_id=${invoice.id}&take=1&skip=1&sort=-created_at`);
    expect(page.body).toMatchObject({ meta: { total: 2, taken: 1, skipped: 1 }, data: [{ id: ofInvoice.body.data[0].id }] });

    const all = await client.get('/v1/emails?take=0');
    expect(all.body.meta.total).toBe((await emailsOfWorkspace()).length);
    const stranger = await api.client();
    expect((await stranger.get('/v1/emails')).body).toMatchObject({ meta: { total: 0 }, data: [] });
    expect((await stranger.get(`/v1/emails?invoice_id=${invoice.id}`)).body.data).toEqual([]);
  });

  it('is summed up on the invoice: email_status, the latest email\'s status, no_recipient without an address', async () => {
    const buyer = await customer('en', 'ap-status@buyer.test');
    const silent = await customer('en', null, { invoice_emails: [] });
    const draft = (await client.post('/v1/invoices', { customer_id: buyer.id, line_items: [{ name: 'Platform', unit_amount: 100 }] })).body;
    const [sent, unaddressed] = [await issue(buyer.id), await issue(silent.id)];
    expect(sent.email_status).toBeNull();
    await settle();
    const statusOf = async (id: string) => (await client.get(`/v1/invoices/${id}`)).body.email_status;
    expect([await statusOf(sent.id), await statusOf(unaddressed.id), await statusOf(draft.id)]).toEqual(['sent', 'no_recipient', null]);

    // A new email of the invoice is its latest: queued until it is sent.
    expect((await client.post(`/v1/invoices/${sent.id}/send`)).status).toBe(200);
    expect(await statusOf(sent.id)).toBe('queued');
    await settle();
    expect(await statusOf(sent.id)).toBe('sent');
  });

  it('refuses an unknown filter value', async () => {
    const reply = await client.get('/v1/emails?status=opened');
    expect(reply.status).toBe(400);
  });
});

describe('sending an invoice again (POST /v1/invoices/{id}/send)', () => {
  const sendAgain = (invoiceId: string, key: string) =>
    api.raw('POST', `/v1/invoices/${invoiceId}/send`, { headers: { authorization: `Bearer ${client.token}`, 'idempotency-key': key } });

  it('emails the invoice once more as a new email, once per Idempotency-Key', async () => {
    const buyer = await customer('de', 'ap-again@buyer.test');
    const invoice = await issue(buyer.id);
    await settle();
    const [first] = (await client.get(`/v1/emails?invoice_id=${invoice.id}`)).body.data;

    const key = `resend-${invoice.id}`;
    const sent = await sendAgain(invoice.id, key);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ type: 'invoice_issued', status: 'queued', invoice_id: invoice.id, event_id: null, to: 'ap-again@buyer.test', cc: ['cfo@buyer.test'] });
    expect(sent.body.id).not.toBe(first.id);
    const retried = await sendAgain(invoice.id, key);
    expect(retried).toMatchObject({ status: 200, body: { id: sent.body.id } });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    await settle();

    const mails = mailsTo('ap-again@buyer.test').map((mail) => parseMime(mail.raw));
    expect(mails.map((mail) => mail.headers.subject)).toEqual([`Rechnung ${invoice.number} von Acme SAS`, `Rechnung ${invoice.number} von Acme SAS`]);
    expect(new Set(mails.map((mail) => mail.headers['message-id'])).size).toBe(2);
    expect(readPdf(partOfType(mails[1]!, 'application/pdf')!.body).text).toContain(invoice.number);
    const log = (await client.get(`/v1/emails?invoice_id=${invoice.id}`)).body.data;
    expect(log.map((email: any) => [email.id, email.status])).toEqual([[first.id, 'sent'], [sent.body.id, 'sent']]);
  });

  it('sends one email when the answer is lost after the email was written: the retry answers it and queues it', async () => {
    const buyer = await customer('en', 'ap-lost@buyer.test');
    const invoice = await issue(buyer.id);
    await settle();
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    setAfterSendHook((name) => {
      if (name !== 'TransactWriteItemsCommand') return;
      setAfterSendHook(undefined);
      throw new Error('connection reset after the commit');
    });
    try {
      const key = `lost-${invoice.id}`;
      expect((await sendAgain(invoice.id, key)).status).toBe(500);
      await settle();
      expect(mailsTo('ap-lost@buyer.test')).toHaveLength(1); // the email is written, its job was never queued

      clock.advance(LOCK_TIMEOUT_MS + 1_000);
      const retry = await sendAgain(invoice.id, key);
      expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
      await settle();
      const log = (await client.get(`/v1/emails?invoice_id=${invoice.id}`)).body.data;
      expect(log.map((email: any) => [email.event_id === null, email.status])).toEqual([[false, 'sent'], [true, 'sent']]);
      expect(retry.body.id).toBe(log[1].id);
      expect(mailsTo('ap-lost@buyer.test')).toHaveLength(2);
    } finally {
      setAfterSendHook(undefined);
      logged.mockRestore();
    }
  });

  it('sends the receipt of a paid invoice', async () => {
    const buyer = await customer('en', 'ap-again-paid@buyer.test');
    const invoice = await issue(buyer.id);
    expect((await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: invoice.amount_due })).status).toBe(201);
    await settle();
    expect((await client.post(`/v1/invoices/${invoice.id}/send`)).body).toMatchObject({ type: 'invoice_paid', status: 'queued' });
    await settle();
    expect(mailsTo('ap-again-paid@buyer.test').map((mail) => parseMime(mail.raw).headers.subject)).toContain(`Receipt for invoice ${invoice.number} from Acme SAS`);
  });

  it('refuses a draft, a customer without an email and another workspace’s invoice, and writes nothing', async () => {
    const buyer = await customer('en', 'ap-draft@buyer.test');
    const draft = (await client.post('/v1/invoices', { customer_id: buyer.id, line_items: [{ name: 'Platform', unit_amount: 100 }] })).body;
    const silent = await customer('en', null, { invoice_emails: [] });
    const unaddressed = await issue(silent.id);
    await settle();
    const total = (await client.get('/v1/emails?take=0')).body.meta.total;

    const refusedDraft = await client.post(`/v1/invoices/${draft.id}/send`);
    expect(refusedDraft).toMatchObject({ status: 422, body: { code: 'invoice_not_issued' } });
    const refusedRecipient = await client.post(`/v1/invoices/${unaddressed.id}/send`);
    expect(refusedRecipient).toMatchObject({ status: 422, body: { code: 'no_recipient' } });
    expect(refusedRecipient.body.message).toContain('billing_email');
    const stranger = await api.client();
    expect((await stranger.post(`/v1/invoices/${unaddressed.id}/send`)).status).toBe(404);

    await settle();
    expect((await client.get('/v1/emails?take=0')).body.meta.total).toBe(total);
    expect(mailsTo('ap-draft@buyer.test')).toHaveLength(0);
  });
});
