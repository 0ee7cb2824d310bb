import type { Ctx } from '../../context';
import { chunksOf } from '../../concurrency';
import { batchGet, counterUpdate } from '../../db/pagination';
import { getItem, raceBackoff } from '../../db/items';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { ServiceUnavailable } from '../../errors';
import { customerItemKey, type CustomerItem } from '../customers/customer';
import { renewalInvoiceWrites } from '../invoices/create';
import { INVOICE, type InvoiceItem } from '../invoices/invoice';
import { renumbered } from '../invoices/issue';
import { issueDay, onlyNumbersMoved, takeNumbers } from '../invoices/numbering';
import { entityItemKey, type EntityItem } from '../invoicing-entities/invoicing-entity';
import { advanceItem, billingStep, trialNotice, type BillingStep } from './billing';
import { usageReads } from './metered';
import { dueAt, subscriptionKey, type SubscriptionItem } from './subscription';
import { summaryAlso } from './write';

/**
 * Renewals of one entity written by one transaction: 4 items each (the invoice, the customer's invoice counter, the
 * customer, the subscription), plus the workspace's invoice counter and the entity's numbering counter once, within
 * DynamoDB's 100 items.
 */
const RENEWALS_PER_TRANSACTION = 24;

interface Plan {
  s: SubscriptionItem;
  step: BillingStep;
  customer?: CustomerItem;
}

/**
 * One billing date, nothing else due: a subscription past its billing date, with no trial notice to write, no metered
 * usage to read, an invoice to issue, and its next date still ahead. Anything else is billed alone (billSubscription).
 */
function simpleRenewal(ctx: Ctx, s: SubscriptionItem, now: string): Plan | undefined {
  if (s.status === 'cancelled' || s.next_billing_at === null || s.next_billing_at > now || dueAt(s) > now) return undefined;
  if (trialNotice(ctx, s, now) || usageReads(s).length > 0) return undefined;
  const step = billingStep(ctx, s, now);
  if (step.lines.reduce((sum, l) => sum + l.gross, 0) <= 0) return undefined;
  if (step.next.next_billing_at !== null && step.next.next_billing_at <= now) return undefined;
  return { s, step };
}

/**
 * Attempts of one batch while only the numbering counter moved under it. Each lost race means another taker's numbers
 * were committed, and a retry costs one transaction, so a batch can afford to outlast many concurrent ones.
 */
const NUMBERING_ATTEMPTS = 25;

type RenewalWrites = ReturnType<typeof renewalInvoiceWrites>;

/** The batch's invoices, numbered from the entity's counter in the order of the batch. */
function batchWrites(ctx: Ctx, entity: EntityItem, batch: Plan[]): RenewalWrites[] {
  return batch.map((p, i) =>
    renewalInvoiceWrites(
      ctx,
      { customer_id: p.s.customer_id, invoicing_entity_id: entity.id, currency: p.s.currency, status: 'to_pay', period_starts_at: p.step.period.starts_at, period_ends_at: p.step.period.ends_at },
      { lines: p.step.lines, coupons: p.step.coupons, subscriptionId: p.s.id, collectionMethod: p.s.collection_method, continuing: true, also: [advanceItem(p.step.next, p.s)], customer: summaryAlso(p.step.next) },
      { customer: p.customer, entity: { ...entity, next_invoice_number: entity.next_invoice_number + i } },
    ),
  );
}

/** The same writes with the invoices numbered from where the entity's counter now stands. */
function renumberedWrites(writes: RenewalWrites[], entity: EntityItem): RenewalWrites[] {
  return writes.map((w, i) => {
    const invoice = renumbered(w.invoice, entity, entity.next_invoice_number + i);
    return { invoice, items: w.items.map((item) => (item.Put?.Item === w.invoice ? { Put: { ...item.Put, Item: invoice } } : item)) };
  });
}

/**
 * Whether a batch built on `read` may keep its invoices under new numbers once the entity is `latest`: only its
 * counters moved, and their issue day is still today in the entity's zone. Numbers must not run ahead of dates: a batch
 * built before midnight that lost its numbers to an invoice of the new day is built again, dated that day.
 */
export function renumberable(read: EntityItem, latest: EntityItem, built: Pick<InvoiceItem, 'emitted_at'>, now: Date): boolean {
  return onlyNumbersMoved(read, latest) && issueDay(latest, now) === issueDay(latest, new Date(built.emitted_at));
}

/**
 * One batch's transaction on `entity` as read. When only the entity's counter moved (another batch or invoice took
 * numbers first), its cancellation returns the entity as it stands: the invoices are renumbered from there and the
 * transaction sent again at once, so a retry's window is one round trip. A conflict without the entity backs off and
 * reads it; an entity edited meanwhile (its pattern, its details), or a new day begun, has the invoices built again.
 * Returns the entity as the batch left it, or undefined when the batch wrote nothing and must be billed alone.
 */
