import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem, retryOnRace, versionCondition } from '../../db/items';
import type { Key } from '../../db/keys';
import { transactWrite, type TransactItem } from '../../db/transactions';
import { Conflict } from '../../errors';
import { afterCollected, afterFailure, afterOutsidePayment, isDunned, type CollectionWrite } from '../collection/dunning';
import { findCustomerItem } from '../customers/read';
import type { ChargeResult } from '../payments/provider';
import type { InvoiceItem } from './invoice';
import { pendingCheckDelete } from './pending-check';
import { invoiceKey } from './invoice';
import { settlementItems, withSettledCharge, type SettledOutcome } from './settle';
import { canMove } from './transitions';

/** A provider's event, kept (conditionally) with its effect so that a redelivery changes nothing. */
export interface AppliedEvent {
  key: Key;
  /** Epoch seconds: DynamoDB forgets the record then (the provider stops redelivering long before). */
  ttl: number;
}

/** Where the charge is: settled now, still pending, not pending on this provider id (nothing to do), an event seen before. */
export type PendingOutcome = 'settled' | 'still_pending' | 'nothing' | 'duplicate';

/** The event's record, in the transaction of its effect: it fails (a race lost to a redelivery) when already there. */
export const appliedEventPut = (event: AppliedEvent): TransactItem => ({
  Put: { TableName: tableName(), Item: { ...event.key, _type: 'provider_event', ttl: event.ttl }, ConditionExpression: 'attribute_not_exists(pk)' },
});

/** The charge's outcome moves the collection that made it (docs/collection.md); a charge asked through the API stops it when paid. */
async function collectionMove(ctx: Ctx, invoice: InvoiceItem, attempt: number | undefined, outcome: SettledOutcome): Promise<CollectionWrite> {
  if (attempt === undefined || !isDunned(invoice) || invoice.dunning.status !== 'active') {
    return outcome.status === 'succeeded' ? afterOutsidePayment(ctx, invoice) : { item: invoice, also: [] };
  }
  if (outcome.status === 'succeeded') return afterCollected(ctx, invoice, attempt);
  const customer = await findCustomerItem(ctx, invoice.customer_id);
  return afterFailure(ctx, invoice, { attempt, errorType: outcome.errorType, remind: customer.invoice_reminders_enabled });
}

/**
 * Applies what the provider says of the invoice's pending charge `providerId` (a webhook, the reconciliation): paid
 * or failed, in one transaction with the end of its reconciliation check and the event's record (conditioned on its
 * absence: a redelivery is a duplicate). `learn` asks the provider for the charge's current state, so an event that
 * arrives late or out of order never sets an older state; a charge still pending, or no longer pending on this id,
 * changes nothing. A charge whose attempt is still being recorded (`attemptId`) is a 409: the caller retries later.
 */
export async function settlePendingCharge(
  ctx: Ctx, invoiceId: string, providerId: string, learn: () => Promise<ChargeResult>, options: { event?: AppliedEvent; attemptId?: string } = {},
): Promise<PendingOutcome> {
  const { event } = options;
  return retryOnRace(async () => {
    if (event && (await getItem(event.key, true))) return 'duplicate';
    const invoice = await getItem<InvoiceItem>(invoiceKey(ctx, invoiceId), true);
    if (invoice && !invoice.pending_charge && options.attemptId && invoice.charge_attempt?.id === options.attemptId) {
      throw new Conflict(`The charge of invoice '${invoiceId}' is still being recorded; send the event again later.`, 'charge_in_progress');
    }
    const pending = invoice?.pending_charge;
    if (!invoice || !pending || pending.provider_id !== providerId) return 'nothing';
    const result = await learn();
    if (result.status === 'pending') return 'still_pending';
    const outcome: SettledOutcome = result.status === 'succeeded'
      ? { status: 'succeeded', providerFee: result.providerFee ?? null }
      : { status: 'failed', errorType: result.errorType, message: result.message };
    const payable = canMove(invoice, 'pay');
    const settled = withSettledCharge(ctx, invoice, outcome, payable);
    const moved = payable ? await collectionMove(ctx, settled, pending.collection_attempt, outcome) : { item: settled, also: [] };
    const next = { ...moved.item, _version: invoice._version + 1 };
    const record = event ? [appliedEventPut(event)] : [];
    await transactWrite([
      { Put: { TableName: tableName(), Item: next, ...versionCondition(invoice._version) } },
      pendingCheckDelete(ctx, invoiceId), ...moved.also, ...record, ...(await settlementItems(ctx, next)),
    ]);
    return 'settled';
  });
}
