/**
 * Recurring billing: the scheduled run (`runDueWork`) over a workspace of subscriptions all due at once, each
 * invoiced by `billSubscription` (createInvoice's transaction with the subscription's conditional move). Measures the
 * throughput of one run (subscriptions invoiced per second), the DynamoDB calls per subscription, and what one
 * subscription's billing sends (metered separately), then checks through the API that every subscription was
 * invoiced exactly once and that a second run adds nothing. Imports the shared table client: import this module only
 * once DYNAMODB_ENDPOINT and TABLE_NAME are set.
 */
import { GetCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { makeCtx } from '../../shared/context';
import { db, dynamoCallCount, tableName } from '../../shared/db/client';
import { getItem } from '../../shared/db/items';
import { counterKey, listIndexKeys } from '../../shared/db/keys';
import { transactWrite } from '../../shared/db/transactions';
import { CUSTOMER, customerItemKey, subscriptionSummaryAttribute, type CustomerItem } from '../../shared/domain/customers/customer';
import { invoiceKey, invoiceListKeys, type InvoiceItem } from '../../shared/domain/invoices/invoice';
import type { EntityItem } from '../../shared/domain/invoicing-entities/invoicing-entity';
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { billSubscription } from '../../shared/domain/subscriptions/billing';
import { prepareSubscription } from '../../shared/domain/subscriptions/prepare';
import {
  billingDueKeys, SUBSCRIPTION, subscriptionKey, subscriptionListFields, subscriptionListKeys, subscriptionSummary, type SubscriptionItem,
} from '../../shared/domain/subscriptions/subscription';
import { newId } from '../../shared/ids';
import { signToken, type LocalKeys } from '../../lib/local/jwt';
import { putBatch } from './batch-write';
import { meter, uninstallMeter, type MeteredRequest } from './dynamo-meter';
import { apiClient } from './http';

const CURRENCY = 'EUR';

export interface BillingBench {
  baseUrl: string;
  keys: LocalKeys;
  /** Subscriptions due at once (one customer each). */
  subscriptions: number;
  /** Parallel BatchWriteItems while seeding customers and subscriptions (untimed). */
  seedConcurrency: number;
  /** Rounds of the floor (one subscription's DynamoDB sequence sent directly), timed one at a time. */
  floorCounts: { warmup: number; measured: number };
}

export interface BillingResults {
  subscriptions: number;
  /** The one timed `runDueWork` call. */
  run: { seconds: number; due: number; done: number; failed: number; invoices: number; dynamoCalls: number };
  /** Subscriptions invoiced per second by that run. */
  perSecond: number;
  /** Mean time per subscription in the run (ms). */
  msPerSubscription: number;
  /** What billing one more subscription alone sends, in order (metered, untimed). */
  described: string[];
  /** Mean time of one subscription's DynamoDB sequence (`described`) sent directly, rounds one after another (ms). */
  floorMs: number;
  floorCounts: { warmup: number; measured: number };
  /** A second run right after: due items and invoices it added (both must be 0). */
  rerun: { due: number; invoices: number };
  /** Invoices in the workspace after both runs (the subscriptions' and the metered template's). */
  invoicesListed: number;
  seedSeconds: number;
  seconds: number;
}

async function inParallel<T>(count: number, concurrency: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, async () => {
    for (let i = next++; i < count; i = next++) out[i] = await make(i);
  }));
  return out;
}

/** An operation of the metered billing, in words. */
function describe(command: string, input: Record<string, unknown>): string {
  const name = (key: { pk?: unknown; sk?: unknown } | undefined) => {
    const pk = String(key?.pk ?? '');
    const sk = String(key?.sk ?? '');
    if (pk.endsWith('#COUNTER')) return sk.includes('customer_id=') ? "the customer's invoice counter" : `the ${sk} counter`;
    return { SUB: 'the subscription', CUS: 'the customer', IVE: 'the invoicing entity', INV: 'the invoice' }[sk] ?? sk;
  };
  if (command === 'GetItem') return `GetItem (${input.ConsistentRead ? 'strongly consistent' : 'eventually consistent'}: ${name(input.Key as never)})`;
  if (command === 'TransactWriteItems') {
    const parts = (input.TransactItems as Record<string, { Key?: object; Item?: object }>[]).map((entry) => {
      const [kind, body] = Object.entries(entry)[0]!;
      return `${kind} of ${name((body.Key ?? body.Item) as never)}`;
    });
    return `TransactWriteItems (${parts.join(', ')})`;
  }
  return command;
}

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/**
 * One round of the floor: the GetItems the billing sent (the subscription, then the customer, then the entity ∥ the
 * customer's invoice counter), then its TransactWriteItems rebuilt on what they returned: the invoice under a new id,
 * the entity's numbering Update on the number read, the subscription's Put on its version and billing date read.
 */
