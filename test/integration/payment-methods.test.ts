import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx } from '../../shared/context';
import { db, tableName } from '../../shared/db/client';
import { paymentMethodKey, type PaymentMethodItem } from '../../shared/domain/payment-methods/payment-method';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
let client: Client;
beforeAll(async () => {
  api = await startTestApi({ events: true });
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

type Method = { id: string; is_default: boolean; deleted_at: string | null; card: { last4: string } };

const customer = async (body: Record<string, unknown> = { currency: 'EUR' }, c = client) => (await c.post('/v1/customers', { name: 'Card holder', ...body })).body;
const methods = (customerId: string) => `/v1/customers/${customerId}/payment-methods`;
const save = (customerId: string, body: Record<string, unknown> = { token: 'tok_visa' }, c = client) => c.post(methods(customerId), body);
const saved = async (customerId: string, body: Record<string, unknown> = { token: 'tok_visa' }): Promise<Method> => {
  const reply = await save(customerId, body);
  expect([reply.status, reply.body.code]).toEqual([201, undefined]);
  return reply.body;
};
const list = async (customerId: string, query = 'take=100') => (await client.get(`${methods(customerId)}?${query}`)).body;
const ids = (page: { data: Method[] }) => page.data.map((m) => m.id);
/** The stored item, as the invoice charge will read it (internal members included). */
const stored = async (id: string, c = client) =>
  (await db.send(new GetCommand({ TableName: tableName(), Key: paymentMethodKey(makeCtx(c.workspace, 'test'), id), ConsistentRead: true }))).Item as PaymentMethodItem;

describe('payment methods', () => {
  it('saves sandbox cards, reads, lists newest first and soft-deletes them; the token stays internal', async () => {
    const owner = await customer();
    const first = await save(owner.id, { token: 'tok_visa', type: 'card', provider: 'sandbox' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.stringMatching(/^pm_[0-9A-Z]{26}$/), customer_id: owner.id, type: 'card', provider: 'sandbox',
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: expect.any(Number) }, sepa_debit: null, is_default: true,
      status: 'active', last_4_digits: 4242, expiration_date: expect.stringMatching(/^\d{4}-12$/), brand: 'visa',
      created_at: expect.any(String), updated_at: first.body.created_at, deleted_at: null,
    });
    expect(JSON.stringify(first.body)).not.toMatch(/tok_|sbx_/);
    expect((await stored(first.body.id)).provider_reference).toMatch(/^sbx_visa_/);
    expect((await client.get(`${methods(owner.id)}/${first.body.id}`)).body).toEqual(first.body);

    const second = await saved(owner.id, { token: 'tok_chargeDeclined' });
    const third = await saved(owner.id, { token: 'tok_insufficientFunds' });
    expect([second.card.last4, second.is_default, third.card.last4, third.is_default]).toEqual(['0002', false, '9995', false]);

    const all = await list(owner.id);
    expect(all.meta).toEqual({ total: 3, taken: 3, skipped: 0, approximateCount: false });
    expect(ids(all)).toEqual([third.id, second.id, first.body.id]);
    expect(all.data[2]).toEqual(first.body);
    expect(await list(owner.id, 'take=1&skip=1')).toMatchObject({ meta: { total: 3, taken: 1, skipped: 1 }, data: [{ id: second.id }] });
    expect(await list(owner.id, 'take=0')).toEqual({ meta: { total: 3, taken: 0, skipped: 0, approximateCount: false }, data: [] });
    expect((await client.get(`${methods(owner.id)}?take=101`)).status).toBe(400);
    expect((await client.get(`${methods(owner.id)}?type=card`)).status).toBe(400);

    const deleted = await client.delete(`${methods(owner.id)}/${second.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: second.id, is_default: false, deleted_at: expect.any(String) });
    expect(deleted.body.updated_at).toBe(deleted.body.deleted_at);
    expect((await client.get(`${methods(owner.id)}/${second.id}`)).status).toBe(404);
    const again = await client.delete(`${methods(owner.id)}/${second.id}`);
    expect([again.status, again.body.code]).toEqual([404, 'not_found']);
    const after = await list(owner.id);
    expect(after.meta.total).toBe(2);
    expect(ids(after)).toEqual([third.id, first.body.id]);
    expect((await client.get(`/v1/customers/${owner.id}`)).body).toMatchObject({ current_payment_method_id: first.body.id, current_payment_method_type: 'card', current_payment_method: { id: first.body.id, type: 'card' } });
  });

  it('makes the first method the default, set_as_default a new one, and a deleted default leaves none', async () => {
    const owner = await customer();
    const a = await saved(owner.id);
    const b = await saved(owner.id, { token: 'tok_visa', set_as_default: true });
    expect([a.is_default, b.is_default]).toEqual([true, true]);
    expect((await client.get(`${methods(owner.id)}/${a.id}`)).body.is_default).toBe(false);
    expect((await saved(owner.id, { token: 'tok_visa', set_as_default: false })).is_default).toBe(false);
    expect((await list(owner.id)).data.filter((m: Method) => m.is_default).map((m: Method) => m.id)).toEqual([b.id]);
    expect((await client.get(`/v1/customers/${owner.id}`)).body.current_payment_method_id).toBe(b.id);

    expect((await client.delete(`${methods(owner.id)}/${b.id}`)).body.is_default).toBe(false);
    expect((await client.get(`/v1/customers/${owner.id}`)).body).toMatchObject({ current_payment_method_id: null, current_payment_method_type: null });
    expect((await list(owner.id)).data.some((m: Method) => m.is_default)).toBe(false);
    const d = await saved(owner.id);
    expect(d.is_default).toBe(true);

    // The customer's own update names its default among its saved methods, never a deleted one or another's.
    const chosen = await client.put(`/v1/customers/${owner.id}`, { payment_method_id: a.id, payment_method_type: 'card' });
    expect(chosen.status).toBe(200);
    expect(chosen.body.current_payment_method_id).toBe(a.id);
    expect((await client.get(`${methods(owner.id)}/${a.id}`)).body.is_default).toBe(true);
    expect((await client.get(`${methods(owner.id)}/${d.id}`)).body.is_default).toBe(false);
    const deletedOne = await client.put(`/v1/customers/${owner.id}`, { payment_method_id: b.id });
    expect([deletedOne.status, deletedOne.body.code]).toEqual([422, 'payment_method_not_found']);
    const stranger = await customer();
    const theirs = await saved(stranger.id);
    const another = await client.put(`/v1/customers/${owner.id}`, { payment_method_id: theirs.id });
    expect([another.status, another.body.code]).toEqual([422, 'payment_method_not_found']);
    expect((await client.get(`/v1/customers/${owner.id}`)).body.current_payment_method_id).toBe(a.id);

    // Deleting the default the customer chose by update clears it too; the type is cleared only when it is `card`.
    await client.put(`/v1/customers/${owner.id}`, { payment_method_type: 'transfer' });
    await client.delete(`${methods(owner.id)}/${a.id}`);
    expect((await client.get(`/v1/customers/${owner.id}`)).body).toMatchObject({ current_payment_method_id: null, current_payment_method_type: 'transfer' });
  });

  it("locks the customer's currency, and the lock outlives the method", async () => {
    const owner = await customer({ currency: 'USD' });
    const method = await saved(owner.id);
    expect((await stored(method.id)).currency).toBe('USD');
    const locked = await client.put(`/v1/customers/${owner.id}`, { currency: 'EUR' });
    expect([locked.status, locked.body.code]).toEqual([422, 'currency_locked']);
    expect(locked.body.message).toContain('payment method');
    await client.delete(`${methods(owner.id)}/${method.id}`);
    expect((await client.put(`/v1/customers/${owner.id}`, { currency: null })).body.code).toBe('currency_locked');
    expect((await client.put(`/v1/customers/${owner.id}`, { currency: 'USD', name: 'Same currency' })).status).toBe(200);
  });

  it('needs a currency and a token the provider knows; a refusal writes nothing', async () => {
    const noCurrency = await customer({});
    const missing = await save(noCurrency.id);
    expect([missing.status, missing.body.code]).toEqual([422, 'customer_currency_missing']);

    const owner = await customer();
    for (const token of ['tok_unknown', 'tok_mastercard', '4242424242424242', 'toString', '__proto__']) {
      const reply = await save(owner.id, { token });
      expect([token, reply.status, reply.body.code]).toEqual([token, 422, 'payment_method_invalid']);
    }
    expect((await list(owner.id)).meta.total).toBe(0);
    expect((await client.put(`/v1/customers/${owner.id}`, { currency: 'GBP' })).status).toBe(200); // not locked
    expect((await client.put(`/v1/customers/${noCurrency.id}`, { currency: 'GBP' })).status).toBe(200);

    for (const body of [{}, { token: '' }, { token: 'tok_visa', type: 'sepa_debit' }, { token: 'tok_visa', provider: 'paypal' }, { token: 'tok_visa', provider_reference: 'x' }, { token: 'tok_visa', set_as_default: 'yes' }]) {
      expect([body, (await save(owner.id, body)).status]).toEqual([body, 400]);
    }
  });

  it('answers 404 for an unknown or deleted customer and for a method of another customer', async () => {
    expect((await save('cus_unknown')).status).toBe(404);
    expect((await client.get(methods('cus_unknown'))).status).toBe(404);
    const owner = await customer();
    const method = await saved(owner.id);
    const other = await customer();
    for (const reply of [await client.get(`${methods(other.id)}/${method.id}`), await client.delete(`${methods(other.id)}/${method.id}`), await client.get(`${methods(owner.id)}/pm_unknown`)]) {
      expect([reply.status, reply.body.code]).toEqual([404, 'not_found']);
    }
    expect((await client.get(`${methods(owner.id)}/${method.id}`)).body.deleted_at).toBeNull();
    expect((await list(other.id)).meta.total).toBe(0);

    await client.delete(`/v1/customers/${owner.id}`);
    for (const reply of [await save(owner.id), await client.get(methods(owner.id)), await client.get(`${methods(owner.id)}/${method.id}`), await client.delete(`${methods(owner.id)}/${method.id}`)]) {
      expect(reply.status).toBe(404);
    }
  });

  it('emits payment_method.created and payment_method.deleted with the public method as data', async () => {
    const watched = await api.client();
    await withEntity(watched);
    const owner = await customer({ currency: 'EUR' }, watched);
    const first = (await save(owner.id, { token: 'tok_visa' }, watched)).body;
    const second = (await save(owner.id, { token: 'tok_chargeDeclined' }, watched)).body;
    await watched.delete(`${methods(owner.id)}/${first.id}`);
    await api.events.settle();
    const messages = (await watched.get('/v1/webhooks/messages?event_types=payment_method.created&event_types=payment_method.deleted')).body.data as Array<{
      payload: { event_type: string; data: Method & Record<string, unknown> };
    }>;
    const events = messages.map((m) => [m.payload.event_type, m.payload.data.id, m.payload.data.is_default]).sort();
    expect(events).toEqual([
      ['payment_method.created', first.id, true], ['payment_method.created', second.id, false], ['payment_method.deleted', first.id, false],
    ].sort());
    const created = messages.find((m) => m.payload.event_type === 'payment_method.created' && m.payload.data.id === second.id)!.payload.data;
    expect(created).toEqual(second);
    const deleted = messages.find((m) => m.payload.event_type === 'payment_method.deleted')!.payload.data;
    expect(deleted.deleted_at).toEqual(expect.any(String));
    expect(JSON.stringify(messages)).not.toMatch(/sbx_|provider_reference|created_as_default/);
    // Saving the first method (the default) and deleting it changed the customer: customer.updated, twice.
    const customerUpdates = (await watched.get('/v1/webhooks/messages?event_types=customer.updated')).body.data;
    expect(customerUpdates.map((m: { payload: { data: { current_payment_method_id: string | null } } }) => m.payload.data.current_payment_method_id).sort()).toEqual([first.id, null].sort());
  });
});

describe('payment methods under concurrency', () => {
  it('never lets a currency removal and a payment method create both succeed', async () => {
    for (let round = 0; round < 6; round++) {
      const owner = await customer();
      const [change, create] = await Promise.all([client.put(`/v1/customers/${owner.id}`, { currency: null }), save(owner.id)]);
      const changed = change.status === 200;
      const created = create.status === 201;
      expect(changed && created).toBe(false);
      expect(changed || created).toBe(true);
      if (!changed) expect(change.body.code).toBe('currency_locked');
      if (!created) expect(create.body.code).toBe('customer_currency_missing');
      const final = (await client.get(`/v1/customers/${owner.id}`)).body;
      expect(final.currency).toBe(changed ? null : 'EUR');
      expect((await list(owner.id)).meta.total).toBe(created ? 1 : 0);
    }
  });

  it('never lets a currency change slip past a lock: a method always locks the currency the customer keeps', async () => {
    for (let round = 0; round < 6; round++) {
      const owner = await customer();
      const [change, create] = await Promise.all([client.put(`/v1/customers/${owner.id}`, { currency: 'USD' }), save(owner.id)]);
      expect(create.status).toBe(201);
      const final = (await client.get(`/v1/customers/${owner.id}`)).body;
      // Either the lock came first (the change is refused) or the change did (the method locked the new currency).
      expect(final.currency).toBe(change.status === 200 ? 'USD' : 'EUR');
      if (change.status !== 200) expect(change.body.code).toBe('currency_locked');
      expect((await stored(create.body.id)).currency).toBe(final.currency);
      expect((await client.put(`/v1/customers/${owner.id}`, { currency: 'GBP' })).body.code).toBe('currency_locked');
    }
  });

  it('gives a customer exactly one default under concurrent first saves, and counts every save and delete once', async () => {
    const owner = await customer();
    const replies = await Promise.all(Array.from({ length: 8 }, () => save(owner.id)));
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(replies.filter((r) => r.body.is_default)).toHaveLength(1);
    const page = await list(owner.id);
    expect(page.meta.total).toBe(8);
    const defaults = page.data.filter((m: Method) => m.is_default).map((m: Method) => m.id);
    expect(defaults).toEqual([replies.find((r) => r.body.is_default)!.body.id]);
    expect((await client.get(`/v1/customers/${owner.id}`)).body.current_payment_method_id).toBe(defaults[0]);

    const victim = page.data.find((m: Method) => !m.is_default)!.id;
    const deletes = await Promise.all([client.delete(`${methods(owner.id)}/${victim}`), client.delete(`${methods(owner.id)}/${victim}`)]);
    expect(deletes.map((r) => r.status).sort()).toEqual([200, 404]);
    expect((await list(owner.id)).meta.total).toBe(7);
  });

  it('never leaves the customer naming a deleted method when a delete races the choice of that default', async () => {
    for (let round = 0; round < 4; round++) {
      const owner = await customer();
      await saved(owner.id);
      const other = await saved(owner.id);
      const [choose, remove] = await Promise.all([
        client.put(`/v1/customers/${owner.id}`, { payment_method_id: other.id }),
        client.delete(`${methods(owner.id)}/${other.id}`),
      ]);
      expect(remove.status).toBe(200);
      expect([200, 422]).toContain(choose.status);
      expect((await client.get(`/v1/customers/${owner.id}`)).body.current_payment_method_id).not.toBe(other.id);
    }
  });
});
