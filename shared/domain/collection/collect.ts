import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { putIfUnchanged, retryOnRace, versionCondition } from '../../db/items';
import { transactWrite } from '../../db/transactions';
import { Conflict, DomainError, NotFound } from '../../errors';
import type { CustomerItem } from '../customers/customer';
import { findCustomerItem } from '../customers/read';
import { chargeInvoice } from '../invoices/charge';
import type { InvoiceItem } from '../invoices/invoice';
import { recordPayment } from '../invoices/payments';
import { findInvoiceItem } from '../invoices/read';
import { canMove } from '../invoices/transitions';
import { findEntityItem } from '../invoicing-entities/read';
import { cancelSubscription } from '../subscriptions/cancel';
import { findCustomerWallet } from '../wallets/wallets';
import { afterCollected, afterFailure, afterNotPayable, isDunned, withoutCollectionDue, type Dunned } from './dunning';
import { collectionSettingsOf } from './settings';


/** The invoice moved past the attempt this run read (another run made it, or a payment ended the collection). */
class AttemptSuperseded extends Error {}

export type CollectionOutcome = 'collected' | 'failed' | 'exhausted' | 'final_action' | 'stopped' | 'nothing';

/**
 * The scheduled collection of one invoice (kind `invoice_collect`, docs/collection.md): its due attempt takes what
 * the customer's active wallet holds (when the entity allows it), then charges the rest to the customer's default
 * payment method, with a provider idempotency key derived from the invoice and the attempt. Every write is
 * conditioned on the invoice's version and checks that the invoice is still at this attempt, so two runs at once,
 * or a run repeated after a crash, make one payment and one charge: a crashed run's claim is taken over by its
 * retry, whose charge has the same key (the provider answers it with the same charge).
 */
export async function collectInvoice(ctx: Ctx, id: string): Promise<CollectionOutcome> {
  const invoice = await findInvoiceItem(ctx, id);
  if (!isDunned(invoice)) return 'nothing';
  const d = invoice.dunning;
  if (d.final_action_status === 'pending') return runFinalAction(ctx, invoice);
  if (d.status !== 'active' || !canMove(invoice, 'charge') || invoice.amount_due <= 0) return stop(ctx, id);
  if (!d.next_attempt_at || Date.parse(d.next_attempt_at) > ctx.clock.now().getTime()) return 'nothing';
  const attempt = d.attempt + 1;
  const check = (current: InvoiceItem) => {
    const now = isDunned(current) ? current.dunning : undefined;
    if (!now || now.status !== 'active' || now.attempt !== d.attempt || now.next_attempt_at !== d.next_attempt_at) throw new AttemptSuperseded();
  };
  try {
    const [customer, entity] = await Promise.all([findCustomerItem(ctx, invoice.customer_id), findEntityItem(ctx, invoice.invoicing_entity_id, true)]);
    if (collectionSettingsOf(entity).wallet_collection_enabled && !invoice.wallet_load && (await fromWallet(ctx, invoice, attempt, check)) === 'paid') return 'collected';
    const outcome = await fromPaymentMethod(ctx, invoice, customer, attempt, check);
    if (outcome !== 'exhausted') return outcome;
    // The last retry failed: a final action left pending (cancel_subscription) is done now, not at the next run.
    const after = await findInvoiceItem(ctx, id);
    return isDunned(after) && after.dunning.final_action_status === 'pending' ? runFinalAction(ctx, after) : outcome;
  } catch (error) {
    // Another run is on this attempt (its claim holds) or got past it, or the invoice moved (voided, paid by hand)
    // since it was read: this run has nothing left to do; the next one reads the invoice again.
    if (error instanceof AttemptSuperseded || error instanceof Conflict) return 'nothing';
    throw error;
  }
}

/** What the active wallet holds, up to the amount due, by the path of a wallet payment (payments.ts). */
async function fromWallet(ctx: Ctx, invoice: Dunned, attempt: number, check: (i: InvoiceItem) => void): Promise<'paid' | 'due'> {
  const wallet = await findCustomerWallet(ctx, invoice.customer_id);
  if (!wallet || wallet.state !== 'active' || wallet.balance <= 0) return 'due';
  const paid = await recordPayment(
    ctx, invoice.id, { amount: invoice.amount_due, payment_method_type: 'wallet', comment: `Automatic collection, attempt ${attempt}` },
    { check, finish: (next) => (next.status === 'paid' ? afterCollected(ctx, next as Dunned, attempt) : { item: next, also: [] }) },
  ).catch((error: unknown) => {
    // The wallet was paused or emptied meanwhile: the payment method pays it all.
    if (error instanceof DomainError && (error.code === 'wallet_paused' || error.code === 'wallet_missing' || error.code === 'insufficient_wallet_balance')) return undefined;
    throw error;
  });
  return paid?.status === 'paid' ? 'paid' : 'due';
}

