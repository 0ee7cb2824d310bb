import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

/** What a signature does (decisions.md, "Quotes"): a subscription, a subscription's change, or an invoice, atomically. */
let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

const MONTHLY = { period: 'months', count: 1 };

const customer = async () => (await client.post('/v1/customers', { name: 'Initech', currency: 'EUR', billing_address: { country: 'FR' } })).body;
async function priced(amount: number, body: Record<string, unknown> = {}, name = 'Platform') {
  const product = (await client.post('/v1/products', { name, type: 'flat_fee' })).body;
  const reply = await client.post('/v1/price-configurations', { product_id: product.id, currency: 'EUR', type: 'fee', prices: [{ amount }], ...body });
  expect(reply.status).toBe(201);
  return { product_id: product.id as string, price_configuration_id: reply.body.id as string };
}
async function quote(body: Record<string, unknown>) {
  const reply = await client.post('/v1/quotes', body);
  expect([reply.status, reply.body.code, reply.body.message]).toEqual([201, undefined, undefined]);
  return reply.body;
}
const sign = (id: string, body: unknown = {}) => client.post(`/v1/quotes/${id}/sign`, body);
const subscriptionsOf = async (customerId: string) => (await client.get(`/v2/subscriptions?customer_id=${customerId}`)).body;
const invoicesOf = async (customerId: string) => (await client.get(`/v1/invoices?customer_id=${customerId}`)).body;

describe('signing a subscription quote', () => {
  it('creates and starts a subscription with the quote’s products, and names it on the quote', async () => {
    const buyer = await customer();
    const platform = await priced(10_000, { billing_interval: MONTHLY, commitment_interval: { period: 'years', count: 1 } });
    const seats = await priced(1_500, { billing_interval: MONTHLY }, 'Seats');
    const setup = await priced(50_000, {}, 'Setup');
    const created = await quote({
      customer_id: buyer.id, type: 'subscription', line_items: [{ ...platform, quantity: 1 }, { ...seats, quantity: 8 }, setup],
    });
    const reply = await sign(created.id, { signer_name: 'Bill Lumbergh' });
    expect(reply.status).toBe(200);
    const signed = reply.body;
    expect(signed).toMatchObject({
      status: 'signed', subscription_id: expect.stringMatching(/^sub_/), invoice_id: null, signer_name: 'Bill Lumbergh', url: expect.any(String),
    });
    expect(signed.child_subscription_ids).toEqual([signed.subscription_id]);
    expect((await client.get(`/v1/quotes/${created.id}`)).body).toEqual(signed);

    const subscription = await client.get(`/v2/subscriptions/${signed.subscription_id}`);
    expect(subscription.status).toBe(200);
    expect(subscription.body).toMatchObject({
      id: signed.subscription_id, customer_id: buyer.id, status: 'active', currency: 'EUR', quote_id: created.id, billing_interval: MONTHLY,
      starts_at: signed.signed_at,
    });
    expect(subscription.body.products.map((p: any) => [p.product_id, p.price_configuration_id, p.quantity, p.name])).toEqual([
      [platform.product_id, platform.price_configuration_id, 1, 'Platform'],
      [seats.product_id, seats.price_configuration_id, 8, 'Seats'],
      [setup.product_id, setup.price_configuration_id, 1, 'Setup'],
    ]);
    const listed = await subscriptionsOf(buyer.id);
    expect(listed.data.map((s: any) => s.id)).toEqual([signed.subscription_id]);
    expect((await client.get(`/v1/customers/${buyer.id}`)).body.subscriptions).toEqual([expect.objectContaining({ id: signed.subscription_id, status: 'active' })]);
  });

  it('starts the subscription at the quote’s starts_at (pending until then)', async () => {
    const buyer = await customer();
    const line = await priced(2_000, { billing_interval: MONTHLY });
    const startsAt = new Date(Date.now() + 10 * 86_400_000).toISOString();
    const created = await quote({ customer_id: buyer.id, type: 'subscription', line_items: [line], starts_at: startsAt });
    const signed = (await sign(created.id)).body;
    const subscription = (await client.get(`/v2/subscriptions/${signed.subscription_id}`)).body;
    expect([subscription.status, subscription.starts_at]).toEqual(['pending', startsAt]);
  });

  it('counts the promotion code’s redemption in the signature, not before', async () => {
    const buyer = await customer();
    const line = await priced(2_000, { billing_interval: MONTHLY });
    const coupon = (await client.post('/v1/coupons', { name: 'Launch', type: 'percent', discount_percent: 20 })).body;
    const code = (await client.post('/v1/promotion-codes', { code: `SUB${Date.now()}`, coupon_id: coupon.id, max_redemptions: 1 })).body;
    const first = await quote({ customer_id: buyer.id, type: 'subscription', line_items: [line], promotion_code: code.code });
    const second = await quote({ customer_id: buyer.id, type: 'subscription', line_items: [line], promotion_code: code.code });
    expect((await client.get(`/v1/promotion-codes/${code.id}`)).body.current_redemptions).toBe(0);
    expect((await sign(first.id)).status).toBe(200);
    expect((await client.get(`/v1/promotion-codes/${code.id}`)).body.current_redemptions).toBe(1);
    // The code is used up: the second signature fails and creates nothing.
    const refused = await sign(second.id);
    expect([refused.status, refused.body.code]).toEqual([422, 'promotion_code_not_applicable']);
    expect((await client.get(`/v1/quotes/${second.id}`)).body).toMatchObject({ status: 'draft', subscription_id: null, child_subscription_ids: [] });
    expect((await subscriptionsOf(buyer.id)).meta.total).toBe(1);
  });
});

