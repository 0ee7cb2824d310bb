import type { Ctx } from '../../../context';
import { getItem } from '../../../db/items';
import { connectionKey, type ProviderConnectionItem } from '../../payment-providers/connection';
import { connectedStripe } from '../../payment-providers/connect';
import type { PaymentMethodItem } from '../../payment-methods/payment-method';
import { atStripe, isStripeError } from './errors';

/**
 * A saved Stripe method being deleted: its PaymentMethod detached from the Stripe customer, so Stripe holds no usable
 * method that the service no longer shows. Under the key `detach:<pm_…>`: a retry (the SDK's, or the caller's after
 * a 503) gets Stripe's first answer again. A method Stripe no longer has attached (detached in the dashboard, or by
 * an earlier try whose answer was lost after Stripe forgot the key) is done already. Not detached: a method of another
 * Stripe account than the one connected now, or none connected (nothing can reach that account; the method is only
 * deleted here).
 */
export async function detachFromStripe(ctx: Ctx, method: PaymentMethodItem): Promise<'detached' | 'not_attached' | 'unreachable'> {
  const connection = await getItem<ProviderConnectionItem>(connectionKey(ctx, 'stripe'), true);
  if (!connection || (method.provider_account_id && method.provider_account_id !== connection.account_id)) return 'unreachable';
  const { stripe } = await connectedStripe(ctx);
  try {
    await atStripe(() => stripe.paymentMethods.detach(method.provider_reference, {}, { idempotencyKey: `detach:${method.provider_reference}` }));
    return 'detached';
  } catch (error) {
    // Stripe refuses the detach as asked (not attached, or unknown): nothing is attached to take off.
    if (isStripeError(error, 'StripeInvalidRequestError')) return 'not_attached';
    throw error;
  }
}
