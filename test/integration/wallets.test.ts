import { jest } from '@jest/globals';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { db } from '../../shared/db/client';
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';

let api: TestApi;
let client: Client;
const clock = movableClock();

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
/** Scheduled work of this file's workspace only: other test files share the table. */
const mine = () => ({ workspaces: new Set([client.workspace]) });

afterAll(async () => {
  await api.close();
  clock.restore();
});

const customer = async (body: Record<string, unknown> = { currency: 'EUR' }) => (await client.post('/v1/customers', { name: 'W', ...body })).body;
const wallet = async (body: Record<string, unknown> = {}) => {
  const reply = await client.post('/v1/wallets', { customer_id: (await customer()).id, ...body });
  expect(reply.status).toBe(201);
  return reply.body;
};
const load = (id: string, amount: number, type = 'free') => client.post(`/v1/wallets/${id}/load`, { type, amount });
const transactions = async (id: string) => (await client.get(`/v1/wallets/${id}/transactions?take=100`)).body;

/** Oldest first: each entry's balance_after is the previous one's plus its own signed amount; the last is the balance. */
function expectChain(entries: { type: string; amount: number; balance_after: number }[], balance: number) {
  let running = 0;
  for (const entry of [...entries].reverse()) {
    running += entry.type === 'debit' ? -entry.amount : entry.amount;
    expect(entry.balance_after).toBe(running);
    expect(entry.balance_after).toBeGreaterThanOrEqual(0);
  }
  expect(running).toBe(balance);
}

describe('wallets', () => {
  it('creates one wallet per customer, in its currency, and locks that currency', async () => {
    const owner = await customer({ currency: 'USD' });
    const reply = await client.post('/v1/wallets', { customer_id: owner.id, low_projected_balance_threshold: 500 });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      id: expect.stringMatching(/^wal_/), customer_id: owner.id, state: 'active', currency: 'USD', balance: { amount: 0 },
      projected_balance: { amount: 0 }, low_projected_balance_threshold: 500, is_auto_load_enabled: false, auto_load_type: 'free',
      auto_load_amount: null, auto_load_reset: false, auto_load_interval: null, auto_load_next_date: null, auto_load_threshold: null,
    });
    expect((await client.get(`/v1/wallets/${reply.body.id}`)).body).toEqual(reply.body);
    const second = await client.post('/v1/wallets', { customer_id: owner.id });
    expect([second.status, second.body.code]).toEqual([422, 'wallet_exists']);
    const locked = await client.put(`/v1/customers/${owner.id}`, { currency: 'EUR' });
    expect([locked.status, locked.body.code]).toEqual([422, 'currency_locked']);
    const listed = (await client.get(`/v1/wallets?customer_id=${owner.id}`)).body;
    expect(listed.data.map((w: { id: string }) => w.id)).toEqual([reply.body.id]);
  });

  it('needs a customer with a currency', async () => {
    const noCurrency = await customer({});
    expect((await client.post('/v1/wallets', { customer_id: noCurrency.id })).body.code).toBe('customer_currency_missing');
    expect((await client.post('/v1/wallets', { customer_id: 'cus_nope' })).body.code).toBe('customer_not_found');
    expect((await client.post('/v1/wallets', {})).status).toBe(400);
  });

  it('loads free at once, records paid loads as pending, and lists transactions with balance_after', async () => {
    const w = await wallet();
    expect((await load(w.id, 1500)).body.balance).toEqual({ amount: 1500 });
    const paid = await load(w.id, 700, 'paid');
    expect(paid.status).toBe(200);
    expect(paid.body.balance).toEqual({ amount: 1500 });
    await load(w.id, 250);
    const list = await transactions(w.id);
    expect(list.meta).toEqual({ total: 2, taken: 2, skipped: 0, approximateCount: false });
    expect(list.data.map((t: { type: string; amount: number; balance_after: number }) => [t.type, t.amount, t.balance_after])).toEqual([
      ['credit_free', 250, 1750], ['credit_free', 1500, 1500],
    ]);
    expect(list.data[0]).toMatchObject({ id: expect.stringMatching(/^walt_/), wallet_id: w.id, currency: 'EUR', source: 'load' });
    for (const bad of [{ type: 'free', amount: 0 }, { type: 'gift', amount: 5 }, { type: 'free', amount: 1.5 }]) {
      expect((await client.post(`/v1/wallets/${w.id}/load`, bad)).status).toBe(400);
    }
    // Well-formed, but without an amount to load (either form may leave `amount` out: Hyperline's gives `amount_free`).
    expect(await client.post(`/v1/wallets/${w.id}/load`, { type: 'free' })).toMatchObject({ status: 422, body: { code: 'amount_required' } });
  });

  it('reverts a transaction once', async () => {
    const w = await wallet();
    await load(w.id, 1000);
    const [credit] = (await transactions(w.id)).data;
    await client.post(`/v1/wallets/${w.id}/transactions/${credit.id}/revert`);
    const list = await transactions(w.id);
    expect(list.data[0]).toMatchObject({ type: 'debit', amount: 1000, balance_after: 0, reverts_transaction_id: credit.id, source: 'revert' });
    expect(list.data[1].reverted_by_transaction_id).toBe(list.data[0].id);
    const again = await client.post(`/v1/wallets/${w.id}/transactions/${credit.id}/revert`);
    expect([again.status, again.body.code]).toEqual([409, 'transaction_already_reverted']);
    expect((await client.get(`/v1/wallets/${w.id}`)).body.balance.amount).toBe(0);
    expect((await client.post(`/v1/wallets/${w.id}/transactions/walt_unknown/revert`)).status).toBe(404);
  });

  it('keeps the balance equal to the ledger under 40 concurrent loads and reverts', async () => {
    const w = await wallet();
    for (let i = 0; i < 10; i++) await load(w.id, 100 + i);
    const credits = (await transactions(w.id)).data;
    const replies = await Promise.all([
      ...Array.from({ length: 30 }, (_, i) => load(w.id, 10 + i)),
      ...credits.map((t: { id: string }) => client.post(`/v1/wallets/${w.id}/transactions/${t.id}/revert`)),
    ]);
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const balance = (await client.get(`/v1/wallets/${w.id}`)).body.balance.amount;
    const ledger = await transactions(w.id);
    expect(ledger.meta.total).toBe(50);
    expectChain(ledger.data, balance);
    expect(balance).toBe(Array.from({ length: 30 }, (_, i) => 10 + i).reduce((a, b) => a + b, 0));
  });

  it('pauses and reactivates; validates auto-load settings', async () => {
    const w = await wallet();
    expect((await client.put(`/v1/wallets/${w.id}`, { state: 'paused' })).body.state).toBe('paused');
    expect((await load(w.id, 100)).status).toBe(200);
    const bad = await client.put(`/v1/wallets/${w.id}`, { is_auto_load_enabled: true });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('body.auto_load_amount');
  });
});