describe('signing a subscription_update quote', () => {
  it('changes the named subscription to the quote’s products', async () => {
    const buyer = await customer();
    const platform = await priced(10_000, { billing_interval: MONTHLY });
    const seats = await priced(1_500, { billing_interval: MONTHLY }, 'Seats');
    const original = (await sign((await quote({ customer_id: buyer.id, type: 'subscription', line_items: [platform, { ...seats, quantity: 5 }] })).id)).body;
    const subscriptionId = original.subscription_id;

    const addon = await priced(3_000, { billing_interval: MONTHLY }, 'Add-on');
    const update = await quote({
      customer_id: buyer.id, type: 'subscription_update', subscription_id: subscriptionId, line_items: [platform, { ...seats, quantity: 12 }, addon],
    });
    expect(update.amount).toBe(10_000 + 18_000 + 3_000);
    const signed = (await sign(update.id)).body;
    expect(signed).toMatchObject({ status: 'signed', subscription_id: subscriptionId, child_subscription_ids: [subscriptionId] });
    const subscription = (await client.get(`/v2/subscriptions/${subscriptionId}`)).body;
    expect(subscription.products.map((p: any) => [p.product_id, p.quantity])).toEqual([[platform.product_id, 1], [seats.product_id, 12], [addon.product_id, 1]]);
    expect(subscription.status).toBe('active');
    expect((await subscriptionsOf(buyer.id)).meta.total).toBe(1);
  });

  it('keeps a product the subscription already has even if archived since; refuses another customer’s subscription', async () => {
    const buyer = await customer();
    const legacy = await priced(10_000, { billing_interval: MONTHLY }, 'Legacy plan');
    const subscriptionId = (await sign((await quote({ customer_id: buyer.id, type: 'subscription', line_items: [legacy] })).id)).body.subscription_id;
    await client.put(`/v1/products/${legacy.product_id}/archive`);
    const seats = await priced(1_000, { billing_interval: MONTHLY }, 'Seats');
    const update = await quote({ customer_id: buyer.id, type: 'subscription_update', subscription_id: subscriptionId, line_items: [legacy, { ...seats, quantity: 3 }] });
    expect((await sign(update.id)).status).toBe(200);
    expect((await client.get(`/v2/subscriptions/${subscriptionId}`)).body.products.map((p: any) => p.product_id)).toEqual([legacy.product_id, seats.product_id]);
    // A new subscription may not use the archived product.
    const fresh = await client.post('/v1/quotes', { customer_id: buyer.id, type: 'subscription', line_items: [legacy] });
    expect([fresh.status, fresh.body.code]).toEqual([422, 'product_archived']);
    const stranger = await customer();
    const foreign = await client.post('/v1/quotes', { customer_id: stranger.id, type: 'subscription_update', subscription_id: subscriptionId, line_items: [seats] });
    expect([foreign.status, foreign.body.code]).toEqual([422, 'subscription_not_found']);
  });

  it('refuses to change a cancelled subscription, leaving the quote unsigned', async () => {
    const buyer = await customer();
    const line = await priced(10_000, { billing_interval: MONTHLY });
    const subscriptionId = (await sign((await quote({ customer_id: buyer.id, type: 'subscription', line_items: [line] })).id)).body.subscription_id;
    const update = await quote({ customer_id: buyer.id, type: 'subscription_update', subscription_id: subscriptionId, line_items: [{ ...line, quantity: 2 }] });
    expect((await client.post(`/v1/subscriptions/${subscriptionId}/cancel`, { mode: 'immediately' })).status).toBe(200);
    const refused = await sign(update.id);
    expect([refused.status, refused.body.code]).toEqual([422, 'subscription_cancelled']);
    expect((await client.get(`/v1/quotes/${update.id}`)).body.status).toBe('draft');
    expect((await client.get(`/v2/subscriptions/${subscriptionId}`)).body.products.map((p: any) => p.quantity)).toEqual([1]);
  });
});

