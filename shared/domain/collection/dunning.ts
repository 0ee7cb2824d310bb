import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { dueIndexKeys, type Key } from '../../db/keys';
import type { TransactItem } from '../../db/transactions';
import { customerItemKey } from '../customers/customer';
import { invoiceListFields, type InvoiceItem } from '../invoices/invoice';
import { delayMs, type DunningFinalAction, type RetryDelay } from './settings';

/** The collection's kind in the scheduling index (gsi4): the invoice's next collection attempt (or final action). */
export const COLLECTION = 'invoice_collect';

/**
 * The collection and dunning state of an automatic invoice (docs/collection.md), public as `invoice.dunning`.
 * `attempt` counts the attempts of the current round (a new default payment method starts a new round).
 */
export interface DunningState {
  status: 'active' | 'succeeded' | 'stopped' | 'exhausted';
  attempt: number;
  next_attempt_at: string | null;
  /** The round's first failure: the retries of the schedule are counted from it. */
  started_at: string | null;
  last_attempt_at: string | null;
  last_error_type: string | null;
  retry_schedule: RetryDelay[];
  final_action: DunningFinalAction;
  /** `pending` between the last failure and the final action's completion (it may need a second write). */
  final_action_status: 'pending' | 'done' | null;
  stopped_reason: 'manual_payment' | 'not_payable' | null;
  /** The last reminder due (customers with `invoice_reminders_enabled`): each new one is `invoice.reminder_due`. */
  reminder: { attempt: number; phase: 'before_due' | 'after_due'; at: string } | null;
}

export type Dunned = InvoiceItem & { dunning: DunningState };

/** The invoice as a collection step leaves it, and what else its write holds (the customer's list of dunned invoices). */
export interface CollectionWrite {
  item: InvoiceItem;
  also: TransactItem[];
}

export const collectionDueKeys = (ctx: Ctx, at: string, id: string) => dueIndexKeys(ctx, at, COLLECTION, id);

/** The invoice out of the scheduling index, when the item there is its collection (never another kind's). */
export function withoutCollectionDue<T extends InvoiceItem>(item: T): T {
  if (!item.gsi4sk?.includes(`#${COLLECTION}#`)) return item;
  const { gsi4pk: _pk, gsi4sk: _sk, ...rest } = item;
  return rest as T;
}

export const isDunned = (item: InvoiceItem): item is Dunned => !!item.dunning;

/** The first attempt of an automatic invoice, due now. */
export const firstAttempt = (now: string, schedule: RetryDelay[], finalAction: DunningFinalAction): DunningState => ({
  status: 'active', attempt: 0, next_attempt_at: now, started_at: null, last_attempt_at: null, last_error_type: null,
  retry_schedule: schedule, final_action: finalAction, final_action_status: null, stopped_reason: null, reminder: null,
});

/** Where the customer's invoices in dunning are listed (re-armed by a new default payment method): `DUNNING#<invoice>`. */
export const dunningRefKey = (ctx: Ctx, customerId: string, invoiceId: string): Key => ({ pk: customerItemKey(ctx, customerId).pk, sk: `DUNNING#${invoiceId}` });

const refPut = (ctx: Ctx, invoice: InvoiceItem): TransactItem => ({
  Put: { TableName: tableName(), Item: { ...dunningRefKey(ctx, invoice.customer_id, invoice.id), _type: 'dunning_ref', invoice_id: invoice.id } },
});
const refDelete = (ctx: Ctx, invoice: InvoiceItem): TransactItem => ({ Delete: { TableName: tableName(), Key: dunningRefKey(ctx, invoice.customer_id, invoice.id) } });

export interface FailedAttempt {
  attempt: number;
  errorType: string;
  /** The customer wants payment reminders (`invoice_reminders_enabled`). */
  remind: boolean;
}

/**
 * The invoice after its collection attempt `attempt` failed (pure): the next retry of the schedule, or the schedule
 * exhausted with its final action (`mark_uncollectible` in this same write; `cancel_subscription` pending, done by
 * the next step of the work). The returned items go in the same transaction (the customer's list of dunned invoices).
 */