async function writeBatch(ctx: Ctx, read: EntityItem, batch: Plan[]): Promise<EntityItem | undefined> {
  let entity = read;
  let writes = batchWrites(ctx, entity, batch);
  for (let attempt = 0; ; attempt++) {
    const items = [...writes.flatMap((w) => w.items), counterUpdate(ctx, INVOICE, batch.length), takeNumbers(ctx, entity, 'invoice', batch.length)];
    try {
      await transactWrite(items);
      return { ...entity, next_invoice_number: entity.next_invoice_number + batch.length, _version: entity._version + 1 };
    } catch (error) {
      const numberTaken = (error instanceof ConditionFailed && error.index === items.length - 1) || error instanceof ServiceUnavailable;
      if (!numberTaken || attempt + 1 >= NUMBERING_ATTEMPTS) return undefined;
      let latest = error instanceof ConditionFailed ? (error.item as EntityItem | undefined) : undefined;
      if (!latest) {
        await raceBackoff(attempt);
        latest = await getItem<EntityItem>(entityItemKey(ctx, entity.id), true);
        if (!latest) return undefined;
      }
      writes = renumberable(entity, latest, writes[0]!.invoice, ctx.clock.now()) ? renumberedWrites(writes, latest) : batchWrites(ctx, latest, batch);
      entity = latest;
    }
  }
}

/**
 * Bills due subscriptions of one workspace together where it is safe: the simple renewals of each invoicing entity,
 * up to RENEWALS_PER_TRANSACTION in ONE transaction that moves the entity's numbering counter from n to n + k and gives
 * the invoices n … n + k − 1 in the order written (each with the subscription's conditional move, as billSubscription
 * writes it). All-or-nothing: a batch whose transaction fails took no number and wrote nothing, and its subscriptions
 * are returned in `alone`, with every one that is not a simple renewal, for billSubscription to bill one by one.
 * Reads: one BatchGetItem of the subscriptions, one of their customers and entities.
 */
export async function billSubscriptionsTogether(ctx: Ctx, ids: readonly string[]): Promise<{ invoiced: string[]; alone: string[] }> {
  const unique = [...new Set(ids)];
  const now = ctx.clock.now().toISOString();
  const subscriptions = (await batchGet(unique.map((id) => subscriptionKey(ctx, id)), true)) as unknown as SubscriptionItem[];
  const found = new Set(subscriptions.map((s) => s.id));
  const alone = unique.filter((id) => !found.has(id));
  const plans: Plan[] = [];
  const customers = new Set<string>();
  for (const s of subscriptions) {
    const plan = simpleRenewal(ctx, s, now);
    // A transaction writes an item once: a second subscription of the same customer waits for the next batch.
    if (!plan || customers.has(s.customer_id)) alone.push(s.id);
    else {
      customers.add(s.customer_id);
      plans.push(plan);
    }
  }
  const invoiced: string[] = [];
  if (plans.length < 2) return { invoiced, alone: [...alone, ...plans.map((p) => p.s.id)] };
  const entityIds = [...new Set(plans.map((p) => p.s.invoicing_entity_id))];
  const read = await batchGet([...plans.map((p) => customerItemKey(ctx, p.s.customer_id)), ...entityIds.map((id) => entityItemKey(ctx, id))], true);
  const byKey = new Map(read.map((item) => [`${item.pk}|${item.sk}`, item]));
  const at = <T>(key: { pk: string; sk: string }) => byKey.get(`${key.pk}|${key.sk}`) as T | undefined;
  for (const plan of plans) plan.customer = at<CustomerItem>(customerItemKey(ctx, plan.s.customer_id));
  for (const entityId of entityIds) {
    let entity = at<EntityItem>(entityItemKey(ctx, entityId));
    const batches = chunksOf(plans.filter((p) => p.s.invoicing_entity_id === entityId), RENEWALS_PER_TRANSACTION);
    for (const [b, batch] of batches.entries()) {
      if (!entity || batch.length < 2) {
        alone.push(...batch.map((p) => p.s.id));
        continue;
      }
      const written = await writeBatch(ctx, entity, batch);
      if (written) {
        entity = written;
        invoiced.push(...batch.map((p) => p.s.id));
      } else {
        // Nothing was written (a subscription or customer changed, or the counter stayed contended): these and the
        // entity's later batches are billed alone, each reading afresh.
        alone.push(...batches.slice(b).flat().map((p) => p.s.id));
        break;
      }
    }
  }
  return { invoiced, alone };
}
