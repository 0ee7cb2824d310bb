import type { Ctx } from '../../context';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { Conflict, ServiceUnavailable, RuleViolation } from '../../errors';
import { isMetered } from './metered';
import type { SubscriptionItem } from './subscription';
import type { BillingThresholds } from './thresholds';
import { findSubscriptionItem, putOnVersion } from './write';

/**
 * A subscription's billing terms beyond its products (docs/usage-billing.md, "Thresholds" and "Commitments"):
 * thresholds that invoice usage mid-period, the least a period is invoiced (`minimum_invoice_fee`, Hyperline's name),
 * and each metered product's committed count.
 */
export interface BillingTermsInput {
  billing_thresholds?: Partial<BillingThresholds> | null;
  minimum_invoice_fee?: number | null;
  /** By catalog product id: null removes the commitment. */
  min_committed_counts?: { product_id: string; count: number | null }[];
}

const termsOf = (s: SubscriptionItem) => ({
  object: 'subscription_billing_terms' as const,
  subscription_id: s.id,
  billing_thresholds: s.billing_thresholds ?? null,
  minimum_invoice_fee: s.minimum_invoice_fee ?? null,
  min_committed_counts: s.products.filter((p) => isMetered(p) && p.min_committed_count).map((p) => ({ product_id: p.product_id, count: p.min_committed_count! })),
});

export const getBillingTerms = async (ctx: Ctx, id: string) => termsOf(await findSubscriptionItem(ctx, id));

function withTerms(s: SubscriptionItem, body: BillingTermsInput, now: string): SubscriptionItem {
  const counts = new Map((body.min_committed_counts ?? []).map((c) => [c.product_id, c.count]));
  for (const productId of counts.keys()) {
    if (!s.products.some((p) => p.product_id === productId && isMetered(p))) {
      throw new RuleViolation('product_not_metered', `Product '${productId}' is not a metered product of subscription '${s.id}': only usage has a committed count.`);
    }
  }
  return {
    ...s,
    ...(body.billing_thresholds !== undefined && { billing_thresholds: body.billing_thresholds && { amount_gte: null, usage_gte: null, ...body.billing_thresholds } }),
    ...(body.minimum_invoice_fee !== undefined && { minimum_invoice_fee: body.minimum_invoice_fee }),
    products: s.products.map((p) => (counts.has(p.product_id) ? { ...p, min_committed_count: counts.get(p.product_id) ?? null } : p)),
    updated_at: now,
    _version: s._version + 1,
  };
}

/**
 * Sets the members given (null removes one): thresholds count from the next usage change, the minimum and the
 * commitments at the next billing date. A write conditioned on the version read, so a billing run that read the
 * subscription before retries on the new terms; a cancelled subscription is 409.
 */
export async function setBillingTerms(ctx: Ctx, id: string, body: BillingTermsInput) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const s = await findSubscriptionItem(ctx, id);
    if (s.status === 'cancelled') throw new Conflict(`Subscription '${id}' is cancelled: its billing terms no longer apply.`);
    const next = withTerms(s, body, ctx.clock.now().toISOString());
    try {
      await transactWrite([putOnVersion(next, s)]);
      return termsOf(next);
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
    }
  }
  throw new ServiceUnavailable();
}
