import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { batchGet } from '../../db/batch-get';
import { getItem, raceBackoff } from '../../db/items';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transactions';
import { ServiceUnavailable } from '../../errors';
import { deltaKey, type Delta } from './facts';
import { ANALYTICS_SHARDS, analyticsKey, appliedKey, APPLIED_TTL_SECONDS, countedKey, CUSTOMER_REVENUE, customerRevenueKey, firstShard, REVENUE_DAY, type Counted } from './items';
import { customerScope, type CustomerRevenue, type SubscriptionFacts } from './mrr';
import { planChange, scopeKey, type ChangePlan, type CustomerScope } from './plan';

/** Day items per transaction (TransactWriteItems takes 100: room for the marker, what is counted and two customer states). */
const UPDATES_PER_WRITE = 90;
const MAX_ATTEMPTS = 25;

export interface AnalyticsChange {
  /** The stream record's eventID: the same for every delivery of the change. */
  changeId: string;
  type: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  /** The change's UTC day (YYYY-MM-DD): where a subscription's movements land. */
  day: string;
  /** The backfill's: the item counted whole unless something counted it already. */
  backfill?: boolean;
}

type StoredRevenue = CustomerRevenue & { _version: number };

/**
 * Applies one item change to the analytics exactly once: its plan (plan.ts) split into chunks of UPDATES_PER_WRITE
 * items, each chunk one transaction of ADDs with a marker of (change, chunk) inserted only if absent. A marker already
 * there means an earlier delivery applied that chunk: it is skipped. The customer states a subscription moves are in
 * the first chunk, conditioned on the version read, so two subscriptions of a customer applied at once are classified
 * one after the other. A change's day items start on a shard chosen from its id (items.ts); a transaction that
 * collides with another on a day item moves to the item's next shard.
 * The first chunk also records what is counted of the item (items.ts, countedKey): its version, so that a change the
 * backfill already counted is skipped, and an item written before the analytics existed is counted whole.
 */
export async function applyAnalyticsChange(ctx: Ctx, change: AnalyticsChange): Promise<void> {
  const source = (change.after ?? change.before)!;
  const version = typeof change.after?._version === 'number' ? change.after._version : Number(change.before?._version ?? 0) + 1;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const counted = change.before || change.backfill ? await getItem<Counted>(countedKey(String(source.pk)), true) : undefined;
    if (counted && counted.change !== change.changeId && (change.backfill || version <= counted.version)) return; // counted already
    // An item the analytics have not counted yet (written before they existed) is counted whole: from nothing.
    const before = counted ? change.before : undefined;
    const states = await readCustomerStates(ctx, change);
    const plan = planChange(change.type, before, change.after, change.day, (scope) => states.get(scopeKey(scope)) ?? { mrr: 0, ever_active: false, _version: 0 });
    const mark = countedWrite(String(source.pk), { version, change: change.changeId }, counted);
    if (await writePlan(ctx, change.changeId, plan, [mark, ...plan.customers.map(({ scope, after }) => customerPut(ctx, scope, after, states.get(scopeKey(scope))))], attempt)) return;
    await raceBackoff(attempt);
  }
  throw new ServiceUnavailable('The analytics of a change kept colliding with others; the stream batch will be retried.');
}

/** What the analytics count of the item from now on, conditioned on what was read (another writer: plan again). */
const countedWrite = (sourcePk: string, next: Counted, read: Counted | undefined): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...countedKey(sourcePk), _type: 'revenue_counted', ...next },
    ...(read
      ? { ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': 'version' }, ExpressionAttributeValues: { ':v': read.version } }
      : { ConditionExpression: 'attribute_not_exists(pk)' }),
  },
});

async function readCustomerStates(ctx: Ctx, change: AnalyticsChange): Promise<Map<string, StoredRevenue>> {
  if (change.type !== 'subscription') return new Map();
  const scopes = new Map<string, CustomerScope>();
  for (const image of [change.before, change.after]) if (image) scopes.set(scopeKey(customerScope(image as unknown as SubscriptionFacts)), customerScope(image as unknown as SubscriptionFacts));
  const items = await batchGet([...scopes.values()].map((scope) => customerRevenueKey(ctx, scope)), true);
  const states = new Map<string, StoredRevenue>();
  for (const item of items) states.set(`${String(item.customer_id)}|${String(item.entity)}|${String(item.currency)}`, item as unknown as StoredRevenue);
  return states;
}

/** Writes the plan's chunks, the conditioned writes in the first; false when one of those changed since read (plan again). */
async function writePlan(ctx: Ctx, changeId: string, plan: ChangePlan, conditioned: TransactItem[], attempt: number): Promise<boolean> {
  const deltas = [...plan.deltas].sort((a, b) => deltaKey(a).localeCompare(deltaKey(b)));
  const chunks = deltas.length === 0 ? [[]] : chunked(deltas, UPDATES_PER_WRITE);
  for (const [index, chunk] of chunks.entries()) {
    const customers = index === 0 ? conditioned : [];
    let shard = (firstShard(changeId) + attempt) % ANALYTICS_SHARDS;
    for (let tries = 0; ; tries++) {
      try {
        await transactWrite([marker(ctx, changeId, index), ...customers, ...chunk.map((delta) => dayUpdate(ctx, delta, shard))]);
        break;
      } catch (error) {
        if (error instanceof ConditionFailed) {
          if (error.index === 0) break; // applied by an earlier delivery
          return false;
        }
        if (!(error instanceof ServiceUnavailable) || tries + 1 >= MAX_ATTEMPTS) throw error;
        shard = (shard + 1) % ANALYTICS_SHARDS; // another change holds the item: this day is busy, use its next shard
        await raceBackoff(tries);
      }
    }
  }
  return true;
}

const chunked = <T>(list: readonly T[], size: number): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

const marker = (ctx: Ctx, changeId: string, chunk: number): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...appliedKey(ctx, changeId, chunk), _type: 'revenue_applied', ttl: Math.floor(ctx.clock.now().getTime() / 1000) + APPLIED_TTL_SECONDS },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

function customerPut(ctx: Ctx, scope: CustomerScope, after: CustomerRevenue, read: StoredRevenue | undefined): TransactItem {
  const version = read?._version ?? 0;
  return {
    Put: {
      TableName: tableName(),
      Item: { ...customerRevenueKey(ctx, scope), _type: CUSTOMER_REVENUE, _version: version + 1, customer_id: scope.customer, entity: scope.entity, currency: scope.currency, ...after },
      ...(read
        ? { ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': '_version' }, ExpressionAttributeValues: { ':v': version } }
        : { ConditionExpression: 'attribute_not_exists(pk)' }),
    },
  };
}

/** ADD of each number to the day item (created by the first ADD, with what a read needs to place it). */
export function dayUpdate(ctx: Ctx, delta: Delta, shard: number): TransactItem {
  const names: Record<string, string> = { '#type': '_type', '#day': 'day', '#entity': 'entity' };
  const values: Record<string, unknown> = { ':type': REVENUE_DAY, ':day': delta.day, ':entity': delta.entity };
  const adds = Object.entries(delta.values).map(([name, value], i) => {
    names[`#n${i}`] = name;
    values[`:n${i}`] = value;
    return `#n${i} :n${i}`;
  });
  return {
    Update: {
      TableName: tableName(),
      Key: analyticsKey(ctx, delta, shard),
      UpdateExpression: `ADD ${adds.join(', ')} SET #type = :type, #day = :day, #entity = :entity`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}
