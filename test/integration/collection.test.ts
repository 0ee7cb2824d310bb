import { jest } from '@jest/globals';
import { db, setAfterSendHook } from '../../shared/db/client';
import { currentEffectClaim } from '../../shared/db/effect-claim';
import { sandboxChargeId, sandboxProvider } from '../../shared/domain/payments/sandbox';
import { makeCtx } from '../../shared/context';
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { billSubscriptionsTogether } from '../../shared/domain/subscriptions/billing-batch';
import { LOCK_TIMEOUT_MS } from '../../shared/http/idempotency';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { pricedProduct, subscribe, subscriber, type PricedProduct } from '../support/subscriptions';

/** Automatic collection and dunning (docs/collection.md), through the API and the scheduled run, with a moved clock. */
let api: TestApi;
let client: Client;
let entity: { id: string };
let fee: PricedProduct;
const clock = movableClock();
const HOUR = 3_600_000;

beforeAll(async () => {
  api = await startTestApi({ events: true });
  client = await api.client();
  entity = await withEntity(client);
  fee = await pricedProduct(client, 'flat_fee', { amount: 1_000, name: 'Platform' });
});
afterAll(async () => {
  setAfterSendHook(undefined);
  await api.close();
  clock.restore();
});
afterEach(() => jest.restoreAllMocks());

/** Scheduled work of this file's workspace only: other test files share the table. */
const mine = () => ({ workspaces: new Set([client.workspace]) });
const run = () => runDueWork(clock.now(), mine());
/** Moves the clock to one minute past `iso`. */
const moveTo = (iso: string) => clock.advance(Date.parse(iso) + 60_000 - clock.now().getTime());

interface Transaction { amount: number; status: string; provider_id: string | null; payment_method: { type: string } | null; error_type: string | null }
interface Dunning { status: string; attempt: number; next_attempt_at: string | null; started_at: string | null; final_action: string; final_action_status: string | null; stopped_reason: string | null; reminder: { attempt: number; phase: string } | null }
interface Invoice { id: string; status: string; total_amount: number; amount_due: number; collection_method: string | null; dunning: Dunning | null; transactions: Transaction[]; subscription_id: string | null }

const invoice = async (id: string): Promise<Invoice> => (await client.get(`/v1/invoices/${id}`)).body;
const invoicesOf = async (customerId: string): Promise<Invoice[]> => (await client.get(`/v1/invoices?customer_id=${customerId}&take=100`)).body.data;
const customerWith = async (token: string | null, body: Record<string, unknown> = {}) => {
  const customer = await subscriber(client, body);
  if (token) expect((await client.post(`/v1/customers/${customer.id}/payment-methods`, { token })).status).toBe(201);
  return customer;
};
const payable = async (customerId: string, body: Record<string, unknown> = {}): Promise<Invoice> => {
  const reply = await client.post('/v1/invoices', { customer_id: customerId, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: 1_000 }], ...body });
  expect(reply.status).toBe(201);
  return reply.body;
};
const setEntity = async (body: Record<string, unknown>) => expect((await client.put(`/v1/invoicing-entities/${entity.id}`, body)).status).toBe(200);
const eventsOf = async (id: string) => {
  await api.events.settle();
  const messages = (await client.get('/v1/webhooks/messages?limit=250')).body.data as Array<{ payload: { event_type: string; data: { id: string; dunning: Dunning | null } } }>;
  return messages.filter((m) => m.payload.data.id === id).reverse().map((m) => m.payload);
};
/** Every charge the provider is asked for, by idempotency key. */
const spyCharges = () => jest.spyOn(sandboxProvider, 'charge');
const keysOf = (spy: ReturnType<typeof spyCharges>) => spy.mock.calls.map(([input]) => input.idempotencyKey);

