/**
 * Money effects exactly once under `Idempotency-Key` (docs/idempotency.md): for every route that moves money or
 * numbers, the DynamoDB client commits the effect's transaction and then throws (the answer is lost, as when the
 * Lambda dies right after the commit). A retry with the same key, after the lock timeout, replays the result and the
 * effect stays applied once. Through the real local server against DynamoDB Local.
 */
import { jest } from '@jest/globals';
import { makeCtx } from '../../shared/context';
import { setAfterSendHook, tableName } from '../../shared/db/client';
import { withEffectClaim, type EffectClaim } from '../../shared/db/effect-claim';
import { getItem } from '../../shared/db/items';
import { transactWrite } from '../../shared/db/transactions';
import { claimKey, idempotencyKey, LOCK_TIMEOUT_MS, type IdempotencyItem } from '../../shared/http/idempotency';
import { newWorkspace, startTestApi, withEntity, type Client, type Reply, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';

let api: TestApi;
let client: Client;
const clock = movableClock();

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
afterAll(async () => {
  setAfterSendHook(undefined);
  await api.close();
  clock.restore();
});
afterEach(() => {
  clock.setOffset(0);
  setAfterSendHook(undefined);
});

function send(method: string, path: string, body: unknown, key: string): Promise<Reply> {
  return api.raw(method, path, {
    headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body ?? {}),
  });
}

/** The next committed transaction's answer is lost: it is written, then the client throws. */
function loseNextCommitAnswer(): void {
  setAfterSendHook((name) => {
    if (name !== 'TransactWriteItemsCommand') return;
    setAfterSendHook(undefined);
    throw new Error('connection reset after the commit');
  });
}

const customer = async () => (await client.post('/v1/customers', { name: 'Payer', currency: 'EUR', billing_address: { country: 'FR' } })).body;
const toPay = async (customerId: string, amount = 10_000) =>
  (await client.post('/v1/invoices', { customer_id: customerId, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: amount }] })).body;
const loadedWallet = async (amount = 5_000) => {
  const payer = await customer();
  const wallet = (await client.post('/v1/wallets', { customer_id: payer.id })).body;
  await client.post(`/v1/wallets/${wallet.id}/load`, { type: 'free', amount });
  return { payer, wallet };
};
const walletTransactions = async (walletId: string) => (await client.get(`/v1/wallets/${walletId}/transactions`)).body.meta.total as number;
const invoice = async (id: string) => (await client.get(`/v1/invoices/${id}`)).body;
const invoiceCount = async (customerId: string) => (await client.get(`/v1/invoices?customer_id=${customerId}`)).body.meta.total as number;
async function creditBase() {
  const product = (await client.post('/v1/products', { name: 'API credits', type: 'credit' })).body;
  const base = `/v1/customers/${(await customer()).id}/credits/${product.id}`;
  await client.post(`${base}/topup`, { credit_count: 100 });
  return base;
}
const creditBalance = async (base: string) => (await client.get(base)).body.current_balance as number;

interface Case {
  route: string;
  /** Prepares the resources; answers the request to send and a measure of its effect. */
  setup(): Promise<{ method?: string; path: string; body?: unknown; effect(): Promise<unknown> }>;
  /** The effect measured before and after the request (applied once). */
  before: unknown;
  after: unknown;
  /** What the replayed answer must show. */
  answer: Record<string, unknown>;
}

