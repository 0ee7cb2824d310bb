/**
 * Credits: POST /v1/customers/{id}/credits/{productId}/topup beside two DynamoDB floors, (a) its TransactWriteItems
 * alone and (b) its whole sequence (the balance it reads, then that transaction), and the DynamoDB calls per
 * top-up. Imports the shared table client: import this module only once DYNAMODB_ENDPOINT and TABLE_NAME are set.
 */
import { deepStrictEqual } from 'node:assert/strict';
import { BatchGetCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx, type Ctx } from '../../shared/context';
import { db, dynamoCallCount, tableName } from '../../shared/db/client';
import type { Key } from '../../shared/db/keys';
import { ledgerItems } from '../../shared/db/ledger';
import type { TransactItem } from '../../shared/db/transactions';
import { PRODUCT, productKey } from '../../shared/domain/catalog/product';
import { CUSTOMER, customerItemKey } from '../../shared/domain/customers/customer';
import { CREDIT, creditBalanceKey, type CreditBalanceItem } from '../../shared/domain/credits/credit';
import { changeTime, creditChange } from '../../shared/domain/credits/ledger';
import { newLot } from '../../shared/domain/credits/lots';
import { lowCountThreshold, steadyStateChecks } from '../../shared/domain/credits/topup';
import { newId } from '../../shared/ids';
import { signToken, type LocalKeys } from '../../lib/local/jwt';
import { directInvoker } from './direct-invoke';
import { meter, uninstallMeter, type ReadCost } from './dynamo-meter';
import { apiClient, type ApiCall } from './http';
import { measureRotating, type VariantResult } from './latency';

const CREDIT_COUNT = 10;
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

export interface TopupSeries {
  /** The route, through the local HTTP server (or the handler in-process). */
  route: VariantResult;
  /** (a) The handler's TransactWriteItems alone. */
  write: VariantResult;
  /** (b) The handler's whole sequence sent directly: the balance GetItem, then that TransactWriteItems. */
  full: VariantResult;
}

export interface TopupCost {
  route: ReadCost;
  write: ReadCost;
  full: ReadCost;
  /** The route's DynamoDB operations, in order, described (items, consistency, capacity units). */
  described: string[];
}

export interface TopupResults {
  creditCount: number;
  /** `{credit_count}` only: a lot that never expires. */
  plain: TopupSeries;
  /** The same handler invoked in-process (no HTTP, no token check), beside the same floors as `plain`. */
  handler: TopupSeries;
  /** `{credit_count, expires_at: a year ahead}`: the lot's key holds the expiry and it enters the scheduling index. */
  expiring: TopupSeries;
  /** The handler's read alone: the strongly consistent BatchGetItem of customer, product and balance. */
  batchRead: VariantResult;
  /** A strongly consistent GetItem of the balance alone: what would remain of the read if customer and product were checked in the transaction. */
  balanceRead: VariantResult;
  /** One metered request of each kind (untimed). */
  cost: { plain: TopupCost; expiring: TopupCost };
  /** Top-ups checked afterwards: every balance (route's and floors') equals its top-ups and lists as many transactions. */
  checkedBalances: number;
  counts: { warmup: number; measured: number };
}

export interface TopupBench {
  baseUrl: string;
  keys: LocalKeys;
  counts: { warmup: number; measured: number };
}

interface Party {
  customerId: string;
  /** Top-ups written to this customer's balance (by the route or a floor), to check it afterwards. */
  topups: number;
}

/**
 * The TransactWriteItems topUpCredits sends for `balance` (shared/domain/credits/topup.ts), built with the same
 * builders: the balance Update on its `_version`, the ledger entry Put, the lot Put, the customer and product
 * ConditionChecks of a top-up on an existing balance.
 * Returns the items and the balance as they leave it.
 */
function topupTransaction(ctx: Ctx, party: Party, productId: string, name: string, balance: CreditBalanceItem, expiresAt: string | null) {
  const balanceKey = creditBalanceKey(ctx, party.customerId, productId);
  const at = changeTime(ctx.clock.now(), balance);
  const id = newId('cdt', at.getTime());
  const lot = newLot(ctx, balanceKey.pk, { id, customer_id: party.customerId, product_id: productId, credit_count: CREDIT_COUNT, expires_at: expiresAt, created_at: at.toISOString() });
  const { change, balance: after } = creditChange(
    ctx,
    { balanceKey, customerId: party.customerId, productId, name },
    balance,
    [{ type: 'topup', id, credit_count: CREDIT_COUNT, expires_at: expiresAt, lot_id: id, source: 'api' }],
    at,
    {
      also: [{ Put: { TableName: tableName(), Item: lot, ConditionExpression: 'attribute_not_exists(pk)' } }, ...steadyStateChecks(ctx, party.customerId, productId)],
      lowCountThreshold: lowCountThreshold(CREDIT_COUNT),
    },
  );
  return { items: ledgerItems(change), after };
}

