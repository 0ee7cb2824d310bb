import type Stripe from 'stripe';
import type { Ctx } from '../../../context';
import { getItem } from '../../../db/items';
import type { AppliedEvent } from '../../invoices/settle-pending';
import { methodOfReference, refreshCard, removeDetachedMethod } from '../../payment-methods/provider-changes';
import { atStripe } from './errors';

/**
 * `payment_method.detached` / `payment_method.updated`: our saved method of that PaymentMethod, made to agree with
 * the method as Stripe holds it now (never the event's copy, so a late `updated` neither revives a detached method
 * nor undoes a newer expiry): no longer attached to a customer, it is deleted (a later charge is a clear 422, not
 * a charge of a detached method); a card whose brand, last 4 or expiry changed is refreshed.
 */
export async function applyPaymentMethod(ctx: Ctx, stripe: Stripe, method: Stripe.PaymentMethod, event: AppliedEvent): Promise<'recorded' | 'nothing' | 'duplicate'> {
  if (await getItem(event.key, true)) return 'duplicate';
  const ours = await methodOfReference(ctx, 'stripe', method.id);
  if (!ours) return 'nothing';
  const current = await atStripe(() => stripe.paymentMethods.retrieve(method.id));
  if (!current.customer) return removeDetachedMethod(ctx, ours, event);
  if (!current.card) return 'nothing';
  const { brand, last4, exp_month, exp_year } = current.card;
  return refreshCard(ctx, ours.id, { brand, last4, exp_month, exp_year }, event);
}