const cases: Case[] = [
  {
    route: 'loadWallet',
    setup: async () => {
      const { wallet } = await loadedWallet();
      return { path: `/v1/wallets/${wallet.id}/load`, body: { type: 'free', amount: 700 }, effect: () => walletTransactions(wallet.id) };
    },
    before: 1, after: 2, answer: { balance: { amount: 5_700 } },
  },
  {
    route: 'loadWallet (paid: its invoice)',
    setup: async () => {
      const { payer, wallet } = await loadedWallet();
      return { path: `/v1/wallets/${wallet.id}/load`, body: { type: 'paid', amount: 700 }, effect: () => invoiceCount(payer.id) };
    },
    before: 0, after: 1, answer: { balance: { amount: 5_000 } },
  },
  {
    route: 'revertWalletTransaction',
    setup: async () => {
      const { wallet } = await loadedWallet();
      const load = (await client.get(`/v1/wallets/${wallet.id}/transactions`)).body.data[0];
      return { path: `/v1/wallets/${wallet.id}/transactions/${load.id}/revert`, effect: () => walletTransactions(wallet.id) };
    },
    before: 1, after: 2, answer: { type: 'debit', amount: 5_000, balance_after: 0 },
  },
  {
    route: 'topupCustomerCredits',
    setup: async () => {
      const base = await creditBase();
      return { path: `${base}/topup`, body: { credit_count: 40 }, effect: () => creditBalance(base) };
    },
    before: 100, after: 140, answer: { type: 'topup', credit_count: 40, balance_after: 140 },
  },
  {
    route: 'createCustomerCreditsUsage',
    setup: async () => {
      const base = await creditBase();
      return { path: `${base}/usage`, body: { usage_retained: 30 }, effect: () => creditBalance(base) };
    },
    before: 100, after: 70, answer: { type: 'usage', credit_count: 30, balance_after: 70 },
  },
  {
    route: 'createInvoiceTransaction',
    setup: async () => {
      const due = await toPay((await customer()).id);
      return { path: `/v1/invoices/${due.id}/transactions`, body: { amount: 2_000 }, effect: async () => (await invoice(due.id)).amount_paid };
    },
    before: 0, after: 2_000, answer: { status: 'partially_paid', amount_paid: 2_000 },
  },
  {
    route: 'createInvoiceTransaction (from the wallet)',
    setup: async () => {
      const { payer, wallet } = await loadedWallet();
      const due = await toPay(payer.id);
      return { path: `/v1/invoices/${due.id}/transactions`, body: { amount: 2_000, payment_method_type: 'wallet' }, effect: () => walletTransactions(wallet.id) };
    },
    before: 1, after: 2, answer: { amount_paid: 2_000 },
  },
  {
    route: 'chargeInvoice',
    setup: async () => {
      const payer = await customer();
      await client.post(`/v1/customers/${payer.id}/payment-methods`, { token: 'tok_visa' });
      const due = await toPay(payer.id);
      return { path: `/v1/invoices/${due.id}/charge`, effect: async () => (await invoice(due.id)).transactions.length };
    },
    before: 0, after: 1, answer: { status: 'paid', amount_paid: 12_000 },
  },
  {
    route: 'createCreditNote',
    setup: async () => {
      const payer = await customer();
      const due = await toPay(payer.id);
      return { path: `/v1/invoices/${due.id}/credit-notes`, body: { amount: 1_200 }, effect: () => invoiceCount(payer.id) };
    },
    before: 1, after: 2, answer: { type: 'credit_note', total_amount: 1_200 },
  },
  {
    route: 'validateInvoice',
    setup: async () => {
      const payer = await customer();
      const draft = (await client.post('/v1/invoices', { customer_id: payer.id, line_items: [{ name: 'A', unit_amount: 100 }] })).body;
      return { path: `/v1/invoices/${draft.id}/validate`, effect: async () => (await invoice(draft.id)).status };
    },
    before: 'draft', after: 'to_pay', answer: { status: 'to_pay', number: expect.any(String) },
  },
  {
    route: 'voidInvoice',
    setup: async () => {
      const payer = await customer();
      const due = await toPay(payer.id);
      return { path: `/v1/invoices/${due.id}/void`, effect: () => invoiceCount(payer.id) };
    },
    before: 1, after: 2, answer: { status: 'voided' },
  },
  {
    route: 'markInvoiceUncollectible',
    setup: async () => {
      const due = await toPay((await customer()).id);
      return { path: `/v1/invoices/${due.id}/uncollectible`, effect: async () => (await invoice(due.id)).status };
    },
    before: 'to_pay', after: 'uncollectible', answer: { status: 'uncollectible' },
  },
  {
    route: 'signQuote',
    setup: async () => {
      const payer = await customer();
      const product = (await client.post('/v1/products', { name: 'Setup', type: 'flat_fee' })).body;
      const price = (await client.post('/v1/price-configurations', { product_id: product.id, currency: 'EUR', type: 'fee', prices: [{ amount: 5_000 }] })).body;
      const quote = (await client.post('/v1/quotes', { customer_id: payer.id, type: 'one_off', line_items: [{ product_id: product.id, price_configuration_id: price.id }] })).body;
      return { path: `/v1/quotes/${quote.id}/sign`, effect: () => invoiceCount(payer.id) };
    },
    before: 0, after: 1, answer: { status: 'signed', invoice_id: expect.stringMatching(/^inv_/) },
  },
];

describe('a crash between the commit and the answer', () => {
  it.each(cases)('$route: the retry replays the result and the effect is applied once', async ({ setup, before, after, answer }) => {
    const request = await setup();
    expect(await request.effect()).toEqual(before);
    const key = `crash-${Math.random()}`;
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);

    loseNextCommitAnswer();
    const lost = await send(request.method ?? 'POST', request.path, request.body, key);
    expect(lost.status).toBe(500);
    expect(await request.effect()).toEqual(after);

    clock.setOffset(LOCK_TIMEOUT_MS + 1_000); // the retry comes after the claim would have been abandoned
    const retry = await send(request.method ?? 'POST', request.path, request.body, key);
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([expect.any(Number), 'true']);
    expect(retry.status).toBeLessThan(300);
    expect(retry.body).toMatchObject(answer);
    expect(await request.effect()).toEqual(after);

    // Later retries get the same bytes.
    const again = await send(request.method ?? 'POST', request.path, request.body, key);
    expect([again.headers.get('idempotent-replayed'), again.body]).toEqual(['true', retry.body]);
    expect(await request.effect()).toEqual(after);
    logged.mockRestore();
  }, 120_000); // a dozen requests each: room for a loaded machine
});