describe('signing a one_off quote', () => {
  it('issues a numbered to_pay invoice of the quote’s lines, with its promotion code, and names it on the quote', async () => {
    const buyer = await customer();
    const audit = await priced(40_000, {}, 'Audit');
    const training = await priced(5_000, {}, 'Training');
    const coupon = (await client.post('/v1/coupons', { name: 'Ten', type: 'percent', discount_percent: 10 })).body;
    const code = (await client.post('/v1/promotion-codes', { code: `ONE${Date.now()}`, coupon_id: coupon.id })).body;
    const created = await quote({
      customer_id: buyer.id, type: 'one_off', line_items: [audit, { ...training, quantity: 2 }], promotion_code: code.code, display_total_with_tax: true,
    });
    expect(created.amount).toBe(50_000);
    const signed = (await sign(created.id)).body;
    expect(signed).toMatchObject({ status: 'signed', invoice_id: expect.stringMatching(/^inv_/), subscription_id: null, child_subscription_ids: [] });
    const invoice = (await client.get(`/v1/invoices/${signed.invoice_id}`)).body;
    expect(invoice).toMatchObject({
      customer_id: buyer.id, status: 'to_pay', number: expect.stringMatching(/^INV-\d+$/), currency: 'EUR',
      amount_excluding_tax: 45_000, discount_amount: 5_000, tax_amount: 9_000, total_amount: 54_000,
    });
    expect(invoice.line_items.map((l: any) => [l.product_id, l.units_count, l.name])).toEqual([[audit.product_id, 1, 'Audit'], [training.product_id, 2, 'Training']]);
    expect((await client.get(`/v1/promotion-codes/${code.id}`)).body.current_redemptions).toBe(1);
    expect((await invoicesOf(buyer.id)).meta.total).toBe(1);
  });
});

