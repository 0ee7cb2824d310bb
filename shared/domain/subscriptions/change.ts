import type { Ctx } from '../../context';
import { transactWrite, type TransactItem } from '../../db/transactions';
import { Conflict, InvalidRequest, RuleViolation } from '../../errors';
import { productUsableCheck } from '../catalog/usable';
import type { CollectionMethod } from '../collection/settings';
import { isMetered } from './metered';
import { checkedChange, type SubscriptionProductInput } from './prepare';
import { creditUse, NO_PRORATION, prorate, type Proration } from './proration';
import { retryChange, settle, upToDate, type ProrationBehavior } from './settle';
import { subscriptionListFields, toSubscription, type StoredSubscriptionProduct, type Subscription, type SubscriptionItem } from './subscription';
import { putOnVersion } from './write';

export interface ChangeInput {
  /** The new full product list (absent: the products stay). */
  products?: SubscriptionProductInput[];
  /** Its invoices' collection method from now on (null: the customer's); a plain setting, never prorated. */
  collection_method?: CollectionMethod | null;
  /** `now` (default) or at the next billing date. */
  effective?: 'now' | 'next_period';
  /** A change now: `create_invoice` (default), `next_invoice` or `none`. */
  proration_behavior?: ProrationBehavior;
}

/** A period is running and billed (the current one started at a billing date): a change now prorates within it. */
const running = (s: SubscriptionItem) => (s.status === 'active' || s.status === 'paused') && s.billing_index >= 1;

/**
 * A metered product billed on its usage cannot leave or change price mid-period: its usage so far would need a
 * reading of its own. Removing or replacing one applies at the next period (422 otherwise); adding one now is fine
 * (its usage of the whole period is billed at the period's end).
 */
function assertMeteredKept(before: StoredSubscriptionProduct[], after: StoredSubscriptionProduct[]): void {
  const gone = before.filter((p) => isMetered(p) && !after.some((q) => q.id === p.id));
  if (gone.length > 0) {
    throw new RuleViolation(
      'metered_change_at_period_end',
      `Product '${gone[0]!.product_id}' is billed on its usage: remove it or change its price with effective 'next_period' (its usage is billed per whole period).`,
    );
  }
}

/** 400 unless the body changes something: `effective` and `proration_behavior` only qualify a product change. */
function assertSomethingToChange(input: ChangeInput): void {
  if (input.products !== undefined) return;
  const qualifier = (['effective', 'proration_behavior'] as const).find((k) => input[k] !== undefined);
  if (qualifier) throw new InvalidRequest(`${qualifier} applies to a change of products: give products with it.`, [{ path: 'body.products', message: 'is required with ' + qualifier }]);
  if (input.collection_method === undefined) throw new InvalidRequest('Give products or collection_method to change.', [{ path: 'body', message: 'must have products or collection_method' }]);
}

/** The subscription a change decides on (upToDate); 409 once cancelled. */
async function changeable(ctx: Ctx, id: string): Promise<SubscriptionItem> {
  const current = await upToDate(ctx, id);
  if (current.status === 'cancelled') throw new Conflict(`Subscription '${id}' is cancelled; it can no longer change.`);
  return current;
}

/**
 * Only the collection method given: one write on the version read (a lost race re-reads). Billing dates already
 * passed are billed first (upToDate), so their invoices keep the method they were due under.
 */
async function changeCollectionMethod(ctx: Ctx, id: string, method: CollectionMethod | null): Promise<Subscription> {
  return retryChange(async () => {
    const current = await changeable(ctx, id);
    const next: SubscriptionItem = { ...current, collection_method: method, updated_at: ctx.clock.now().toISOString(), _version: current._version + 1 };
    await transactWrite([putOnVersion(next, current)]);
    return toSubscription(next);
  });
}

/** What a change of products decides on the subscription read: what it becomes, its proration and its checks. */
interface PlannedChange {
  next: SubscriptionItem;
  proration: Proration;
  checks: TransactItem[];
  /** At the next billing date (`scheduled_products`), not now. */
  later: boolean;
}

