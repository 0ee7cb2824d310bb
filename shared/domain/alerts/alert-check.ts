import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { collectionKey } from '../../db/keys';
import { writeUnlessDone } from '../../db/transactions';
import { aggregatorKey, type AggregatorItem } from '../metering/aggregator';
import { activeSubscriptionsOf } from '../metering/customer-subscriptions';
import { readUsage } from '../metering/usage-read';
import type { Period } from '../subscriptions/lines';
import { isMetered, meteredAmount, readingKey, readMeteredUsage } from '../subscriptions/metered';
import { periodStart, type SubscriptionItem } from '../subscriptions/subscription';
import { runningPeriod } from '../subscriptions/thresholds';
import { listAlerts, type Alert } from './alert';

/** A crossing, once: `WS#…#ALERT_TRIGGERS` / `<alert>#<customer>#<period start>#<threshold>`, whose insert is `alert.triggered`. */
export const ALERT_TRIGGERS = 'ALERT_TRIGGERS';

export interface AlertTriggerItem {
  alert_id: string;
  type: Alert['type'];
  aggregator_id: string | null;
  customer_id: string;
  threshold: number;
  value: number;
  period_starts_at: string;
  period_ends_at: string;
  created_at: string;
}

/** The customer's billing period: its first active subscription's running one, else the UTC calendar month. */
function billingPeriod(subscriptions: SubscriptionItem[], now: string): Period {
  for (const s of subscriptions) {
    const running = runningPeriod(s, now, periodStart);
    if (running) return running;
  }
  const d = new Date(now);
  return { starts_at: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString(), ends_at: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString() };
}

/** Spend: the price of the running period's metered usage so far, over the customer's active subscriptions. */
async function spendOf(ctx: Ctx, customerId: string, subscriptions: SubscriptionItem[], now: string): Promise<number> {
  let total = 0;
  for (const s of subscriptions) {
    const period = runningPeriod(s, now, periodStart);
    if (!period) continue;
    const metered = s.products.filter(isMetered);
    const usage = await readMeteredUsage(ctx, customerId, metered.map((product) => ({ product, period })));
    total += metered.reduce((sum, p) => sum + meteredAmount(p.price, usage.get(readingKey(p.id, period))!), 0);
  }
  return total;
}

/**
 * After usage changed for these customers (the usage stream): each alert that watches them, its value over the
 * period read, and every threshold it reached recorded by a conditional put (absent only), so each crossing is
 * written, and its `alert.triggered` emitted, once per customer, threshold and period, however often it is seen.
 */
export async function checkAlerts(ctx: Ctx, customerIds: Iterable<string>): Promise<void> {
  const alerts = (await listAlerts(ctx)).data;
  if (alerts.length === 0) return;
  const now = ctx.clock.now().toISOString();
  for (const customerId of customerIds) {
    const watching = alerts.filter((a) => a.customer_id === null || a.customer_id === customerId);
    if (watching.length === 0) continue;
    const subscriptions = await activeSubscriptionsOf(ctx, customerId);
    const period = billingPeriod(subscriptions, now);
    for (const alert of watching) {
      const value = alert.type === 'spend' ? await spendOf(ctx, customerId, subscriptions, now) : await usageOf(ctx, customerId, alert.aggregator_id!, period);
      for (const threshold of alert.thresholds.filter((t) => t <= value)) {
        const trigger: AlertTriggerItem = {
          alert_id: alert.id, type: alert.type, aggregator_id: alert.aggregator_id, customer_id: customerId, threshold, value,
          period_starts_at: period.starts_at, period_ends_at: period.ends_at, created_at: now,
        };
        const key = collectionKey(ctx, ALERT_TRIGGERS, `${alert.id}#${customerId}#${period.starts_at}#${threshold}`);
        await writeUnlessDone(db.send(new PutCommand({ TableName: tableName(), Item: { ...key, _type: 'alert_trigger', ...trigger }, ConditionExpression: 'attribute_not_exists(pk)' })));
      }
    }
  }
}

async function usageOf(ctx: Ctx, customerId: string, aggregatorId: string, period: Period): Promise<number> {
  const aggregator = await getItem<AggregatorItem>(aggregatorKey(ctx, aggregatorId), true);
  return aggregator ? (await readUsage(ctx, customerId, aggregator, period.starts_at, period.ends_at)).value : 0;
}