describe('a signature that fails writes nothing', () => {
  it.each(['subscription', 'one_off'])('%s: a product archived since the quote leaves it unsigned and creates nothing', async (type) => {
    const buyer = await customer();
    const line = await priced(10_000, { billing_interval: MONTHLY });
    const created = await quote({ customer_id: buyer.id, type, line_items: [line], status: 'pending_signature' });
    await client.put(`/v1/products/${line.product_id}/archive`);
    const refused = await sign(created.id);
    expect([refused.status, refused.body.code]).toEqual([422, 'product_archived']);
    expect((await client.get(`/v1/quotes/${created.id}`)).body).toEqual(created);
    expect((await subscriptionsOf(buyer.id)).meta.total).toBe(0);
    expect((await invoicesOf(buyer.id)).meta.total).toBe(0);
    // Unarchived, the same quote signs.
    await client.put(`/v1/products/${line.product_id}/unarchive`);
    expect((await sign(created.id)).body.status).toBe('signed');
  });

  it('refuses a signature when the catalog no longer prices the lines as quoted', async () => {
    const buyer = await customer();
    const line = await priced(10_000, { billing_interval: MONTHLY });
    const created = await quote({ customer_id: buyer.id, type: 'subscription', line_items: [line] });
    expect((await client.put(`/v1/price-configurations/${line.price_configuration_id}/prices`, { prices: [{ amount: 12_000 }] })).status).toBe(200);
    const refused = await sign(created.id);
    expect([refused.status, refused.body.code]).toEqual([422, 'quote_prices_changed']);
    expect((await client.get(`/v1/quotes/${created.id}`)).body.status).toBe('draft');
    expect((await subscriptionsOf(buyer.id)).meta.total).toBe(0);
  });
});

describe('racing moves on one quote', () => {
  /**
   * The void is sent after these delays (ms): a signature reads more before it writes, so a void sent at once wins;
   * later ones meet the signature mid-way, then after it. Both outcomes must happen, each one exactly.
   */
  const VOID_DELAYS = [0, 0, 5, 10, 20, 30, 45, 60, 90, 250];

  it.each(['subscription', 'one_off'])('%s: void and sign in parallel, several rounds: exactly one wins, the other gets 409', async (type) => {
    const buyer = await customer();
    const line = await priced(10_000, { billing_interval: MONTHLY });
    const winners = new Set<string>();
    for (const delay of VOID_DELAYS) {
      const created = await quote({ customer_id: buyer.id, type, line_items: [line], status: 'pending_signature' });
      const replies = await Promise.all([
        sign(created.id, { signer_name: 'Racer' }).then((r) => ['sign', r] as const),
        new Promise((resolve) => setTimeout(resolve, delay)).then(async () => ['void', await client.post(`/v1/quotes/${created.id}/void`, { reason: 'Race' })] as const),
      ]);
      const statuses = replies.map(([name, r]) => [name, r.status, r.body.code]);
      expect([delay, replies.map(([, r]) => r.status).sort()]).toEqual([delay, [200, 409]]);
      const [winner] = replies.find(([, r]) => r.status === 200)!;
      const loser = replies.find(([, r]) => r.status === 409)![1];
      expect([statuses, loser.body.code]).toEqual([statuses, 'invalid_state_transition']);
      winners.add(winner);
      const final = (await client.get(`/v1/quotes/${created.id}`)).body;
      expect(final.status).toBe(winner === 'sign' ? 'signed' : 'voided');
      if (winner === 'void') expect([final.subscription_id, final.invoice_id, final.signed_at]).toEqual([null, null, null]);
    }
    expect([...winners].sort()).toEqual(['sign', 'void']);
    // Exactly one subscription or invoice per signed quote, none for the voided ones.
    const signedQuotes = (await client.get(`/v1/quotes?customer_id=${buyer.id}&status=signed`)).body.meta.total;
    const made = type === 'one_off' ? (await invoicesOf(buyer.id)).meta.total : (await subscriptionsOf(buyer.id)).meta.total;
    expect(made).toBe(signedQuotes);
  });

  it('two signatures of one quote in parallel: one subscription, one 409', async () => {
    const buyer = await customer();
    const line = await priced(10_000, { billing_interval: MONTHLY });
    const created = await quote({ customer_id: buyer.id, type: 'subscription', line_items: [line] });
    const replies = await Promise.all([sign(created.id), sign(created.id), sign(created.id)]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect((await subscriptionsOf(buyer.id)).meta.total).toBe(1);
  });
});