describe('auto-load (scheduled)', () => {
  it('loads on its date, moves the date by its interval, and a repeated run adds nothing', async () => {
    const start = clock.now();
    const due = new Date(start.getTime() + 24 * 3600_000).toISOString();
    const w = await wallet({ is_auto_load_enabled: true, auto_load_amount: 2000, auto_load_interval: { period: 'months', count: 1 }, auto_load_next_date: due });
    await runDueWork(clock.now(), mine());
    expect((await client.get(`/v1/wallets/${w.id}`)).body.balance.amount).toBe(0);
    clock.advance(25 * 3600_000);
    await Promise.all([runDueWork(clock.now(), mine()), runDueWork(clock.now(), mine())]);
    await runDueWork(clock.now(), mine());
    const after = (await client.get(`/v1/wallets/${w.id}`)).body;
    expect(after.balance.amount).toBe(2000);
    const next = new Date(due);
    next.setUTCMonth(next.getUTCMonth() + 1);
    expect(after.auto_load_next_date).toBe(next.toISOString());
    expect((await transactions(w.id)).data.map((t: { source: string }) => t.source)).toEqual(['auto_load']);
  });

  it('loads a wallet under its threshold, emptying it first with auto_load_reset', async () => {
    const w = await wallet({ is_auto_load_enabled: true, auto_load_amount: 1000, auto_load_threshold: 500, auto_load_reset: true });
    await runDueWork(clock.now(), mine());
    expect((await client.get(`/v1/wallets/${w.id}`)).body.balance.amount).toBe(1000);
    await runDueWork(clock.now(), mine());
    expect((await client.get(`/v1/wallets/${w.id}`)).body.balance.amount).toBe(1000);
    const [credit] = (await transactions(w.id)).data;
    await client.post(`/v1/wallets/${w.id}/transactions/${credit.id}/revert`);
    await load(w.id, 200);
    await runDueWork(clock.now(), mine());
    const ledger = await transactions(w.id);
    expect(ledger.data.slice(0, 2).map((t: { type: string; amount: number }) => [t.type, t.amount])).toEqual([['credit_free', 1000], ['debit', 200]]);
    expectChain(ledger.data, 1000);
  });
});

describe('fault injection', () => {
  it('a cancelled transaction writes nothing and answers a retryable 503', async () => {
    const w = await wallet();
    await load(w.id, 100);
    const realSend = db.send.bind(db);
    const cancel = jest.spyOn(db, 'send').mockImplementation(((command: { constructor: { name: string } }) => {
      if (command.constructor.name === 'TransactWriteCommand') {
        return Promise.reject(
          new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }] }),
        );
      }
      return realSend(command as never);
    }) as never);
    try {
      const reply = await load(w.id, 999);
      expect(reply.status).toBe(503);
      expect(reply.body).toMatchObject({ code: 'service_unavailable', request_id: expect.any(String) });
    } finally {
      cancel.mockRestore();
    }
    expect((await client.get(`/v1/wallets/${w.id}`)).body.balance.amount).toBe(100);
    expect((await transactions(w.id)).meta.total).toBe(1);
  });
});
