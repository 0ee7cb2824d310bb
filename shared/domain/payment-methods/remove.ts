import type { Ctx } from '../../context';
import { detachFromStripe } from '../payments/stripe/detach';
import type { PaymentMethod } from './payment-method';
import { deletePaymentMethod, findPaymentMethod } from './payment-methods';

/**
 * `DELETE /v1/customers/{id}/payment-methods/{pmId}` (and the portal's "remove"): a Stripe method is first detached at
 * Stripe, then deleted here. In that order, a failure in between is safe to retry: Stripe unreachable is a 503 with
 * nothing deleted, and the retry detaches under the same key (Stripe's first answer again) before deleting; a crash
 * after the detach leaves the method to the retry, or to Stripe's `payment_method.detached`, which deletes it as this
 * does. Apart from payment-methods.ts so that only the routes that delete bundle Stripe's SDK.
 */
export async function removePaymentMethod(ctx: Ctx, customerId: string, id: string): Promise<PaymentMethod> {
  // One that cannot be found is refused by the delete itself, with its own 404s.
  const method = await findPaymentMethod(ctx, customerId, id).catch(() => undefined);
  if (method?.provider === 'stripe') await detachFromStripe(ctx, method);
  return deletePaymentMethod(ctx, customerId, id);
}