const send = (items: TransactItem[]) => db.send(new TransactWriteCommand({ TransactItems: items }));

/** The three keys readParties reads, in its order. */
const partyKeys = (ctx: Ctx, party: Party, productId: string): Key[] => [
  customerItemKey(ctx, party.customerId), productKey(ctx, productId), creditBalanceKey(ctx, party.customerId, productId),
];

/** readParties' read, sent directly: one strongly consistent BatchGetItem of customer, product and balance. */
async function readPartiesDirectly(keys: Key[]): Promise<{ product: Record<string, unknown>; balance: CreditBalanceItem }> {
  const { Responses, UnprocessedKeys } = await db.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: keys, ConsistentRead: true } } }));
  if (UnprocessedKeys?.[tableName()]) throw new Error('floor: BatchGetItem left keys unprocessed');
  const items = Responses?.[tableName()] ?? [];
  const find = (key: Key) => items.find((i) => i.pk === key.pk && i.sk === key.sk);
  const [customer, product, balance] = keys.map(find);
  if (!customer || !product || !balance) throw new Error('floor: customer, product or balance missing');
  return { product, balance: balance as CreditBalanceItem };
}

/** (a): the transaction alone, on a balance whose state the floor keeps itself (it is the only writer). */
function writeFloor(ctx: Ctx, party: Party, productId: string, name: string, initial: CreditBalanceItem, expiresAt: string | null) {
  let state = initial;
  return async () => {
    const { items, after } = topupTransaction(ctx, party, productId, name, state, expiresAt);
    await send(items);
    state = after;
    party.topups += 1;
  };
}

/** (b): the handler's sequence: the balance read, then the transaction built on it. */
function fullFloor(ctx: Ctx, party: Party, productId: string, expiresAt: string | null) {
  const key = creditBalanceKey(ctx, party.customerId, productId);
  return async () => {
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
    const balance = Item as CreditBalanceItem;
    await send(topupTransaction(ctx, party, productId, balance.name, balance, expiresAt).items);
    party.topups += 1;
  };
}

/** What an item of the table is, from its key: the parties of a top-up and what it writes. */
function itemName(key: Partial<Key>, item?: Record<string, unknown>): string {
  const sk = String(key.sk ?? '');
  if (sk === CREDIT) return 'the balance';
  if (sk === CUSTOMER) return 'the customer';
  if (sk === PRODUCT) return 'the product';
  if (sk.startsWith('TX#')) return 'the ledger entry';
  if (sk.startsWith(`${CREDIT}#LOT#`)) return item?.gsi4pk ? 'the lot (with its gsi4 scheduling-index keys)' : 'the lot';
  return sk || 'an item';
}

const units = (n: number | undefined): string => (n === undefined ? '' : `; ${n} capacity units reported`);