/**
 * The decision of a change of products (shared by the change and its preview, so a preview shows exactly what the
 * change would do): checked as at creation, applied now (prorated) or at the next billing date.
 */
async function planChange(ctx: Ctx, current: SubscriptionItem, input: ChangeInput & { products: SubscriptionProductInput[] }): Promise<PlannedChange> {
  const checked = await checkedChange(ctx, current, input.products);
  const now = ctx.clock.now().toISOString();
  const checks = checked.productIds.map((productId) => productUsableCheck(ctx, productId));
  // A collection method given with the products is written at once, whenever the products change.
  const method = input.collection_method === undefined ? {} : { collection_method: input.collection_method };
  const base = { ...current, ...method, updated_at: now, _version: current._version + 1 };
  const later = input.effective === 'next_period' && running(current);
  if (!later && running(current)) assertMeteredKept(current.products, checked.products);
  const next: SubscriptionItem = later ? { ...base, scheduled_products: checked.products } : { ...base, products: checked.products, scheduled_products: null };
  next.lf = subscriptionListFields(next);
  const window = { starts_at: current.current_period_started_at, ends_at: current.current_period_ends_at, at: now };
  const proration = later || !running(current) ? NO_PRORATION : prorate(current.products, checked.products, window, current.advance_billed ?? true);
  return { next, proration, checks, later };
}

/**
 * `PATCH /v2/subscriptions/{id}`: a new product list, checked as at creation, applied now (prorated per
 * `proration_behavior`, settle.ts) or at the next billing date (`scheduled_change`, replacing any scheduled before).
 * A subscription not yet in a billed period (pending, in its trial) takes the change at once without proration. One
 * transaction conditioned on the version read; a lost race re-reads and decides again. 409 once cancelled.
 * `collection_method` is a plain setting, not a change of products: written at once (with the products when given),
 * it applies to the invoices issued from then on (docs/collection.md).
 */
export async function changeSubscription(ctx: Ctx, id: string, input: ChangeInput): Promise<Subscription> {
  assertSomethingToChange(input);
  if (input.products === undefined) return changeCollectionMethod(ctx, id, input.collection_method!);
  const products = input.products;
  return retryChange(async () => {
    const current = await changeable(ctx, id);
    const { next, proration, checks } = await planChange(ctx, current, { ...input, products });
    const behavior = input.proration_behavior ?? 'create_invoice';
    const now = next.updated_at;
    await settle(ctx, { current, next, proration, behavior, period: { starts_at: now, ends_at: current.current_period_ends_at }, summary: false, checks });
    return toSubscription(next);
  });
}

/** What a change of products would do now, amounts excluding tax, as `create_invoice` would settle it (settle.ts). */
export interface ChangePreview {
  /** The products after the change. */
  products: Subscription['products'];
  /** At the next billing date: nothing is prorated. */
  later: boolean;
  lines: Array<{ name: string; description: string | null; amount: number }>;
  credits: Array<{ name: string; amount: number }>;
  /** Invoiced now: the charges less the credits they absorb. */
  due_now: number;
  /** The credit the charges cannot absorb, credited to the customer's wallet (plus its tax). */
  to_wallet: number;
  currency: string;
}

/**
 * The preview of a change (the portal's step before confirming): the very decision `changeSubscription` takes
 * (planChange), on the subscription as it is now, without writing anything.
 */
export async function previewSubscriptionChange(ctx: Ctx, id: string, input: ChangeInput & { products: SubscriptionProductInput[] }): Promise<ChangePreview> {
  const current = await changeable(ctx, id);
  const { next, proration, later } = await planChange(ctx, current, input);
  const { absorbed, left } = creditUse(proration.lines, [], proration.credits);
  const charged = proration.lines.reduce((sum, l) => sum + l.gross, 0);
  return {
    products: toSubscription(next).products,
    later,
    lines: proration.lines.map((l) => ({ name: l.name, description: l.description, amount: l.gross })),
    credits: proration.credits.map((c) => ({ name: c.name, amount: c.discount_amount ?? 0 })),
    due_now: charged - absorbed,
    to_wallet: left.reduce((sum, c) => sum + (c.discount_amount ?? 0), 0),
    currency: current.currency,
  };
}