function floorRound(ctx: ReturnType<typeof makeCtx>, requests: MeteredRequest[]) {
  const gets = requests.filter((r) => r.command === 'GetItem').map((r) => r.input);
  const write = requests.find((r) => r.command === 'TransactWriteItems');
  if (gets.length !== 4 || !write) throw new Error(`the billing sent ${requests.map((r) => r.command).join(', ')}: the floor expects 4 GetItems and a TransactWriteItems`);
  const get = (input: Record<string, unknown>) => db.send(new GetCommand(input as never)).then((r) => r.Item!);
  const template = write.input.TransactItems as TransactItems;
  return async () => {
    const subscription = (await get(gets[0]!)) as SubscriptionItem;
    await get(gets[1]!);
    const [third, fourth] = await Promise.all([get(gets[2]!), get(gets[3]!)]);
    const entity = (third.sk === 'IVE' ? third : fourth) as EntityItem;
    const items = template.map((entry) => {
      if (entry.Put && entry.Put.Item!.sk === 'INV') {
        const id = newId('inv');
        const invoice = entry.Put.Item as InvoiceItem;
        return { Put: { ...entry.Put, Item: { ...invoice, ...invoiceKey(ctx, id), ...invoiceListKeys(ctx, new Date().toISOString(), id), id } } };
      }
      if (entry.Put && entry.Put.Item!.sk === 'SUB') {
        const values = { ':at': subscription.next_billing_at, ':v': subscription._version };
        return { Put: { ...entry.Put, Item: { ...subscription, _version: subscription._version + 1 }, ExpressionAttributeValues: values } };
      }
      if (entry.Update && (entry.Update.Key as { sk: string }).sk === 'IVE') {
        const current = entity.next_invoice_number;
        return { Update: { ...entry.Update, ExpressionAttributeValues: { ...entry.Update.ExpressionAttributeValues, ':current': current, ':next': current + 1 } } };
      }
      return entry;
    });
    await db.send(new TransactWriteCommand({ TransactItems: items }));
  };
}