describe('collection method', () => {
  it('is automatic with a default payment method and manual without, unless the customer or the subscription says', async () => {
    const withCard = await customerWith('tok_visa');
    const withoutCard = await customerWith(null);
    const optedOut = await customerWith('tok_visa', { collection_method: 'manual' });
    expect((await client.get(`/v1/customers/${optedOut.id}`)).body.collection_method).toBe('manual');
    expect((await client.get(`/v1/customers/${withCard.id}`)).body.collection_method).toBeNull();
    expect((await payable(withCard.id)).collection_method).toBe('automatic');
    expect((await payable(withoutCard.id)).collection_method).toBe('manual');
    const manual = await payable(optedOut.id);
    expect(manual).toMatchObject({ collection_method: 'manual', dunning: null });
    const draft = (await client.post('/v1/invoices', { customer_id: withCard.id, line_items: [{ name: 'Draft', unit_amount: 1_000 }] })).body;
    expect(draft).toMatchObject({ collection_method: null, dunning: null });

    // The subscription's own choice wins over the customer's.
    const sub = await subscribe(client, { customer_id: optedOut.id, starts_at: clock.now().toISOString(), products: [{ ...fee, quantity: 1 }], collection_method: 'automatic' });
    expect((await client.get(`/v2/subscriptions/${sub.id}`)).body.collection_method).toBe('automatic');
    await run();
    await run();
    const [fromSubscription] = (await invoicesOf(optedOut.id)).filter((i) => i.subscription_id === sub.id);
    expect(fromSubscription).toMatchObject({ collection_method: 'automatic', status: 'paid', dunning: { status: 'succeeded', attempt: 1 } });
    expect((await invoice(manual.id)).status).toBe('to_pay');
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });

  it('rejects an unknown collection method, a retry schedule that does not move forward, and an unknown final action', async () => {
    const customer = await customerWith(null);
    expect((await client.put(`/v1/customers/${customer.id}`, { collection_method: 'charge_automatically' })).status).toBe(400);
    expect((await client.post('/v2/subscriptions', { customer_id: customer.id, products: [{ ...fee, quantity: 1 }], collection_method: 'send_invoice' })).status).toBe(400);
    expect((await client.put(`/v1/customers/${customer.id}`, { collection_method: 'automatic' })).body.collection_method).toBe('automatic');
    const back = await client.put(`/v1/invoicing-entities/${entity.id}`, { dunning_retry_schedule: [{ period: 'days', count: 1 }, { period: 'hours', count: 24 }] });
    expect(back.status).toBe(400);
    expect(back.body.errors).toEqual([{ path: 'body.dunning_retry_schedule.1', message: 'is not after the previous retry' }]);
    expect((await client.put(`/v1/invoicing-entities/${entity.id}`, { dunning_retry_schedule: [{ period: 'days', count: 61 }] })).status).toBe(400);
    expect((await client.put(`/v1/invoicing-entities/${entity.id}`, { dunning_retry_schedule: [{ period: 'minutes', count: 5 }] })).status).toBe(400);
    expect((await client.put(`/v1/invoicing-entities/${entity.id}`, { dunning_final_action: 'void' })).status).toBe(400);
    expect((await client.get(`/v1/invoicing-entities/${entity.id}`)).body).toMatchObject({
      dunning_retry_schedule: [{ period: 'hours', count: 2 }, { period: 'hours', count: 12 }, { period: 'hours', count: 24 }, { period: 'days', count: 3 }, { period: 'days', count: 7 }],
      dunning_final_action: 'none', wallet_collection_enabled: true,
    });
  });
});

