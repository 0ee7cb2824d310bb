import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx } from '../../shared/context';
import { db, tableName } from '../../shared/db/client';
import { paymentMethodKey, type PaymentMethodItem } from '../../shared/domain/payment-methods/payment-method';
import { withEntity, type Client } from '../support/api';
import { startStripeTestApi, type StripeTestApi } from '../support/stripe/api';
import { describeWithStripeFixtures } from '../support/stripe/fixtures';
import type { StandInKeys } from '../support/stripe/server';

describeWithStripeFixtures('saving Stripe payment methods', () => {
  let env: StripeTestApi;
  let client: Client;
  let keys: StandInKeys;
  beforeAll(async () => {
    env = await startStripeTestApi();
    ({ client, keys } = await env.connectedClient());
  });
  afterAll(() => env.close());

  const newCustomer = async (c = client) => (await c.post('/v1/customers', { name: 'Ada', currency: 'EUR' })).body as { id: string };
  const save = (customerId: string, token: string, extra: Record<string, unknown> = {}, c = client) =>
    c.post(`/v1/customers/${customerId}/payment-methods`, { provider: 'stripe', token, ...extra });
  const stored = async (id: string, c = client) =>
    (await db.send(new GetCommand({ TableName: tableName(), Key: paymentMethodKey(makeCtx(c.workspace, 'test'), id), ConsistentRead: true }))).Item as PaymentMethodItem;
  /** The Stripe customers the stand-in holds for one of our customers. */
  const stripeCustomersOf = (customerId: string, account = keys.account) => [...account.customers.values()].filter((c) => c.metadata.customer_id === customerId);

  it('saves a card as Stripe reports it: brand, last 4, expiry; attached to the Stripe customer created for ours', async () => {
    const customer = await newCustomer();
    const reply = await save(customer.id, 'pm_card_visa');
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      id: expect.stringMatching(/^pm_[0-9A-Z]{26}$/), customer_id: customer.id, type: 'card', provider: 'stripe',
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: expect.any(Number) }, sepa_debit: null, is_default: true,
      created_at: expect.any(String), updated_at: reply.body.created_at, deleted_at: null,
      // Hyperline's names for the same card (docs/hyperline.md).
      status: 'active', brand: 'visa', last_4_digits: 4242, expiration_date: `${reply.body.card.exp_year}-12`,
    });
    const [stripeCustomer] = stripeCustomersOf(customer.id);
    expect(stripeCustomer!.metadata).toEqual({ workspace_id: client.workspace, customer_id: customer.id });
    const item = await stored(reply.body.id);
    const attached = keys.account.paymentMethods.get(item.provider_reference)!;
    expect(attached).toMatchObject({ customer: stripeCustomer!.id, card: { last4: '4242' } });
    expect(item.provider_account_id).toBe(keys.account.id);
    expect(JSON.stringify(reply.body)).not.toContain(item.provider_reference);
    expect((await client.get(`/v1/customers/${customer.id}`)).body.current_payment_method).toEqual({
      id: reply.body.id, status: 'active', type: 'card', last_4_digits: 4242, expiration_date: `${reply.body.card.exp_year}-12`, brand: 'visa',
    });

    // The second method goes to the same Stripe customer.
    const mastercard = await save(customer.id, 'pm_card_mastercard');
    expect([mastercard.status, mastercard.body.card.brand, mastercard.body.is_default]).toEqual([201, 'mastercard', false]);
    expect(stripeCustomersOf(customer.id)).toHaveLength(1);
    expect(keys.account.paymentMethods.get((await stored(mastercard.body.id)).provider_reference)!.customer).toBe(stripeCustomer!.id);
  });

  it('saves a SEPA Direct Debit with its bank and last 4 (type direct_debit; no expiry, no brand)', async () => {
    const customer = await newCustomer();
    const reply = await save(customer.id, 'pm_sepaDebit', { type: 'direct_debit' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ type: 'direct_debit', provider: 'stripe', card: null, sepa_debit: { bank_code: '37040044', country: 'DE', last4: '3000' }, is_default: true });
    expect((await client.get(`/v1/customers/${customer.id}`)).body).toMatchObject({
      current_payment_method_type: 'direct_debit',
      current_payment_method: { id: reply.body.id, status: 'active', type: 'direct_debit', last_4_digits: 3000, expiration_date: null, brand: null },
    });
    expect((await client.get(`/v1/customers/${customer.id}/payment-methods`)).body.data).toEqual([reply.body]);
    // Deleting the default direct debit leaves the customer with none, its type included.
    expect((await client.delete(`/v1/customers/${customer.id}/payment-methods/${reply.body.id}`)).status).toBe(200);
    expect((await client.get(`/v1/customers/${customer.id}`)).body).toMatchObject({ current_payment_method_id: null, current_payment_method_type: null });
  });

  it('the hosted pages show a saved SEPA debit: listed in the portal, offered on the invoice page', async () => {
    const customer = (await client.post('/v1/customers', { name: 'Ada', currency: 'EUR', billing_address: { country: 'FR' } })).body;
    expect((await save(customer.id, 'pm_sepaDebit')).status).toBe(201);
    const portal = (await client.post(`/v1/customers/${customer.id}/portal-sessions`)).body;
    expect(await (await fetch(portal.url)).text()).toContain('SEPA Direct Debit, account ending in 3000');
    const invoice = (await client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: 1_000 }] })).body;
    expect(await (await fetch(invoice.public_url)).text()).toContain('Pay by SEPA Direct Debit from the account ending in 3000');
  });

  it('concurrent first saves of one customer create one Stripe customer', async () => {
    const customer = await newCustomer();
    const replies = await Promise.all(Array.from({ length: 8 }, () => save(customer.id, 'pm_card_visa')));
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(stripeCustomersOf(customer.id)).toHaveLength(1);
    const owners = await Promise.all(replies.map(async (r) => keys.account.paymentMethods.get((await stored(r.body.id)).provider_reference)!.customer));
    expect(new Set(owners)).toEqual(new Set([stripeCustomersOf(customer.id)[0]!.id]));
    expect(replies.filter((r) => r.body.is_default)).toHaveLength(1);
  });

  it('refuses what Stripe refuses or the request contradicts (422), saving nothing', async () => {
    const customer = await newCustomer();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['pm_doesNotExist', {}, 'payment_method_invalid'],
      ['tok_visa', {}, 'payment_method_invalid'],
      ['pm_sepaDebit', { type: 'card' }, 'payment_method_type_mismatch'],
    ];
    for (const [token, extra, code] of cases) {
      const reply = await save(customer.id, token, extra);
      expect([token, reply.status, reply.body.code]).toEqual([token, 422, code]);
    }
    expect((await client.get(`/v1/customers/${customer.id}/payment-methods`)).body.meta.total).toBe(0);
    expect((await client.get(`/v1/customers/${customer.id}`)).body.current_payment_method_id).toBeNull();
    expect((await save(customer.id, 'pm_card_visa', { provider: 'paypal' })).status).toBe(400);
  });

  it('Stripe unreachable: a retryable 503 and nothing saved', async () => {
    const customer = await newCustomer();
    expect((await save(customer.id, 'pm_card_visa')).status).toBe(201); // the Stripe customer exists: only the attach fails
    env.standIn.cutAfterProcessing(/\/attach$/, 2); // the call and the SDK's one retry
    const reply = await save(customer.id, 'pm_card_visa');
    expect([reply.status, reply.body.code]).toEqual([503, 'service_unavailable']);
    expect((await client.get(`/v1/customers/${customer.id}/payment-methods`)).body.meta.total).toBe(1);
  });

  it('a workspace not connected to Stripe (or disconnected) cannot save Stripe methods: 422 payment_provider_not_connected', async () => {
    const other = await env.connectedClient();
    const customer = await newCustomer(other.client);
    expect((await save(customer.id, 'pm_card_visa', {}, other.client)).status).toBe(201);
    expect((await other.client.delete('/v1/payment-providers/stripe')).status).toBe(200);
    const reply = await save(customer.id, 'pm_card_visa', {}, other.client);
    expect([reply.status, reply.body.code]).toEqual([422, 'payment_provider_not_connected']);
    const setup = await other.client.post(`/v1/customers/${customer.id}/setup-intents`);
    expect([setup.status, setup.body.code]).toEqual([422, 'payment_provider_not_connected']);

    const never = await env.api.client();
    await withEntity(never);
    const theirs = await newCustomer(never);
    expect((await save(theirs.id, 'pm_card_visa', {}, never)).body.code).toBe('payment_provider_not_connected');
    // Another workspace's customer is a missing one, connected or not.
    expect((await save(theirs.id, 'pm_card_visa')).status).toBe(404);
  });

  it('setup intents: a client secret and the publishable key for Stripe.js, for the Stripe customer of ours', async () => {
    const customer = await newCustomer();
    const reply = await client.post(`/v1/customers/${customer.id}/setup-intents`);
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ id: expect.stringMatching(/^seti_/), provider: 'stripe', client_secret: expect.stringMatching(/^seti_\w+_secret_\w+$/), publishable_key: keys.publishableKey });
    const intent = keys.account.setupIntents.get(reply.body.id)!;
    expect(intent).toMatchObject({ customer: stripeCustomersOf(customer.id)[0]!.id, usage: 'off_session', client_secret: reply.body.client_secret, metadata: { customer_id: customer.id } });
    // Saving afterwards uses the same Stripe customer.
    expect((await save(customer.id, 'pm_card_visa')).status).toBe(201);
    expect(stripeCustomersOf(customer.id)).toHaveLength(1);

    const headers = { authorization: `Bearer ${client.token}`, 'idempotency-key': `setup-${customer.id}` };
    const first = await env.api.raw('POST', `/v1/customers/${customer.id}/setup-intents`, { headers });
    const again = await env.api.raw('POST', `/v1/customers/${customer.id}/setup-intents`, { headers });
    expect([first.status, again.status, again.body.id]).toEqual([201, 201, first.body.id]);

    expect((await client.post('/v1/customers/cus_01JNQ0000000000000000000000/setup-intents')).status).toBe(404);
  });
});