export function afterFailure(ctx: Ctx, invoice: Dunned, failed: FailedAttempt): CollectionWrite {
  const now = ctx.clock.now().toISOString();
  const d = invoice.dunning;
  const started_at = d.started_at ?? now;
  const retry = d.retry_schedule[failed.attempt - 1];
  const reminder = failed.remind ? { attempt: failed.attempt, phase: now < invoice.due_at ? 'before_due' as const : 'after_due' as const, at: now } : d.reminder;
  const base = { ...d, attempt: failed.attempt, started_at, last_attempt_at: now, last_error_type: failed.errorType, reminder };
  if (retry) {
    const next_attempt_at = new Date(Date.parse(started_at) + delayMs(retry)).toISOString();
    const item = { ...withoutCollectionDue(invoice), ...collectionDueKeys(ctx, next_attempt_at, invoice.id), dunning: { ...base, next_attempt_at } };
    return { item, also: [refPut(ctx, invoice)] };
  }
  const exhausted: DunningState = { ...base, status: 'exhausted', next_attempt_at: null, final_action_status: 'done' };
  if (d.final_action === 'mark_uncollectible') {
    const item: InvoiceItem = { ...withoutCollectionDue(invoice), status: 'uncollectible', dunning: exhausted, written_off_at: now };
    item.lf = invoiceListFields(item);
    return { item, also: [refDelete(ctx, invoice)] };
  }
  if (d.final_action === 'cancel_subscription' && invoice.subscription_id) {
    const pending = { ...exhausted, final_action_status: 'pending' as const };
    return { item: { ...withoutCollectionDue(invoice), ...collectionDueKeys(ctx, now, invoice.id), dunning: pending }, also: [refPut(ctx, invoice)] };
  }
  // Nothing to do: the invoice stays payable, and a new default payment method starts a new round.
  return { item: { ...withoutCollectionDue(invoice), dunning: exhausted }, also: [refPut(ctx, invoice)] };
}

/** Paid by the collection itself: the round is over. */
export function afterCollected(ctx: Ctx, invoice: Dunned, attempt: number): CollectionWrite {
  const now = ctx.clock.now().toISOString();
  const dunning: DunningState = { ...invoice.dunning, status: 'succeeded', attempt, next_attempt_at: null, last_attempt_at: now, last_error_type: null };
  return { item: { ...withoutCollectionDue(invoice), dunning }, also: [refDelete(ctx, invoice)] };
}

/**
 * A payment made outside the collection (recorded, or a charge asked through the API) stops the collection: the
 * rest, if any, is the merchant's to collect (docs/collection.md). A collection already over is left as it is.
 */
export function afterOutsidePayment(ctx: Ctx, invoice: InvoiceItem): CollectionWrite {
  if (!isDunned(invoice) || (invoice.dunning.status !== 'active' && invoice.dunning.status !== 'exhausted')) return { item: invoice, also: [] };
  if (invoice.dunning.final_action_status === 'pending') return { item: invoice, also: [] };
  const dunning: DunningState = { ...invoice.dunning, status: 'stopped', next_attempt_at: null, stopped_reason: 'manual_payment' };
  return { item: { ...withoutCollectionDue(invoice), dunning }, also: [refDelete(ctx, invoice)] };
}

/** The invoice is no longer payable (paid, voided, credited, marked uncollectible by hand): its collection stops. */
export function afterNotPayable(invoice: Dunned): InvoiceItem {
  const over = invoice.dunning.status === 'active';
  return { ...withoutCollectionDue(invoice), dunning: over ? { ...invoice.dunning, status: 'stopped', next_attempt_at: null, stopped_reason: 'not_payable' } : invoice.dunning };
}

/** A new default payment method: a new round, its first attempt due now. */
export function rearmed(ctx: Ctx, invoice: Dunned): InvoiceItem {
  const now = ctx.clock.now().toISOString();
  const dunning: DunningState = { ...invoice.dunning, status: 'active', attempt: 0, started_at: null, next_attempt_at: now, final_action_status: null, stopped_reason: null };
  return { ...withoutCollectionDue(invoice), ...collectionDueKeys(ctx, now, invoice.id), dunning };
}