describe('automatic collection', () => {
  it('decides the collection of the renewals a worker bills together (one transaction for several) as of those billed alone', async () => {
    // Both customers have a card (automatic by default); the second subscription says manual.
    const customers = [await customerWith('tok_visa'), await customerWith('tok_visa')];
    const subs = await Promise.all(customers.map((c, i) =>
      subscribe(client, { customer_id: c.id, starts_at: clock.now().toISOString(), products: [{ ...fee, quantity: 1 }], ...(i === 1 && { collection_method: 'manual' }) })));
    const together = await billSubscriptionsTogether(makeCtx(client.workspace, 'test:batch'), subs.map((s) => s.id));
    expect(together).toEqual({ invoiced: subs.map((s) => s.id), alone: [] });
    const issued = (await Promise.all(customers.map((c) => invoicesOf(c.id)))).flat();
    expect(issued.map((i) => [i.collection_method, i.dunning?.status ?? null])).toEqual([['automatic', 'active'], ['manual', null]]);
    await run();
    expect((await invoicesOf(customers[0]!.id)).map((i) => [i.status, i.dunning?.status])).toEqual([['paid', 'succeeded']]);
    expect((await invoicesOf(customers[1]!.id)).map((i) => i.status)).toEqual(['to_pay']);
    for (const sub of subs) await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });

  it("collects a subscription's invoice from the wallet first, then the card, once", async () => {
    const customer = await customerWith('tok_visa');
    const wallet = (await client.post('/v1/wallets', { customer_id: customer.id })).body;
    expect((await client.post(`/v1/wallets/${wallet.id}/load`, { type: 'free', amount: 300 })).status).toBe(200);
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: clock.now().toISOString(), products: [{ ...fee, quantity: 1 }] });
    const charges = spyCharges();

    await run(); // bills the period: the invoice is payable, its collection due at once
    await Promise.all([run(), run()]);
    await run();

    const invoices = await invoicesOf(customer.id);
    expect(invoices).toHaveLength(1);
    const paid = invoices[0]!;
    expect(paid).toMatchObject({ status: 'paid', amount_due: 0, total_amount: 1_200, collection_method: 'automatic', dunning: { status: 'succeeded', attempt: 1, next_attempt_at: null } });
    expect(paid.transactions.map((t) => [t.payment_method?.type, t.amount, t.status])).toEqual([['wallet', 300, 'succeeded'], ['card', 900, 'succeeded']]);
    expect((await client.get(`/v1/wallets/${wallet.id}`)).body.balance.amount).toBe(0);
    expect(new Set(keysOf(charges)).size).toBe(1);
    expect(paid.transactions[1]!.provider_id).toBe(sandboxChargeId(keysOf(charges)[0]!));
    expect((await run()).due).toBe(0);
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });

  it('does not take from the wallet when the entity says not to', async () => {
    await setEntity({ wallet_collection_enabled: false });
    const customer = await customerWith('tok_visa');
    const wallet = (await client.post('/v1/wallets', { customer_id: customer.id })).body;
    await client.post(`/v1/wallets/${wallet.id}/load`, { type: 'free', amount: 300 });
    const issued = await payable(customer.id);
    await run();
    const paid = await invoice(issued.id);
    expect(paid.transactions.map((t) => [t.payment_method?.type, t.amount])).toEqual([['card', 1_200]]);
    expect((await client.get(`/v1/wallets/${wallet.id}`)).body.balance.amount).toBe(300);
    await setEntity({ wallet_collection_enabled: true });
  });

  it('collects an invoice once its grace period is over, deciding its method then', async () => {
    await setEntity({ invoice_grace_period_duration: 1 });
    const customer = await customerWith(null);
    const draft = (await client.post('/v1/invoices', { customer_id: customer.id, line_items: [{ name: 'Service', unit_amount: 1_000 }] })).body;
    expect((await client.post(`/v1/invoices/${draft.id}/validate`)).body).toMatchObject({ status: 'grace_period', collection_method: null, dunning: null });
    await setEntity({ invoice_grace_period_duration: 0 });
    // The card saved during the grace period counts: the method is decided when the invoice becomes payable.
    await client.post(`/v1/customers/${customer.id}/payment-methods`, { token: 'tok_visa' });
    clock.advance(24 * HOUR + 60_000);
    await run();
    expect(await invoice(draft.id)).toMatchObject({ collection_method: 'automatic' });
    await run(); // the run that moved it may not have seen its collection item yet
    expect(await invoice(draft.id)).toMatchObject({ status: 'paid', dunning: { status: 'succeeded', attempt: 1 } });
  });

  it('never charges twice when runs overlap', async () => {
    const customer = await customerWith('tok_visa');
    const issued = await payable(customer.id);
    const charges = spyCharges();
    await Promise.all([run(), run(), run(), run()]);
    await run();
    const paid = await invoice(issued.id);
    expect(paid.status).toBe('paid');
    expect(paid.transactions).toHaveLength(1);
    expect(new Set(keysOf(charges)).size).toBe(1);
  });

  it('retries the item of a worker that crashed after the charge, without a second invoice or charge', async () => {
    const customer = await customerWith('tok_visa');
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: clock.now().toISOString(), products: [{ ...fee, quantity: 1 }] });
    const charges = spyCharges();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    // The worker dies between the provider's answer and the write that records it.
    const realSend = db.send.bind(db);
    let crashed = 0;
    jest.spyOn(db, 'send').mockImplementation(((command: { constructor: { name: string }; input: { TransactItems?: Array<{ Put?: { Item?: Record<string, unknown> } }> } }) => {
      const records = command.constructor.name === 'TransactWriteCommand'
        && command.input.TransactItems?.some((t) => t.Put?.Item?._type === 'invoice' && (t.Put.Item.transactions as Transaction[] | undefined)?.some((x) => x.provider_id));
      if (records && crashed === 0) {
        crashed += 1;
        return Promise.reject(new Error('worker crashed'));
      }
      return realSend(command as never);
    }) as never);

    await run();
    await run();
    let invoices = await invoicesOf(customer.id);
    expect(crashed).toBe(1);
    expect(invoices).toHaveLength(1);
    // The next run takes the crashed claim over (once its lock lapsed, or at once with the same provider key).
    clock.advance(2 * 60_000);
    await Promise.all([run(), run()]);
    invoices = await invoicesOf(customer.id);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: 'paid', dunning: { status: 'succeeded', attempt: 1 } });
    expect(invoices[0]!.transactions).toHaveLength(1);
    expect(charges.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keysOf(charges)).size).toBe(1);
    expect(invoices[0]!.transactions[0]!.provider_id).toBe(sandboxChargeId(keysOf(charges)[0]!));
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });
});

