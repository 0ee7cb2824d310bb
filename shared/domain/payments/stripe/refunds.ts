import Stripe from 'stripe';
import type { Ctx } from '../../../context';
import { outsideEffect } from '../../../db/effect-claim';
import { getItem } from '../../../db/items';
import { invoiceKey, type InvoiceItem } from '../../invoices/invoice';
import { settlePendingRefund } from '../../invoices/refund-settle';
import { connectedStripe } from '../../payment-providers/connect';
import { atStripe } from './errors';

/**
 * Asks Stripe for a credit note's pending refund: one Refund of its amount on the PaymentIntent that paid the
 * original, under the idempotency key `refund:<credit note id>` (so asking again, after a crash or no answer, is
 * the same Refund), then settles the credit note as Stripe answers: `succeeded` or `failed` at once, `pending`
 * left to the check (pending-check.ts), which asks again. Stripe unreachable leaves it pending too.
 */
export async function refundWithStripe(ctx: Ctx, noteId: string): Promise<'settled' | 'still_pending' | 'nothing'> {
  const note = await getItem<InvoiceItem>(invoiceKey(ctx, noteId), true);
  const pending = note?.pending_refund;
  if (!note || !pending) return 'nothing';
  const { stripe } = await connectedStripe(ctx);
  let refund: Stripe.Refund;
  try {
    refund = await atStripe(() =>
      stripe.refunds.create(
        { payment_intent: pending.payment_intent, amount: pending.amount, metadata: { workspace_id: ctx.workspaceId, credit_note_id: noteId, invoice_id: note.original_invoice_id ?? '' } },
        { idempotencyKey: `refund:${noteId}` },
      ),
    );
  } catch (error) {
    // Stripe refuses this refund as asked (more than the payment has left, a payment disputed): it will not succeed.
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError) || error instanceof Stripe.errors.StripeIdempotencyError) throw error;
    return settlePendingRefund(ctx, noteId, { status: 'failed', providerId: null, errorType: error.code ?? 'invalid_request', message: error.message });
  }
  if (refund.status === 'succeeded') return settlePendingRefund(ctx, noteId, { status: 'succeeded', providerId: refund.id });
  if (refund.status === 'failed' || refund.status === 'canceled') {
    return settlePendingRefund(ctx, noteId, { status: 'failed', providerId: refund.id, errorType: refund.failure_reason ?? refund.status, message: `Stripe's refund is ${refund.status}.` });
  }
  return 'still_pending';
}

/**
 * After a credit note is written: its refund through Stripe, if it has one, asked at once. The credit note is
 * answered as it then is (paid once Stripe confirmed); if Stripe could not be reached, pending, and asked again by
 * its check. Outside the request's idempotent effect: the credit note's write was that.
 */
export async function refundCreditNote<T extends { id: string; status: string }>(ctx: Ctx, note: T, reread: () => Promise<T>): Promise<T> {
  if (note.status !== 'to_pay') return note;
  try {
    if ((await outsideEffect(() => refundWithStripe(ctx, note.id))) === 'nothing') return note;
  } catch (error) {
    console.warn(JSON.stringify({ level: 'warn', credit_note: note.id, message: 'Stripe refund left pending for its check', error: String(error) }));
    return note;
  }
  return reread();
}