describe('a charge that dies after locking its invoice', () => {
  it('is redone by the retry with the same provider key, taking its own lock over at once: paid once', async () => {
    const payer = await customer();
    await client.post(`/v1/customers/${payer.id}/payment-methods`, { token: 'tok_visa' });
    const due = await toPay(payer.id);
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    // 1st PutItem: the key's claim; 10 s later the 2nd, the invoice's charge lock, commits and the process dies.
    let puts = 0;
    setAfterSendHook((name) => {
      if (name !== 'PutItemCommand') return;
      puts += 1;
      if (puts === 1) clock.setOffset(10_000);
      if (puts === 2) throw new Error('killed after the lock');
    });
    expect((await send('POST', `/v1/invoices/${due.id}/charge`, {}, 'charge-1')).status).toBe(500);
    setAfterSendHook(undefined);
    expect((await invoice(due.id)).status).toBe('to_pay');

    // The key's claim is abandoned, the invoice's lock (10 s younger) is not: it is the same request's, taken over.
    clock.setOffset(LOCK_TIMEOUT_MS + 1_000);
    const retry = await send('POST', `/v1/invoices/${due.id}/charge`, {}, 'charge-1');
    expect([retry.status, retry.body.status, retry.body.transactions.length]).toEqual([200, 'paid', 1]);
    const again = await send('POST', `/v1/invoices/${due.id}/charge`, {}, 'charge-1');
    expect([again.headers.get('idempotent-replayed'), again.body]).toEqual(['true', retry.body]);
    expect((await invoice(due.id)).transactions).toHaveLength(1);
    logged.mockRestore();
  }, 120_000);
});

describe('the effect mark in the transaction', () => {
  const workspace = newWorkspace();
  const ctxOf = (requestId: string) => makeCtx(workspace, requestId);
  const thing = (id: string) => ({ pk: `WS#${workspace}#THING#${id}`, sk: 'THING', _type: 'thing', id });
  const create = (id: string) => [{ Put: { TableName: tableName(), Item: thing(id), ConditionExpression: 'attribute_not_exists(pk)' } }];
  const written = async (id: string) => (await getItem({ pk: thing(id).pk, sk: 'THING' }, true)) !== undefined;
  const record = (key: string) => getItem<IdempotencyItem>(idempotencyKey(ctxOf('any'), key), true);
  async function claim(key: string, requestId: string): Promise<EffectClaim> {
    const result = await claimKey(ctxOf(requestId), key, 'print', 'route');
    if (!('item' in result)) throw new Error('not claimed');
    return { pk: result.item.pk, sk: result.item.sk, request_id: requestId, committed: 0 };
  }

  it('lets a retry take over an abandoned claim only while nothing was committed, and then refuses the slow original', async () => {
    const slow = await claim('slow', 'req_slow');
    clock.setOffset(LOCK_TIMEOUT_MS + 1_000);
    const retry = await claim('slow', 'req_retry');
    await expect(withEffectClaim(slow, () => transactWrite(create('slow-1')))).rejects.toMatchObject({ status: 409, code: 'idempotency_key_in_progress' });
    expect(await written('slow-1')).toBe(false);
    await withEffectClaim(retry, () => transactWrite(create('slow-2')));
    expect(await record('slow')).toMatchObject({ status: 'committed', request_id: 'req_retry', effect_count: 1, created: [{ type: 'thing', sk: 'THING' }] });

    clock.setOffset(2 * (LOCK_TIMEOUT_MS + 1_000)); // abandoned again, but committed: never taken over
    expect(await claimKey(ctxOf('req_third'), 'slow', 'print', 'route')).toMatchObject({ claimed: false, committed: { request_id: 'req_retry' } });
  });

  it('never applies an effect twice inside one request when the answer of its commit was lost (503, nothing more written)', async () => {
    const mine = await claim('lost', 'req_lost');
    loseNextCommitAnswer();
    await expect(withEffectClaim(mine, () => transactWrite(create('lost-1')))).rejects.toThrow('connection reset');
    // The request retries its write (as retryOnRace would after a transient error): refused.
    await expect(withEffectClaim(mine, () => transactWrite(create('lost-2')))).rejects.toMatchObject({ status: 503 });
    expect([await written('lost-1'), await written('lost-2')]).toEqual([true, false]);
  });

  it('counts every transaction of a request made of several and names what each created', async () => {
    const mine = await claim('steps', 'req_steps');
    await withEffectClaim(mine, async () => {
      await transactWrite(create('step-1'));
      await transactWrite(create('step-2'));
    });
    const stored = await record('steps');
    expect([stored?.status, stored?.effect_count, stored?.created?.map((c) => c.pk)]).toEqual(['committed', 2, [thing('step-1').pk, thing('step-2').pk]]);
  });
});