describe('dunning', () => {
  it('walks the whole schedule of a declined card, telling each attempt once, then marks the invoice uncollectible', async () => {
    await setEntity({ dunning_final_action: 'mark_uncollectible' });
    const customer = await customerWith('tok_chargeDeclined');
    const due = new Date(clock.now().getTime() + 24 * HOUR).toISOString();
    const issued = await payable(customer.id, { due_at: due });
    expect(issued.dunning).toMatchObject({ status: 'active', attempt: 0, final_action: 'mark_uncollectible' });
    const charges = spyCharges();

    await Promise.all([run(), run()]);
    let current = await invoice(issued.id);
    expect(current).toMatchObject({ status: 'error', dunning: { status: 'active', attempt: 1, last_error_type: 'payment_method_declined' } });
    const started = Date.parse(current.dunning!.started_at!);
    const expected = [2, 12, 24, 72, 168].map((h) => new Date(started + h * HOUR).toISOString());
    for (const [i, at] of expected.entries()) {
      expect(current.dunning!.next_attempt_at).toBe(at);
      await run(); // not yet due: nothing happens
      expect((await invoice(issued.id)).dunning!.attempt).toBe(i + 1);
      moveTo(at);
      await Promise.all([run(), run()]);
      await run();
      current = await invoice(issued.id);
      expect(current.dunning!.attempt).toBe(i + 2);
    }
    expect(current).toMatchObject({ status: 'uncollectible', dunning: { status: 'exhausted', attempt: 6, next_attempt_at: null, final_action_status: 'done' } });
    expect(current.transactions.map((t) => t.status)).toEqual(Array(6).fill('failed'));
    expect(new Set(keysOf(charges)).size).toBe(6);
    expect((await run()).due).toBe(0);

    const events = await eventsOf(issued.id);
    const told = (type: string) => events.filter((e) => e.event_type === type).map((e) => e.data.dunning!.attempt);
    expect(told('invoice.payment_failed')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(told('invoice.reminder_due')).toEqual([1, 2, 3, 4, 5, 6]);
    // Before the due date (attempts at 0, 2 h and 12 h), after it from the one at 24 h.
    expect(events.filter((e) => e.event_type === 'invoice.reminder_due').map((e) => e.data.dunning!.reminder!.phase)).toEqual([
      'before_due', 'before_due', 'before_due', 'after_due', 'after_due', 'after_due',
    ]);
    await setEntity({ dunning_final_action: 'none' });
  });

  it('stops at a manual payment', async () => {
    const customer = await customerWith('tok_chargeDeclined', { invoice_reminders_enabled: false });
    const issued = await payable(customer.id);
    await run();
    expect((await invoice(issued.id)).dunning).toMatchObject({ status: 'active', attempt: 1 });
    expect((await client.post(`/v1/invoices/${issued.id}/transactions`, { amount: 500 })).status).toBe(201);
    const stopped = await invoice(issued.id);
    expect(stopped).toMatchObject({ status: 'partially_paid', amount_due: 700, dunning: { status: 'stopped', stopped_reason: 'manual_payment', next_attempt_at: null } });
    clock.advance(8 * 24 * HOUR);
    expect((await run()).due).toBe(0);
    expect((await invoice(issued.id)).transactions).toHaveLength(2);
    const events = await eventsOf(issued.id);
    expect(events.filter((e) => e.event_type === 'invoice.payment_failed')).toHaveLength(1);
    expect(events.filter((e) => e.event_type === 'invoice.reminder_due')).toHaveLength(0);
  });

  it('leaves the schedule when the invoice is marked uncollectible by hand', async () => {
    const customer = await customerWith('tok_chargeDeclined', { invoice_reminders_enabled: false });
    const issued = await payable(customer.id);
    await run();
    expect((await client.post(`/v1/invoices/${issued.id}/uncollectible`)).status).toBe(200);
    clock.advance(3 * HOUR);
    await run();
    expect(await invoice(issued.id)).toMatchObject({ status: 'uncollectible', dunning: { status: 'stopped', stopped_reason: 'not_payable', attempt: 1 } });
    expect((await run()).due).toBe(0);
  });

  it('starts a new round with a new default payment method', async () => {
    const customer = await customerWith('tok_chargeDeclined');
    const issued = await payable(customer.id);
    await run();
    expect((await invoice(issued.id)).dunning).toMatchObject({ status: 'active', attempt: 1 });
    expect((await client.post(`/v1/customers/${customer.id}/payment-methods`, { token: 'tok_visa', set_as_default: true })).status).toBe(201);
    expect((await invoice(issued.id)).dunning).toMatchObject({ status: 'active', attempt: 0, next_attempt_at: expect.any(String) });
    await run();
    const paid = await invoice(issued.id);
    expect(paid).toMatchObject({ status: 'paid', dunning: { status: 'succeeded', attempt: 1 } });
    expect(paid.transactions.map((t) => [t.status, t.amount])).toEqual([['failed', 1_200], ['succeeded', 1_200]]);
  });

  it('cancels the subscription after the last retry when the entity says so', async () => {
    await setEntity({ dunning_final_action: 'cancel_subscription', dunning_retry_schedule: [{ period: 'hours', count: 1 }] });
    const customer = await customerWith('tok_insufficientFunds');
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: clock.now().toISOString(), products: [{ ...fee, quantity: 1 }] });
    await run();
    await run();
    const [issued] = await invoicesOf(customer.id);
    expect(issued!.dunning).toMatchObject({ status: 'active', attempt: 1, last_error_type: 'declined' });
    moveTo(issued!.dunning!.next_attempt_at!);
    await Promise.all([run(), run()]);
    expect(await invoice(issued!.id)).toMatchObject({ status: 'error', dunning: { status: 'exhausted', attempt: 2, final_action: 'cancel_subscription', final_action_status: 'done' } });
    expect((await client.get(`/v2/subscriptions/${sub.id}`)).body.status).toBe('cancelled');
    expect((await run()).due).toBe(0);
    await setEntity({ dunning_final_action: 'none', dunning_retry_schedule: [{ period: 'hours', count: 2 }, { period: 'hours', count: 12 }, { period: 'hours', count: 24 }, { period: 'days', count: 3 }, { period: 'days', count: 7 }] });
  });
});

