import { randomUUID } from 'node:crypto';
import type { EventBridgeEvent } from 'aws-lambda';
import { handler as sesEvents } from '../../functions/email-feedback/ses-events';
import { startEventRuntime, type EventRuntime } from '../../lib/local/event-runtime';
import { workspaceOf } from '../../shared/db/keys';
import type { SesEmailEvent } from '../../shared/email/feedback';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { startSmtpCatcher, type SmtpCatcher } from '../support/smtp';

let smtp: SmtpCatcher;
let api: TestApi;
let client: Client;
let events: EventRuntime;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  process.env.EMAIL_TRANSPORT = smtp.url;
  api = await startTestApi({ devRoutes: true });
  client = await api.client();
  events = await startEventRuntime({
    endpoint: process.env.DYNAMODB_ENDPOINT!,
    tableName: process.env.TABLE_NAME!,
    from: 'latest',
    accept: (record) => workspaceOf(record.dynamodb?.Keys?.pk?.S) === client.workspace,
    deliveryTickMs: false,
  });
  await withEntity(client, { name: 'Acme SAS', email_from: 'billing@acme.test', email_bcc: ['books@acme.test'] });
});
afterAll(async () => {
  await events.stop();
  await api.close();
  await smtp.close();
  delete process.env.EMAIL_TRANSPORT;
});

/** The stream processed and every due job run: what is sent by now has reached the SMTP server. */
const settle = async () => {
  await events.settle();
  await events.deliverDue();
};
const mailsTo = (address: string) => smtp.received.filter((mail) => mail.recipients.includes(address));

async function customer(billingEmail: string) {
  const reply = await client.post('/v1/customers', { name: `Buyer ${billingEmail}`, currency: 'EUR', billing_email: billingEmail, invoice_emails: ['cfo@buyer.test'] });
  expect(reply.status).toBe(201);
  expect(reply.body.billing_email_status).toBe('ok');
  return reply.body;
}

const issue = async (customerId: string) => {
  const reply = await client.post('/v1/invoices', { customer_id: customerId, status: 'to_pay', line_items: [{ name: 'Platform', unit_amount: 12_345 }] });
  expect(reply.status).toBe(201);
  return reply.body;
};

/** A customer with an issued invoice whose email was sent: the email as GET /v1/emails lists it. */
async function sentEmail(address: string) {
  const buyer = await customer(address);
  const invoice = await issue(buyer.id);
  await settle();
  const [email] = (await client.get(`/v1/emails?invoice_id=${invoice.id}`)).body.data;
  expect(email).toMatchObject({ status: 'sent', to: address, provider_message_id: expect.any(String) });
  return { buyer, invoice, email };
}

type Email = Awaited<ReturnType<typeof sentEmail>>['email'];

/** The `mail` object SES publishes with each event of a message sent through the configuration set. */
const mailOf = (email: Email, workspace = client.workspace) => ({
  timestamp: email.sent_at,
  source: 'Acme SAS <billing@acme.test>',
  sourceArn: 'arn:aws:ses:eu-west-1:123456789012:identity/acme.test',
  sendingAccountId: '123456789012',
  messageId: email.provider_message_id,
  destination: [email.to, ...email.cc, 'books@acme.test'],
  headersTruncated: false,
  headers: [{ name: 'From', value: 'Acme SAS <billing@acme.test>' }, { name: 'To', value: email.to }],
  commonHeaders: { from: ['Acme SAS <billing@acme.test>'], to: [email.to], messageId: email.provider_message_id, subject: 'Invoice' },
  tags: {
    'ses:configuration-set': ['BillingEmails'], 'ses:source-ip': ['192.0.2.0'], 'ses:from-domain': ['acme.test'], 'ses:caller-identity': ['billing-delivery-consumer'],
    'billing-workspace': [workspace], 'billing-email': [email.id],
  },
});

const DETAIL_TYPE = { Delivery: 'Email Delivered', Bounce: 'Email Bounced', Complaint: 'Email Complaint Received' } as const;

