import type { EventDraft } from '../events/catalog';
import { toPaymentMethod, type PaymentMethodItem } from './payment-method';

/**
 * `payment_method.created` on insert (with Hyperline's `payment_method.activated`: a saved method is active at once), `payment_method.deleted` on the soft delete, `payment_method.expiring` when a
 * card's expiry notice is recorded (30 days before its expiry month ends, once per expiry: expiry.ts); nothing else.
 * The stream sees the payment method alone, so `is_default` in the data is what it was when the method was saved
 * (created) or noticed (expiring), and false once deleted (a deleted method is never the default).
 */
export function paymentMethodEvents(before: PaymentMethodItem | undefined, after: PaymentMethodItem | undefined): EventDraft[] {
  if (!after) return [];
  if (!before) {
    const data = toPaymentMethod(after, after.created_as_default ? after.id : null);
    return [{ type: 'payment_method.created', data }, { type: 'payment_method.activated', data }];
  }
  if (!before.deleted_at && after.deleted_at) return [{ type: 'payment_method.deleted', data: toPaymentMethod(after, null) }];
  const notice = after.expiry_notice;
  if (notice && notice.expiration_date !== before.expiry_notice?.expiration_date) {
    return [{ type: 'payment_method.expiring', data: toPaymentMethod(after, notice.was_default ? after.id : null) }];
  }
  return [];
}
