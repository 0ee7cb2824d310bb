import type { Ctx } from '../../context';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { Conflict, ServiceUnavailable, RuleViolation } from '../../errors';
import { isMetered } from './metered';
import type { PrepaidCommit } from './prepaid-commit';
import type { SubscriptionItem } from './subscription';
import type { BillingThresholds } from './thresholds';
import { findSubscriptionItem, putOnVersion } from './write';

/**
 * A subscription's billing terms beyond its products (docs/usage-billing.md, "Thresholds" and "Commitments"):
 * thresholds that invoice usage mid-period, the least a period is invoiced (`minimum_invoice_fee`, Hyperline's name),
 * each metered product's committed count, and a prepaid commit drawn down by usage (prepaid-commit.ts).
 */
export interface BillingTermsInput {
  billing_thresholds?: Partial<BillingThresholds> | null;
  minimum_invoice_fee?: number | null;
  /** By catalog product id: null removes the commitment. */
  min_committed_counts?: { product_id: string; count: number | null }[];
  prepaid_commit?: { amount: number; rollover?: boolean } | null;
}

const termsOf = (s: SubscriptionItem) => ({
  object: 'subscription_billing_terms' as const,
  subscription_id: s.id,
  billing_thresholds: s.billing_thresholds ?? null,
  minimum_invoice_fee: s.minimum_invoice_fee ?? null,
  min_committed_counts: s.products.filter((p) => isMetered(p) && p.min_committed_count).map((p) => ({ product_id: p.product_id, count: p.min_committed_count! })),
  prepaid_commit: s.prepaid_commit ?? null,
  commit_balance: s.commit_balance ?? null,
});

/** The commit asked for, refused when it cannot be honoured as documented (docs/usage-billing.md, "Prepaid commits"). */
function commitOf(body: BillingTermsInput, s: SubscriptionItem): PrepaidCommit | null | undefined {
  const commit = body.prepaid_commit;
  if (commit?.rollover) throw new RuleViolation('rollover_not_supported', 'A prepaid commit\'s unused part expires at the end of its period: rollover is not supported, send `rollover: false` or leave it out.');
  const minimum = body.minimum_invoice_fee !== undefined ? body.minimum_invoice_fee : s.minimum_invoice_fee;
  const committed = commit !== undefined ? commit : s.prepaid_commit;
  if (minimum && committed) {
    throw new RuleViolation('commit_with_minimum_fee', 'A subscription has a prepaid commit or a minimum_invoice_fee, not both: the commit is already the least each period is invoiced.');
  }
  return commit && { amount: commit.amount, rollover: false };
}

export const getBillingTerms = async (ctx: Ctx, id: string) => termsOf(await findSubscriptionItem(ctx, id));

function withTerms(s: SubscriptionItem, body: BillingTermsInput, now: string): SubscriptionItem {
  const counts = new Map((body.min_committed_counts ?? []).map((c) => [c.product_id, c.count]));
  for (const productId of counts.keys()) {
    if (!s.products.some((p) => p.product_id === productId && isMetered(p))) {
      throw new RuleViolation('product_not_metered', `Product '${productId}' is not a metered product of subscription '${s.id}': only usage has a committed count.`);
    }
  }
  const commit = commitOf(body, s);
  return {
    ...s,
    ...(body.billing_thresholds !== undefined && { billing_thresholds: body.billing_thresholds && { amount_gte: null, usage_gte: null, ...body.billing_thresholds } }),
    ...(body.minimum_invoice_fee !== undefined && { minimum_invoice_fee: body.minimum_invoice_fee }),
    ...(commit !== undefined && { prepaid_commit: commit }),
    products: s.products.map((p) => (counts.has(p.product_id) ? { ...p, min_committed_count: counts.get(p.product_id) ?? null } : p)),
    updated_at: now,
    _version: s._version + 1,
  };
}

/**
 * Sets the members given (null removes one): thresholds count from the next usage change, the minimum, the
 * commitments and the prepaid commit at the next billing date (the running period keeps the commit it was invoiced). A write conditioned on the version read, so a billing run that read the
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