export async function measureBilling({ baseUrl, keys, subscriptions, seedConcurrency, floorCounts }: BillingBench): Promise<BillingResults> {
  const started = performance.now();
  const workspaceId = `ws_bench_sub_${Math.random().toString(36).slice(2, 10)}`;
  const ctx = makeCtx(workspaceId, 'bench');
  const call = apiClient(baseUrl, await signToken(keys, { workspace: workspaceId, scope: 'read write' }));
  const only = { workspaces: new Set([workspaceId]) };

  await call('POST', '/v1/invoicing-entities', 201, { name: 'Bench Subscriptions SAS', country: 'FR', currency: CURRENCY });
  const product = async (name: string, type: string, prices: Record<string, unknown>) => {
    const made = await call<{ id: string }>('POST', '/v1/products', 201, { name, type });
    const configuration = await call<{ id: string }>('POST', '/v1/price-configurations', 201, {
      product_id: made.id, currency: CURRENCY, ...prices, billing_interval: { period: 'months', count: 1 },
    });
    return { product_id: made.id, price_configuration_id: configuration.id };
  };
  const platform = await product('Platform', 'flat_fee', { type: 'fee', prices: [{ amount: 4_900 }] });
  const seats = await product('Seats', 'seat', { type: 'volume', prices: [{ from: 1, to: null, amount: 1_200, unit_count: 1, on_tier_incomplete: 'pro_rata' }] });
  const products = [{ ...platform, quantity: 1 }, { ...seats, quantity: 5 }];

  // Seeding (untimed): one customer and its subscription the real way (POST /v1/customers, then prepareSubscription's
  // items in one transaction), read back; then `subscriptions` more of each, seeded directly as exact copies with their
  // own ids, keys and summaries (and the list counters moved by as many), all starting now: every one is due at the run.
  const seedStarted = performance.now();
  const startsAt = new Date().toISOString();
  const first = await call<{ id: string }>('POST', '/v1/customers', 201, { name: 'Subscriber 0', currency: CURRENCY, billing_address: { country: 'FR' } });
  const prepared = await prepareSubscription(ctx, { customer_id: first.id, starts_at: startsAt, products });
  await transactWrite(prepared.items);
  const customerTemplate = await getItem<CustomerItem>(customerItemKey(ctx, first.id), true);
  const subscriptionTemplate = await getItem<SubscriptionItem>(subscriptionKey(ctx, prepared.subscription.id), true);
  if (!customerTemplate || !subscriptionTemplate) throw new Error('seeding: the template subscription was not written');
  const { [subscriptionSummaryAttribute(subscriptionTemplate.id)]: _summary, ...customerBase } = customerTemplate as CustomerItem & Record<string, unknown>;
  const ids: string[] = [];
  const items: Record<string, unknown>[] = [];
  for (let i = 1; i <= subscriptions; i++) {
    const customerId = newId('cus');
    const id = newId('sub');
    const subscription: SubscriptionItem = {
      ...subscriptionTemplate, ...subscriptionKey(ctx, id), ...subscriptionListKeys(ctx, subscriptionTemplate.created_at, id), id, customer_id: customerId,
      products: subscriptionTemplate.products.map((p) => ({ ...p, id: newId('subi') })),
    };
    subscription.lf = subscriptionListFields(subscription);
    Object.assign(subscription, billingDueKeys(ctx, subscription));
    const customer = {
      ...customerBase, ...customerItemKey(ctx, customerId), ...listIndexKeys(ctx, CUSTOMER, customerTemplate.created_at, customerId), id: customerId,
      name: `Subscriber ${i}`, [subscriptionSummaryAttribute(id)]: subscriptionSummary(subscription),
    };
    ids.push(id);
    items.push(customer, subscription as unknown as Record<string, unknown>);
  }
  const batches = Array.from({ length: Math.ceil(items.length / 25) }, (_, b) => items.slice(b * 25, b * 25 + 25));
  await inParallel(batches.length, seedConcurrency, (b) => putBatch(db, batches[b]!, 'subscriptions'));
  for (const type of [CUSTOMER, SUBSCRIPTION]) {
    await db.send(new UpdateCommand({ TableName: tableName(), Key: counterKey(ctx, type), UpdateExpression: 'ADD #t :n', ExpressionAttributeNames: { '#t': 'total' }, ExpressionAttributeValues: { ':n': subscriptions } }));
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const seeded = await call<{ meta: { total: number } }>('GET', '/v2/subscriptions?take=0&status=active', 200);
  if (seeded.meta.total !== subscriptions + 1) throw new Error(`seeding: ${seeded.meta.total} active subscriptions listed, expected ${subscriptions + 1}`);

  // The template billed alone, metered: what billing each subscription of the run sends.
  const metered = await meter(() => billSubscription(ctx, subscriptionTemplate.id));
  uninstallMeter();
  const described = metered.requests.map((r) => describe(r.command, r.input));

  // The measured run: every due subscription of the workspace, in one runDueWork call.
  const calls = dynamoCallCount();
  const runStarted = performance.now();
  const result = await runDueWork(new Date(), only);
  const seconds = (performance.now() - runStarted) / 1000;
  const dynamoCalls = dynamoCallCount() - calls;
  // The floor, after the run (so both meet DynamoDB Local warm): the billing's own DynamoDB sequence sent directly, one
  // round after another like the run's subscriptions, on the template (billed already, so never due again): its GetItems
  // in its order and parallelism, then its transaction as metered, with a new invoice id and the conditions the reads make
  // true again (the entity's number, the subscription's version and billing date). Its mean is the run's floor per
  // subscription.
  const round = floorRound(ctx, metered.requests);
  for (let i = 0; i < floorCounts.warmup; i++) await round();
  const floorStarted = performance.now();
  for (let i = 0; i < floorCounts.measured; i++) await round();
  const floorMs = (performance.now() - floorStarted) / floorCounts.measured;

  const afterRun = await call<{ meta: { total: number } }>('GET', '/v1/invoices?take=0', 200);
  const invoices = afterRun.meta.total - 1 - floorCounts.warmup - floorCounts.measured;

  const rerun = await runDueWork(new Date(), only);
  const listed = await call<{ meta: { total: number } }>('GET', '/v1/invoices?take=0', 200);
  if (result.failed > 0 || result.done !== subscriptions || invoices !== subscriptions) {
    throw new Error(`billing run: ${result.done} done, ${result.failed} failed, ${invoices} invoices for ${subscriptions} subscriptions`);
  }
  if (rerun.due !== 0 || listed.meta.total !== afterRun.meta.total) throw new Error(`a second run found ${rerun.due} due and added ${listed.meta.total - afterRun.meta.total} invoices`);
  const sample = await call<{ status: string; next_billing_at: string }>('GET', `/v2/subscriptions/${ids[0]}`, 200);
  if (sample.status !== 'active' || sample.next_billing_at <= startsAt) throw new Error(`a billed subscription is ${sample.status}, next billing ${sample.next_billing_at}`);

  return {
    subscriptions,
    run: { seconds, due: result.due, done: result.done, failed: result.failed, invoices, dynamoCalls },
    perSecond: subscriptions / seconds,
    msPerSubscription: (seconds * 1000) / subscriptions,
    described,
    floorMs,
    floorCounts,
    rerun: { due: rerun.due, invoices: listed.meta.total - afterRun.meta.total },
    invoicesListed: listed.meta.total,
    seedSeconds,
    seconds: (performance.now() - started) / 1000,
  };
}