/** Each metered operation in words, e.g. `TransactWriteItems (Update of the balance, …)`. */
function describe(requests: ReadCost['requests']): string[] {
  return requests.map(({ command, input, units: reported }) => {
    if (command === 'BatchGetItem') {
      const spec = Object.values(input.RequestItems as Record<string, { Keys: Key[]; ConsistentRead?: boolean }>)[0]!;
      return `BatchGetItem (${spec.ConsistentRead ? 'strongly consistent' : 'eventually consistent'}: ${spec.Keys.map((k) => itemName(k)).join(', ')}${units(reported)})`;
    }
    if (command === 'TransactWriteItems') {
      const items = (input.TransactItems as Record<string, { Key?: Key; Item?: Record<string, unknown>; ConditionExpression?: string }>[]).map((item) => {
        const [kind, body] = Object.entries(item)[0]!;
        return `${kind} of ${itemName(body.Key ?? body.Item ?? {}, body.Item)}${body.ConditionExpression ? ` if \`${body.ConditionExpression}\`` : ''}`;
      });
      return `TransactWriteItems (${items.join(', ')}${units(reported)})`;
    }
    return `${command}${units(reported)}`;
  });
}

/** What must match between the handler's transaction and a floor's: operations, conditions, expressions, attributes. */
function transactionShape(requests: ReadCost['requests']) {
  const write = requests.find((r) => r.command === 'TransactWriteItems');
  if (!write) throw new Error('no TransactWriteItems among the metered requests');
  return (write.input.TransactItems as Record<string, Record<string, unknown>>[]).map((item) => {
    const [kind, body] = Object.entries(item)[0]!;
    return {
      kind,
      key: Object.keys((body.Key ?? {}) as object).sort(),
      attributes: Object.keys((body.Item ?? {}) as object).sort(),
      condition: body.ConditionExpression,
      update: body.UpdateExpression,
      names: body.ExpressionAttributeNames,
      values: Object.keys((body.ExpressionAttributeValues ?? {}) as object).sort(),
    };
  });
}

export async function measureTopups({ baseUrl, keys, counts }: TopupBench): Promise<TopupResults> {
  const workspaceId = `ws_bench_crd_${Math.random().toString(36).slice(2, 10)}`;
  const ctx = makeCtx(workspaceId, 'bench');
  const token = await signToken(keys, { workspace: workspaceId, scope: 'read write' });
  const call = apiClient(baseUrl, token);

  await call('POST', '/v1/invoicing-entities', 201, { name: 'Bench Credits SAS', country: 'FR', currency: 'EUR' });
  const productName = 'Bench API credits';
  const product = await call<{ id: string }>('POST', '/v1/products', 201, { name: productName, type: 'credit' });
  const productId = product.id;
  // A bundle price configuration, as a credit product has; a top-up without price_id never reads it.
  await call('POST', '/v1/price-configurations', 201, { product_id: productId, currency: 'EUR', type: 'bundle', prices: [{ amount: 1000, pack_size: CREDIT_COUNT }] });
  const expiresAt = new Date(Date.now() + YEAR_MS).toISOString();

  // One customer (one balance) per variant that writes: no two of them race on one `_version`. Each balance is
  // created by a first top-up through the API (which also bumps the customer's balance counter); the measured
  // top-ups are the steady state, on an existing balance.
  const parties: Party[] = [];
  const party = async (label: string, withExpiry: boolean): Promise<Party> => {
    const { id } = await call<{ id: string }>('POST', '/v1/customers', 201, { name: `Bench credits ${label}`, currency: 'EUR' });
    const p: Party = { customerId: id, topups: 0 };
    const first = await call<Record<string, unknown>>('POST', topupPath(p), 201, topupBody(withExpiry));
    p.topups += 1;
    const problem = first.type !== 'topup' ? `type ${String(first.type)}` : first.credit_count !== CREDIT_COUNT ? `credit_count ${String(first.credit_count)}` :
      first.balance_after !== CREDIT_COUNT ? `balance_after ${String(first.balance_after)}` : first.expires_at !== (withExpiry ? expiresAt : null) ? `expires_at ${String(first.expires_at)}` : '';
    if (problem) throw new Error(`first top-up of ${label}: unexpected ${problem}`);
    parties.push(p);
    return p;
  };
  const topupPath = (p: Party) => `/v1/customers/${p.customerId}/credits/${productId}/topup`;
  const topupBody = (withExpiry: boolean) => (withExpiry ? { credit_count: CREDIT_COUNT, expires_at: expiresAt } : { credit_count: CREDIT_COUNT });
  const readBalance = async (p: Party): Promise<CreditBalanceItem> => {
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: creditBalanceKey(ctx, p.customerId, productId), ConsistentRead: true }));
    if (!Item) throw new Error(`no balance for ${p.customerId}`);
    return Item as CreditBalanceItem;
  };

  const routeParty = async (label: string, withExpiry: boolean, run: (p: Party) => Promise<unknown>) => {
    const p = await party(label, withExpiry);
    return async () => {
      await run(p);
      p.topups += 1;
    };
  };
  const viaHttp = (withExpiry: boolean) => (p: Party) => call('POST', topupPath(p), 201, topupBody(withExpiry));
  const invoke = await directInvoker('topupCustomerCredits', keys, token);
  const inProcess = (p: Party) => invoke(topupPath(p), { id: p.customerId, productId }, 201, topupBody(false));

  const plainRoute = await routeParty('route', false, viaHttp(false));
  const handlerRoute = await routeParty('handler', false, inProcess);
  const expiringRoute = await routeParty('route, expiring', true, viaHttp(true));
  const plainWriteParty = await party('floor (a)', false);
  const plainFullParty = await party('floor (b)', false);
  const expiringWriteParty = await party('floor (a), expiring', true);
  const expiringFullParty = await party('floor (b), expiring', true);
  const plainWrite = writeFloor(ctx, plainWriteParty, productId, productName, await readBalance(plainWriteParty), null);
  const plainFull = fullFloor(ctx, plainFullParty, productId, null);
  const expiringWrite = writeFloor(ctx, expiringWriteParty, productId, productName, await readBalance(expiringWriteParty), expiresAt);
  const expiringFull = fullFloor(ctx, expiringFullParty, productId, expiresAt);
  const readKeys = partyKeys(ctx, plainFullParty, productId);
  const balanceKey = creditBalanceKey(ctx, plainFullParty.customerId, productId);

  const variants = [
    { name: 'plain.route', run: plainRoute },
    { name: 'plain.handler', run: handlerRoute },
    { name: 'plain.write', run: plainWrite },
    { name: 'plain.full', run: plainFull },
    { name: 'expiring.route', run: expiringRoute },
    { name: 'expiring.write', run: expiringWrite },
    { name: 'expiring.full', run: expiringFull },
    { name: 'read.batch', run: () => readPartiesDirectly(readKeys) },
    { name: 'read.balance', run: () => db.send(new GetCommand({ TableName: tableName(), Key: balanceKey, ConsistentRead: true })) },
  ];
  const results = await measureRotating(variants, counts, dynamoCallCount);
  const result = (name: string) => results.get(name)!;

  // One metered request of each kind, untimed; the floors' transactions must be the handler's.
  let cost: TopupResults['cost'];
  try {
    const metered = async (route: () => Promise<unknown>, write: () => Promise<unknown>, full: () => Promise<unknown>): Promise<TopupCost> =>
      {
        const r = await meter(route);
        return { route: r, write: await meter(write), full: await meter(full), described: describe(r.requests) };
      };
    cost = {
      plain: await metered(plainRoute, plainWrite, plainFull),
      expiring: await metered(expiringRoute, expiringWrite, expiringFull),
    };
  } finally {
    uninstallMeter();
  }
  const drift = 'the bench floor no longer sends the transaction topUpCredits sends';
  for (const [label, c] of Object.entries(cost)) {
    const shape = transactionShape(c.route.requests);
    deepStrictEqual(transactionShape(c.write.requests), shape, `${drift} (${label}, floor (a))`);
    deepStrictEqual(transactionShape(c.full.requests), shape, `${drift} (${label}, floor (b))`);
    const reads = (r: ReadCost) => r.requests.filter((q) => q.command !== 'TransactWriteItems').map((q) => q.command);
    deepStrictEqual(reads(c.full), reads(c.route), `${drift} (${label}): floor (b) does not read what the handler reads`);
  }

  // Every balance equals its top-ups, and its ledger lists as many transactions (the floors' included).
  await checkBalances(call, productId, parties);

  return {
    creditCount: CREDIT_COUNT,
    plain: { route: result('plain.route'), write: result('plain.write'), full: result('plain.full') },
    handler: { route: result('plain.handler'), write: result('plain.write'), full: result('plain.full') },
    expiring: { route: result('expiring.route'), write: result('expiring.write'), full: result('expiring.full') },
    batchRead: result('read.batch'),
    balanceRead: result('read.balance'),
    cost,
    checkedBalances: parties.length,
    counts,
  };
}

async function checkBalances(call: ApiCall, productId: string, parties: Party[]): Promise<void> {
  for (const p of parties) {
    const base = `/v1/customers/${p.customerId}/credits/${productId}`;
    const balance = await call<{ current_balance: number }>('GET', base, 200);
    const ledger = await call<{ meta: { total: number } }>('GET', `${base}/transactions?take=1`, 200);
    if (balance.current_balance !== p.topups * CREDIT_COUNT || ledger.meta.total !== p.topups) {
      throw new Error(`balance of ${p.customerId}: ${balance.current_balance} credits and ${ledger.meta.total} transactions after ${p.topups} top-ups of ${CREDIT_COUNT}`);
    }
  }
}