/** The EventBridge event SES puts on the default bus for one of its email events (its `detail` is the event record). */
const eventBridge = (detail: { eventType: keyof typeof DETAIL_TYPE } & Record<string, unknown>): EventBridgeEvent<string, SesEmailEvent> => ({
  version: '0',
  id: randomUUID(),
  'detail-type': DETAIL_TYPE[detail.eventType],
  source: 'aws.ses',
  account: '123456789012',
  time: new Date().toISOString(),
  region: 'eu-west-1',
  resources: ['arn:aws:ses:eu-west-1:123456789012:configuration-set/BillingEmails'],
  detail: detail as unknown as SesEmailEvent,
});

const delivery = (email: Email) => eventBridge({
  eventType: 'Delivery',
  mail: mailOf(email),
  delivery: {
    timestamp: new Date().toISOString(), processingTimeMillis: 546, recipients: [email.to, ...email.cc], smtpResponse: '250 ok: Message 64111812 accepted',
    reportingMTA: 'a8-70.smtp-out.amazonses.com', remoteMtaIp: '127.0.2.0',
  },
});

const bounce = (email: Email, { type = 'Permanent', address = email.to }: { type?: 'Permanent' | 'Transient'; address?: string } = {}) => eventBridge({
  eventType: 'Bounce',
  mail: mailOf(email),
  bounce: {
    bounceType: type, bounceSubType: type === 'Permanent' ? 'General' : 'MailboxFull',
    bouncedRecipients: [{ emailAddress: address, action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
    timestamp: new Date().toISOString(), feedbackId: `0100${randomUUID()}-000000`, reportingMTA: 'dsn; mta.example.com',
  },
});

const complaint = (email: Email) => eventBridge({
  eventType: 'Complaint',
  mail: mailOf(email),
  complaint: {
    complainedRecipients: [{ emailAddress: email.to }], timestamp: new Date().toISOString(), feedbackId: `0100${randomUUID()}-000000`,
    userAgent: 'ExampleCorp Feedback Loop (V0.01)', complaintFeedbackType: 'abuse', arrivalDate: new Date().toISOString(),
  },
});

const emailNow = async (id: string) => (await client.get(`/v1/emails?take=100`)).body.data.find((email: Email) => email.id === id);
const customerNow = async (id: string) => (await client.get(`/v1/customers/${id}`)).body;
const invoiceEmailStatus = async (id: string) => (await client.get(`/v1/invoices/${id}`)).body.email_status;
/** The customer's customer.email_bounced messages (the webhook log), once the stream has recorded them. */
const bouncedMessages = async (customerId: string) => {
  await events.settle();
  const messages = (await client.get('/v1/webhooks/messages?event_types=customer.email_bounced&limit=250')).body.data;
  return messages.filter((message: { payload: { data: { id: string } } }) => message.payload.data.id === customerId);
};

describe('SES reports (EventBridge → functions/email-feedback/ses-events.ts)', () => {
  it('a delivery marks the email delivered and its invoice says so; the same report again changes nothing', async () => {
    const { invoice, email, buyer } = await sentEmail('ap-delivered@buyer.test');
    const report = delivery(email);
    await sesEvents(report);
    expect(await emailNow(email.id)).toMatchObject({ status: 'delivered' });
    expect(await invoiceEmailStatus(invoice.id)).toBe('delivered');
    expect((await client.get(`/v1/emails?status=delivered&customer_id=${buyer.id}`)).body.data.map((e: Email) => e.id)).toEqual([email.id]);
    await sesEvents(report);
    expect(await emailNow(email.id)).toMatchObject({ status: 'delivered' });
    expect((await customerNow(buyer.id)).billing_email_status).toBe('ok');
  });

  it('a permanent bounce marks the email and the customer, emits customer.email_bounced once, and applies once however often it comes', async () => {
    const { invoice, email, buyer } = await sentEmail('ap-bounce@buyer.test');
    const report = bounce(email);
    const before = await customerNow(buyer.id);
    await sesEvents(report);
    await sesEvents(report);
    await sesEvents(bounce(email)); // a second report of the same bounce (its own feedback id)
    expect(await emailNow(email.id)).toMatchObject({ status: 'bounced' });
    expect(await invoiceEmailStatus(invoice.id)).toBe('bounced');
    const after = await customerNow(buyer.id);
    expect(after).toMatchObject({ billing_email: 'ap-bounce@buyer.test', billing_email_status: 'bounced' });
    expect(after.updated_at > before.updated_at).toBe(true);
    const messages = await bouncedMessages(buyer.id);
    expect(messages).toHaveLength(1);
    expect(messages[0].payload.data).toMatchObject({ id: buyer.id, billing_email_status: 'bounced' });
  });

  it('a delivery reported after the bounce is ignored: the status never goes back', async () => {
    const { invoice, email, buyer } = await sentEmail('ap-late@buyer.test');
    await sesEvents(bounce(email));
    await sesEvents(delivery(email));
    expect(await emailNow(email.id)).toMatchObject({ status: 'bounced' });
    expect(await invoiceEmailStatus(invoice.id)).toBe('bounced');
    expect((await customerNow(buyer.id)).billing_email_status).toBe('bounced');
  });

  it('a complaint after the delivery marks the email and the customer complained', async () => {
    const { email, buyer } = await sentEmail('ap-complaint@buyer.test');
    await sesEvents(delivery(email));
    await sesEvents(complaint(email));
    expect(await emailNow(email.id)).toMatchObject({ status: 'complained' });
    expect((await customerNow(buyer.id)).billing_email_status).toBe('complained');
    expect(await bouncedMessages(buyer.id)).toMatchObject([{ payload: { data: { billing_email_status: 'complained' } } }]);
  });

  it('a transient bounce marks the email only; a bounce of a copy (cc) changes nothing', async () => {
    const soft = await sentEmail('ap-soft@buyer.test');
    await sesEvents(bounce(soft.email, { type: 'Transient' }));
    expect(await emailNow(soft.email.id)).toMatchObject({ status: 'bounced' });
    expect((await customerNow(soft.buyer.id)).billing_email_status).toBe('ok');

    const copied = await sentEmail('ap-cc@buyer.test');
    await sesEvents(bounce(copied.email, { address: 'cfo@buyer.test' }));
    expect(await emailNow(copied.email.id)).toMatchObject({ status: 'sent' });
    expect((await customerNow(copied.buyer.id)).billing_email_status).toBe('ok');
  });

  it('a report names no other email: another message id, or another workspace in its tags, changes nothing', async () => {
    const { email, buyer } = await sentEmail('ap-forged@buyer.test');
    await sesEvents(bounce({ ...email, provider_message_id: '0100018f-forged-000000' }));
    const stranger = await api.client();
    const foreign = bounce(email);
    foreign.detail.mail.tags!['billing-workspace'] = [stranger.workspace];
    await sesEvents(foreign);
    expect(await emailNow(email.id)).toMatchObject({ status: 'sent' });
    expect((await customerNow(buyer.id)).billing_email_status).toBe('ok');
  });

  it('a report about an email not recorded as sent yet fails, so that Lambda tries it again', async () => {
    const buyer = await customer('ap-early@buyer.test');
    await issue(buyer.id);
    await events.settle(); // derived and queued, not sent
    const [queued] = (await client.get(`/v1/emails?customer_id=${buyer.id}`)).body.data;
    expect(queued.status).toBe('queued');
    await expect(sesEvents(bounce({ ...queued, to: 'ap-early@buyer.test', provider_message_id: '0100018f-early-000000' }))).rejects.toThrow(/not recorded as sent yet/);
    await events.deliverDue();
  });
});

describe('after a bounce', () => {
  it('nothing more is sent to the address (skipped_reason bounced), sending again is refused, and a new billing_email resumes sending', async () => {
    const { email, buyer } = await sentEmail('ap-stop@buyer.test');
    await sesEvents(bounce(email));
    const received = mailsTo('ap-stop@buyer.test').length;

    const next = await issue(buyer.id);
    await settle();
    expect(mailsTo('ap-stop@buyer.test')).toHaveLength(received);
    const [skipped] = (await client.get(`/v1/emails?invoice_id=${next.id}`)).body.data;
    expect(skipped).toMatchObject({ status: 'skipped', skipped_reason: 'bounced', to: 'ap-stop@buyer.test' });
    expect(await invoiceEmailStatus(next.id)).toBe('skipped');
    const refused = await client.post(`/v1/invoices/${next.id}/send`);
    expect(refused).toMatchObject({ status: 422, body: { code: 'recipient_bounced' } });

    const changed = await client.put(`/v1/customers/${buyer.id}`, { billing_email: 'ap-new@buyer.test' });
    expect(changed.body).toMatchObject({ billing_email: 'ap-new@buyer.test', billing_email_status: 'ok' });
    const third = await issue(buyer.id);
    await settle();
    expect(mailsTo('ap-new@buyer.test')).toHaveLength(1);
    expect((await client.get(`/v1/emails?invoice_id=${third.id}`)).body.data).toMatchObject([{ status: 'sent', to: 'ap-new@buyer.test' }]);
    // The old address bouncing again (a late report of the first email) does not mark the new one.
    await sesEvents(bounce(email));
    expect((await customerNow(buyer.id)).billing_email_status).toBe('ok');
  });

  it('an update that leaves billing_email alone keeps the status', async () => {
    const { email, buyer } = await sentEmail('ap-keep@buyer.test');
    await sesEvents(bounce(email));
    const updated = await client.put(`/v1/customers/${buyer.id}`, { name: 'Renamed buyer', billing_email: 'ap-keep@buyer.test' });
    expect(updated.body).toMatchObject({ name: 'Renamed buyer', billing_email_status: 'bounced' });
  });
});

describe('POST /dev/emails/{id}/bounce (npm start only)', () => {
  it('bounces a sent email as SES would report it: the email, the customer, the event, and no more emails', async () => {
    const { email, buyer } = await sentEmail('ap-dev@buyer.test');
    const reply = await client.post(`/dev/emails/${email.id}/bounce`);
    expect(reply).toMatchObject({ status: 200, body: { id: email.id, status: 'bounced' } });
    expect((await customerNow(buyer.id)).billing_email_status).toBe('bounced');
    expect(await bouncedMessages(buyer.id)).toHaveLength(1);
    await issue(buyer.id);
    await settle();
    expect(mailsTo('ap-dev@buyer.test')).toHaveLength(1);
    expect((await client.post(`/dev/emails/${email.id}/bounce`)).body.status).toBe('bounced');
    expect(await bouncedMessages(buyer.id)).toHaveLength(1);
  });

  it('answers 404 for another workspace’s email or an unknown id, 409 for an email not sent, and changes nothing', async () => {
    const { email, buyer } = await sentEmail('ap-dev-404@buyer.test');
    const stranger = await api.client();
    expect(await stranger.post(`/dev/emails/${email.id}/bounce`)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect((await client.post('/dev/emails/eml_unknown/bounce')).status).toBe(404);
    expect((await client.post(`/dev/emails/${'x'.repeat(300)}/bounce`)).status).toBe(404);
    expect((await customerNow(buyer.id)).billing_email_status).toBe('ok');

    const silent = (await client.post('/v1/customers', { name: 'No address', currency: 'EUR' })).body;
    const unsent = await issue(silent.id);
    await settle();
    const [skipped] = (await client.get(`/v1/emails?invoice_id=${unsent.id}`)).body.data;
    expect(await client.post(`/dev/emails/${skipped.id}/bounce`)).toMatchObject({ status: 409, body: { code: 'email_not_sent' } });
  });

  it('is not served without the development routes', async () => {
    const plain = await startTestApi();
    try {
      const other = await plain.client();
      expect(await other.post('/dev/emails/eml_any/bounce')).toMatchObject({ status: 404, body: { code: 'route_not_found' } });
    } finally {
      await plain.close();
    }
  });
});