async function fromPaymentMethod(ctx: Ctx, invoice: Dunned, customer: CustomerItem, attempt: number, check: (i: InvoiceItem) => void): Promise<CollectionOutcome> {
  const remind = customer.invoice_reminders_enabled;
  // The customer's default now (a new one re-arms the collection), else the one the invoice names.
  const methodId = customer.current_payment_method_id ?? invoice.payment_method_id ?? undefined;
  if (!methodId) return failWithoutCharge(ctx, invoice.id, attempt, 'payment_method_missing', remind, check);
  const providerKey = `collect_${invoice.id}_${attempt}_${Date.parse(invoice.dunning.next_attempt_at!)}`;
  try {
    const charged = await chargeInvoice(ctx, invoice.id, methodId, {
      providerKey, check,
      // A pending charge (a debit processing, 3-D Secure awaited) leaves the collection where it is until the provider says.
      finish: (next, result) =>
        result.status === 'succeeded' ? afterCollected(ctx, next as Dunned, attempt)
        : result.status === 'failed' ? afterFailure(ctx, next as Dunned, { attempt, errorType: result.errorType, remind })
        : { item: { ...next, pending_charge: { ...next.pending_charge!, collection_attempt: attempt } }, also: [] },
    });
    return charged.status === 'paid' ? 'collected' : charged.dunning?.status === 'exhausted' ? 'exhausted' : 'failed';
  } catch (error) {
    if (error instanceof DomainError && (error.code === 'payment_method_not_found' || error.code === 'payment_method_missing')) {
      return failWithoutCharge(ctx, invoice.id, attempt, error.code, remind, check);
    }
    throw error;
  }
}

/** An attempt that could not reach the provider (no payment method): it counts as failed, without a transaction. */
async function failWithoutCharge(ctx: Ctx, id: string, attempt: number, errorType: string, remind: boolean, check: (i: InvoiceItem) => void): Promise<CollectionOutcome> {
  return retryOnRace(async () => {
    const invoice = await findInvoiceItem(ctx, id);
    check(invoice);
    const { item, also } = afterFailure(ctx, invoice as Dunned, { attempt, errorType, remind });
    const next = { ...item, updated_at: ctx.clock.now().toISOString(), _version: invoice._version + 1 };
    await transactWrite([{ Put: { TableName: tableName(), Item: next, ...versionCondition(invoice._version) } }, ...also]);
    return next.dunning?.status === 'exhausted' ? 'exhausted' : 'failed';
  });
}

/**
 * `cancel_subscription` after the last retry: the invoice's subscription is cancelled at once (a subscription
 * cancelled already counts as done; an invoice paid meanwhile cancels nothing), then the invoice leaves the
 * scheduling index. Safe to run twice.
 */
async function runFinalAction(ctx: Ctx, invoice: Dunned): Promise<CollectionOutcome> {
  if (invoice.subscription_id && canMove(invoice, 'charge')) {
    await cancelSubscription(ctx, invoice.subscription_id, { mode: 'immediately' }).catch((error: unknown) => {
      if (!(error instanceof Conflict || error instanceof NotFound)) throw error;
    });
  }
  await retryOnRace(async () => {
    const current = await findInvoiceItem(ctx, invoice.id);
    if (!isDunned(current) || current.dunning.final_action_status !== 'pending') return;
    const next = { ...withoutCollectionDue(current), dunning: { ...current.dunning, final_action_status: 'done' as const }, updated_at: ctx.clock.now().toISOString() };
    await putIfUnchanged(next, current._version);
  });
  return 'final_action';
}

/** The invoice is no longer collected (paid, voided, credited, uncollectible): out of the scheduling index. */
async function stop(ctx: Ctx, id: string): Promise<CollectionOutcome> {
  return retryOnRace(async () => {
    const current = await findInvoiceItem(ctx, id);
    if (!isDunned(current) || !current.gsi4sk) return 'nothing';
    await putIfUnchanged(afterNotPayable(current), current._version);
    return 'stopped';
  });
}
