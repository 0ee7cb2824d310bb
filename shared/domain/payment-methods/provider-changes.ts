import { isDeepStrictEqual } from 'node:util';
import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem, retryOnRace, versionCondition } from '../../db/items';
import { transactWrite, type TransactItem } from '../../db/transactions';
import { NotFound } from '../../errors';
import { appliedEventPut, type AppliedEvent } from '../invoices/settle-pending';
import { customerItemKey, type CustomerItem } from '../customers/customer';
import type { CardDetails, PaymentProviderName } from '../payments/provider';
import { methodReferenceKey, methodSummary, paymentMethodKey, type MethodReferenceItem, type PaymentMethodItem } from './payment-method';
import { cardExpiryDueKeys } from './expiry';
import { deletePaymentMethod } from './payment-methods';

/*
 * Changes a provider makes to a saved method on its side (a detached method, a card's new expiry), applied with the
 * record of the provider's event in one transaction: `nothing` when there is nothing to change.
 */

export type MethodChange = 'recorded' | 'nothing';

/** Our live method that a provider's handle names, through its reference item (no scan); undefined when none. */
export async function methodOfReference(ctx: Ctx, provider: PaymentProviderName, reference: string): Promise<PaymentMethodItem | undefined> {
  const link = await getItem<MethodReferenceItem>(methodReferenceKey(ctx, provider, reference), true);
  const method = link && (await getItem<PaymentMethodItem>(paymentMethodKey(ctx, link.payment_method_id), true));
  return method && !method.deleted_at && method.provider_reference === reference ? method : undefined;
}

/** The provider no longer holds the method for the customer: deleted as DELETE deletes it, so no charge uses it. */
export async function removeDetachedMethod(ctx: Ctx, method: PaymentMethodItem, event: AppliedEvent): Promise<MethodChange> {
  try {
    await deletePaymentMethod(ctx, method.customer_id, method.id, [appliedEventPut(event)]);
    return 'recorded';
  } catch (error) {
    // Deleted meanwhile (through the API, or by a concurrent delivery of this event), or its customer was.
    if (error instanceof NotFound) return 'nothing';
    throw error;
  }
}

/**
 * A card's details as the provider now reports them (a new expiry after the bank renewed it, Stripe's card updater),
 * on the method and, when it is the customer's default, on the customer's summary of it.
 */
export async function refreshCard(ctx: Ctx, methodId: string, card: CardDetails, event: AppliedEvent): Promise<MethodChange | 'duplicate'> {
  return retryOnRace(async () => {
    if (await getItem(event.key, true)) return 'duplicate';
    const method = await getItem<PaymentMethodItem>(paymentMethodKey(ctx, methodId), true);
    if (!method || method.deleted_at || !method.card || isDeepStrictEqual(method.card, card)) return 'nothing';
    const now = ctx.clock.now().toISOString();
    // A new expiry gets its own notice (expiry.ts): the card's entry moves to the new notice date.
    const next: PaymentMethodItem = { ...method, card, ...cardExpiryDueKeys(ctx, { id: method.id, card }), updated_at: now, _version: method._version + 1 };
    const customer = await getItem<CustomerItem>(customerItemKey(ctx, method.customer_id), true);
    const summary: TransactItem[] = customer?.current_payment_method_id === method.id
      ? [{
          Update: {
            TableName: tableName(), Key: customerItemKey(ctx, customer.id),
            UpdateExpression: 'SET current_payment_method_summary = :summary, updated_at = :now, #v = #v + :one',
            ConditionExpression: '#v = :read',
            ExpressionAttributeNames: { '#v': '_version' },
            ExpressionAttributeValues: { ':summary': methodSummary(next), ':now': now, ':one': 1, ':read': customer._version },
          },
        }]
      : [];
    await transactWrite([{ Put: { TableName: tableName(), Item: next, ...versionCondition(method._version) } }, ...summary, appliedEventPut(event)]);
    return 'recorded';
  });
}