describe('collection method changed after creation, or set per invoice', () => {
  /** The charges asked for one invoice (the collection's keys name it: `collect_<invoice>_…`). */
  const chargesOf = (spy: ReturnType<typeof spyCharges>, invoiceId: string) => keysOf(spy).filter((k) => k.includes(invoiceId));
  const subscriptionOf = async (id: string) => (await client.get(`/v2/subscriptions/${id}`)).body;
  const newest = async (customerId: string, known: string[]) => (await invoicesOf(customerId)).filter((i) => !known.includes(i.id));

  it("issues a subscription's renewals with the method set by PATCH since, manual then automatic again", async () => {
    const customer = await customerWith('tok_visa');
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: clock.now().toISOString(), products: [{ ...fee, quantity: 1 }] });
    await run();
    await run();
    const [first] = await invoicesOf(customer.id);
    expect(first).toMatchObject({ collection_method: 'automatic', status: 'paid' });
    const charges = spyCharges();

    const manual = await client.patch(`/v2/subscriptions/${sub.id}`, { collection_method: 'manual' });
    expect(manual.status).toBe(200);
    expect(manual.body).toMatchObject({ collection_method: 'manual', products: [{ ...fee, quantity: 1 }], scheduled_change: null });
    expect((await newest(customer.id, [first!.id]))).toEqual([]); // a setting: no proration invoice
    moveTo(manual.body.next_billing_at);
    await run();
    await run();
    const [renewal] = await newest(customer.id, [first!.id]);
    expect(renewal).toMatchObject({ subscription_id: sub.id, collection_method: 'manual', status: 'to_pay', dunning: null });
    expect(chargesOf(charges, renewal!.id)).toEqual([]);

    const automatic = await client.patch(`/v2/subscriptions/${sub.id}`, { collection_method: 'automatic' });
    expect(automatic.body.collection_method).toBe('automatic');
    moveTo(automatic.body.next_billing_at);
    await run();
    await run();
    const [next] = await newest(customer.id, [first!.id, renewal!.id]);
    expect(next).toMatchObject({ collection_method: 'automatic', status: 'paid', dunning: { status: 'succeeded', attempt: 1 } });
    expect(chargesOf(charges, next!.id)).toHaveLength(1);
    // The manual renewal stays the merchant's to collect: switching back does not turn it automatic.
    expect(await invoice(renewal!.id)).toMatchObject({ collection_method: 'manual', status: 'to_pay', dunning: null });
    // null inherits again (the customer's card: automatic).
    expect((await client.patch(`/v2/subscriptions/${sub.id}`, { collection_method: null })).body.collection_method).toBeNull();
    const updates = (await eventsOf(sub.id)).filter((e) => e.event_type === 'subscription.updated');
    expect(updates).toHaveLength(3);
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });

  it('keeps both of two changes made at once: the products and the collection method', async () => {
    const customer = await customerWith('tok_visa');
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: clock.now().toISOString(), products: [{ ...fee, quantity: 1 }] });
    await run();
    const replies = await Promise.all([
      client.patch(`/v2/subscriptions/${sub.id}`, { products: [{ ...fee, quantity: 2 }], proration_behavior: 'none' }),
      client.patch(`/v2/subscriptions/${sub.id}`, { collection_method: 'manual' }),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    // Each write is conditioned on the version it read: the one that lost re-read and applied on top of the other.
    expect(await subscriptionOf(sub.id)).toMatchObject({ collection_method: 'manual', products: [{ ...fee, quantity: 2 }] });
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });

  it('a switch whose answer is lost after the commit: the retry with the same Idempotency-Key replays it, changed once', async () => {
    const customer = await customerWith('tok_visa');
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: clock.now().toISOString(), products: [{ ...fee, quantity: 1 }] });
    await run();
    const send = () =>
      api.raw('PATCH', `/v2/subscriptions/${sub.id}`, {
        headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json', 'idempotency-key': `switch-${sub.id}` },
        body: JSON.stringify({ collection_method: 'manual' }),
      });
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    setAfterSendHook((name) => {
      if (name !== 'TransactWriteItemsCommand' || !currentEffectClaim()) return;
      setAfterSendHook(undefined);
      throw new Error('connection reset after the commit');
    });
    expect((await send()).status).toBe(500);
    expect((await subscriptionOf(sub.id)).collection_method).toBe('manual');
    clock.advance(LOCK_TIMEOUT_MS + 1_000);
    const retry = await send();
    expect([retry.status, retry.headers.get('idempotent-replayed'), retry.body.collection_method]).toEqual([200, 'true', 'manual']);
    expect((await eventsOf(sub.id)).filter((e) => e.event_type === 'subscription.updated')).toHaveLength(1);
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });

  it("puts an invoice's own method first: manual is not collected, automatic is, over the customer's choice", async () => {
    const withCard = await customerWith('tok_visa');
    const optedOut = await customerWith('tok_visa', { collection_method: 'manual' });
    const charges = spyCharges();
    const manual = await payable(withCard.id, { collection_method: 'manual' });
    expect(manual).toMatchObject({ collection_method: 'manual', dunning: null });
    const automatic = await payable(optedOut.id, { collection_method: 'automatic' });
    expect(automatic).toMatchObject({ collection_method: 'automatic', dunning: { status: 'active', attempt: 0 } });
    await run();
    expect(await invoice(manual.id)).toMatchObject({ status: 'to_pay', collection_method: 'manual', dunning: null, transactions: [] });
    expect(chargesOf(charges, manual.id)).toEqual([]);
    expect(await invoice(automatic.id)).toMatchObject({ status: 'paid', dunning: { status: 'succeeded', attempt: 1 } });
    expect(chargesOf(charges, automatic.id)).toHaveLength(1);
  });

  it('keeps a draft\'s own method through validation and its grace period, and PATCH changes it before', async () => {
    const customer = await customerWith('tok_visa');
    const draft = (await client.post('/v1/invoices', { customer_id: customer.id, collection_method: 'manual', line_items: [{ name: 'Draft', unit_amount: 1_000 }] })).body;
    expect(draft).toMatchObject({ status: 'draft', collection_method: 'manual', dunning: null });
    expect((await client.patch(`/v1/invoices/${draft.id}`, { collection_method: null })).body.collection_method).toBeNull();
    expect((await client.patch(`/v1/invoices/${draft.id}`, { collection_method: 'manual' })).body.collection_method).toBe('manual');
    await setEntity({ invoice_grace_period_duration: 1 });
    expect((await client.post(`/v1/invoices/${draft.id}/validate`)).body).toMatchObject({ status: 'grace_period', collection_method: 'manual', dunning: null });
    await setEntity({ invoice_grace_period_duration: 0 });
    clock.advance(24 * HOUR + 60_000);
    await run();
    await run();
    expect(await invoice(draft.id)).toMatchObject({ status: 'to_pay', collection_method: 'manual', dunning: null, transactions: [] });
    // Payable: the method is decided, no longer the invoice's to change.
    const late = await client.patch(`/v1/invoices/${draft.id}`, { collection_method: 'automatic' });
    expect([late.status, late.body.code]).toEqual([409, 'invoice_not_editable']);
    expect((await invoice(draft.id)).collection_method).toBe('manual');
  });

  it('keeps an automatic invoice of a customer without a payment method, as for customers: its attempt fails until a card is saved', async () => {
    const customer = await customerWith(null);
    const issued = await payable(customer.id, { collection_method: 'automatic' });
    expect(issued).toMatchObject({ collection_method: 'automatic', dunning: { status: 'active' } });
    await run();
    expect(await invoice(issued.id)).toMatchObject({ status: 'to_pay', dunning: { status: 'active', attempt: 1, last_error_type: 'payment_method_missing' }, transactions: [] });
    // A card saved since re-arms it, as for a customer's or a subscription's automatic invoice.
    expect((await client.post(`/v1/customers/${customer.id}/payment-methods`, { token: 'tok_visa' })).status).toBe(201);
    await run();
    expect(await invoice(issued.id)).toMatchObject({ status: 'paid', dunning: { status: 'succeeded', attempt: 1 } });
  });

  it('rejects an unknown method, a method on a document, and a PATCH that changes nothing, changing nothing', async () => {
    const customer = await customerWith('tok_visa');
    const sub = await subscribe(client, { customer_id: customer.id, starts_at: clock.now().toISOString(), products: [{ ...fee, quantity: 1 }], collection_method: 'manual' });
    const before = await subscriptionOf(sub.id);
    for (const body of [{ collection_method: 'send_invoice' }, { collection_method: 'charge_automatically', products: [{ ...fee, quantity: 3 }] }, {}, { effective: 'next_period' }, { proration_behavior: 'none', collection_method: 'automatic' }]) {
      const reply = await client.patch(`/v2/subscriptions/${sub.id}`, body);
      expect([JSON.stringify(body), reply.status]).toEqual([JSON.stringify(body), 400]);
    }
    expect(await subscriptionOf(sub.id)).toEqual(before);

    const line = { line_items: [{ name: 'Service', unit_amount: 1_000 }] };
    expect((await client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', collection_method: 'charge_automatically', ...line })).status).toBe(400);
    const onDocument = await client.post('/v1/invoices', { customer_id: customer.id, type: 'document', collection_method: 'manual', ...line });
    expect([onDocument.status, onDocument.body.errors]).toEqual([400, [{ path: 'body.collection_method', message: 'is not allowed on a document' }]]);
    expect(await invoicesOf(customer.id)).toEqual([]);
    const draft = (await client.post('/v1/invoices', { customer_id: customer.id, collection_method: 'automatic', ...line })).body;
    expect((await client.patch(`/v1/invoices/${draft.id}`, { collection_method: 'send_invoice' })).status).toBe(400);
    const document = (await client.post('/v1/invoices', { customer_id: customer.id, type: 'document', ...line })).body;
    expect((await client.patch(`/v1/invoices/${document.id}`, { collection_method: 'automatic' })).status).toBe(400);
    expect((await invoice(draft.id)).collection_method).toBe('automatic');
    expect((await invoice(document.id)).collection_method).toBeNull();
    await client.post(`/v1/subscriptions/${sub.id}/cancel`, { mode: 'immediately' });
  });
});
