import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { createInvoice } from '../invoices/create';
import { activeSubscriptionsOf } from '../metering/customer-subscriptions';
import { SubscriptionChanged } from './billing';
import { isMetered, readMeteredUsage } from './metered';
import { periodStart, subscriptionKey, type SubscriptionItem } from './subscription';
import { runningPeriod, thresholdStep } from './thresholds';
import { putOnVersion } from './write';

/** Reads before giving up on a subscription another writer keeps changing (the next usage change looks again). */
const ATTEMPTS = 5;

/**
 * Invoices a subscription's usage so far when it crossed a billing threshold (thresholds.ts), at most once per
 * crossing: the invoice is created in one transaction with the subscription's write of its raised records,
 * conditioned on the version read. A retried stream batch, or two at once, reads the records the first one wrote and
 * finds nothing left over the threshold. Returns whether it issued an invoice.
 */
export async function billThresholdCrossing(ctx: Ctx, id: string): Promise<boolean> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const s = await getItem<SubscriptionItem>(subscriptionKey(ctx, id), true);
    const now = ctx.clock.now().toISOString();
    const period = s?.billing_thresholds ? runningPeriod(s, now, periodStart) : null;
    if (!s || !period) return false;
    const usage = await readMeteredUsage(ctx, s.customer_id, s.products.filter(isMetered).map((product) => ({ product, period })));
    const step = thresholdStep(s, period, usage);
    if (!step) return false;
    // The commit's balance drawn by this invoice is written with it, in the same conditioned write.
    const next: SubscriptionItem = { ...s, products: step.products, ...(step.commit_balance && { commit_balance: step.commit_balance }), updated_at: now, _version: s._version + 1 };
    try {
      await createInvoice(
        ctx,
        { customer_id: s.customer_id, invoicing_entity_id: s.invoicing_entity_id, currency: s.currency, status: 'to_pay', period_starts_at: period.starts_at, period_ends_at: now },
        { lines: step.lines, subscriptionId: s.id, collectionMethod: s.collection_method, continuing: true, also: [putOnVersion(next, s)], alsoFailed: () => new SubscriptionChanged(s.id) },
      );
      return true;
    } catch (error) {
      if (!(error instanceof SubscriptionChanged)) throw error;
    }
  }
  return false;
}

/** After usage changed for these customers: each of their active subscriptions with thresholds, checked for a crossing. */
export async function billThresholdCrossings(ctx: Ctx, customerIds: Iterable<string>): Promise<void> {
  for (const customerId of customerIds) {
    for (const s of await activeSubscriptionsOf(ctx, customerId)) if (s.billing_thresholds) await billThresholdCrossing(ctx, s.id);
  }
}
