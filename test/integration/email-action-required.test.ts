import type { Client } from '../support/api';
import { linkOf, onlyMail, startEmailEnv, startSmtpForEmails, textPart, type EmailEnv } from '../support/email-env';
import { startStripeTestApi, type StripeTestApi } from '../support/stripe/api';
import { describeWithStripeFixtures } from '../support/stripe/fixtures';

/*
 * The payment action required email (3-D Secure): a charge through Stripe that waits on the customer's bank
 * (`invoice.payment_action_required`) emails the customer the invoice's page, where the payment is confirmed.
 */
describeWithStripeFixtures('the payment action required email', () => {
  let stripe: StripeTestApi;
  let client: Client;
  let env: EmailEnv;
  beforeAll(async () => {
    const smtp = await startSmtpForEmails();
    stripe = await startStripeTestApi();
    ({ client } = await stripe.connectedClient());
    env = await startEmailEnv(smtp, new Set([client.workspace]));
    const [entity] = (await client.get('/v1/invoicing-entities')).body.data;
    expect((await client.put(`/v1/invoicing-entities/${entity.id}`, { email_from: 'billing@acme.test' })).status).toBe(200);
  });
  afterAll(async () => {
    await env.close();
    await stripe.close();
  });

  it('is sent once (en) when a charge waits on the customer\'s authentication, with the page that completes it', async () => {
    const buyer = (await client.post('/v1/customers', { name: 'Payer', currency: 'EUR', language: 'en', billing_email: 'ap-3ds@buyer.test', billing_address: { country: 'FR' } })).body;
    expect((await client.post(`/v1/customers/${buyer.id}/payment-methods`, { provider: 'stripe', token: 'pm_card_authenticationRequired' })).status).toBe(201);
    const invoice = (await client.post('/v1/invoices', { customer_id: buyer.id, status: 'to_pay', collection_method: 'manual', line_items: [{ name: 'Service', unit_amount: 10_000 }] })).body;
    const charged = await client.post(`/v1/invoices/${invoice.id}/charge`, {});
    expect(charged.body.transactions).toEqual([expect.objectContaining({ status: 'pending', error_type: 'authentication_required' })]);
    await env.settle();
    await env.settle();

    const mail = onlyMail(env, 'ap-3ds@buyer.test', `Action required: confirm the payment of invoice ${invoice.number}`);
    expect(textPart(mail)).toContain(`Your bank asks you to confirm the payment of €120.00 for invoice ${invoice.number} from Acme SAS.`);
    expect(linkOf(mail)).toBe(invoice.public_url);
    const page = await fetch(invoice.public_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(invoice.number);
    expect((await client.get(`/v1/emails?invoice_id=${invoice.id}&type=payment_action_required`)).body.data).toMatchObject([{ status: 'sent' }]);
  });
});
