import type { EventDraft } from '../events/catalog';
import { toPaymentMethod, type PaymentMethodItem } from './payment-method';

/**
 * `payment_method.created` on insert and `payment_method.deleted` on the soft delete; nothing else. The stream sees
 * the payment method alone, so `is_default` in the data is what it was when the method was saved (created), and
 * false once deleted (a deleted method is never the default).
 */
export function paymentMethodEvents(before: PaymentMethodItem | undefined, after: PaymentMethodItem | undefined): EventDraft[] {
  if (!after) return [];
  if (!before) return [{ type: 'payment_method.created', data: toPaymentMethod(after, after.created_as_default ? after.id : null) }];
  if (!before.deleted_at && after.deleted_at) return [{ type: 'payment_method.deleted', data: toPaymentMethod(after, null) }];
  return [];
}
