import type Stripe from 'stripe';
import type { Ctx } from '../../../context';
import { outsideEffect } from '../../../db/effect-claim';
import { getItem } from '../../../db/items';
import { invoiceKey, type InvoiceItem } from '../../invoices/invoice';
import { settlePendingRefund, type RefundOutcome } from '../../invoices/refund-settle';
import type { AppliedEvent } from '../../invoices/settle-pending';
import { connectedStripe } from '../../payment-providers/connect';
import { atStripe, isStripeError } from './errors';

/**
 * Asks Stripe for a credit note's pending refund: the Refund Stripe already holds for it (found by its metadata on
 * the PaymentIntent), else one Refund of its amount on the PaymentIntent that paid the original, under the
 * idempotency key `refund:<credit note id>`, then settles the credit note as Stripe answers: `succeeded` or `failed`
 * at once, `pending` left to the check (pending-check.ts), which asks again. Looking first is what keeps a check
 * made after Stripe's idempotency keys expire (24 h) from creating a second Refund, and lets it see a pending one
 * end (a replayed create would answer its first `pending` for the key's lifetime). Stripe unreachable leaves it
 * pending too.
 */
export async function refundWithStripe(ctx: Ctx, noteId: string): Promise<'settled' | 'still_pending' | 'nothing'> {
  const note = await getItem<InvoiceItem>(invoiceKey(ctx, noteId), true);
  const pending = note?.pending_refund;
  if (!note || !pending) return 'nothing';
  const { stripe } = await connectedStripe(ctx);
  let refund: Stripe.Refund;
  try {
    const existing = await atStripe(() => stripe.refunds.list({ payment_intent: pending.payment_intent, limit: 100 }));
    refund = existing.data.find((r) => r.metadata?.credit_note_id === noteId && r.metadata.workspace_id === ctx.workspaceId) ?? await atStripe(() =>
      stripe.refunds.create(
        { payment_intent: pending.payment_intent, amount: pending.amount, metadata: { workspace_id: ctx.workspaceId, credit_note_id: noteId, invoice_id: note.original_invoice_id ?? '' } },
        { idempotencyKey: `refund:${noteId}` },
      ),
    );
  } catch (error) {
    // Stripe refuses this refund as asked (more than the payment has left, a payment disputed): it will not succeed.
    if (!isStripeError(error, 'StripeInvalidRequestError')) throw error;
    return settlePendingRefund(ctx, noteId, { status: 'failed', providerId: null, errorType: error.code ?? 'invalid_request', message: error.message });
  }
  const outcome = outcomeOf(refund);
  return outcome ? settlePendingRefund(ctx, noteId, outcome) : 'still_pending';
}

/** A Refund's end as Stripe reports it; null while it is still under way (`pending`, `requires_action`). */
function outcomeOf(refund: Stripe.Refund): RefundOutcome | null {
  if (refund.status === 'succeeded') return { status: 'succeeded', providerId: refund.id };
  if (refund.status === 'failed' || refund.status === 'canceled') {
    return { status: 'failed', providerId: refund.id, errorType: refund.failure_reason ?? refund.status, message: `Stripe's refund is ${refund.status}.` };
  }
  return null;
}

/**
 * `charge.refunded` (sent too when a refund of the charge fails or ends later), and `refund.updated` /
 * `refund.failed` (a Refund's own change, sent alone by newer API versions): the credit notes of this workspace whose
 * refund of that charge is pending are settled at once from its Refunds as Stripe now lists them (never the event's
 * copy), instead of waiting for their check. The event is recorded with the last settlement: the earlier ones are
 * settled once by their own state (a settled credit note has no pending refund), should it be redelivered.
 */
export async function applyRefundsOfCharge(ctx: Ctx, stripe: Stripe, chargeId: string | null, event: AppliedEvent): Promise<'settled' | 'still_pending' | 'nothing' | 'duplicate'> {
  if (!chargeId) return 'nothing';
  if (await getItem(event.key, true)) return 'duplicate';
  const refunds = await atStripe(() => stripe.refunds.list({ charge: chargeId, limit: 100 }));
  const ours = refunds.data.filter((r) => r.metadata?.workspace_id === ctx.workspaceId && r.metadata.credit_note_id);
  const settleable: Array<{ noteId: string; outcome: RefundOutcome }> = [];
  let pending = false;
  for (const refund of ours) {
    const noteId = refund.metadata!.credit_note_id!;
    const note = await getItem<InvoiceItem>(invoiceKey(ctx, noteId), true);
    if (note?.pending_refund?.payment_intent !== refund.payment_intent) continue;
    const outcome = outcomeOf(refund);
    if (outcome) settleable.push({ noteId, outcome });
    else pending = true;
  }
  if (settleable.length === 0) return pending ? 'still_pending' : 'nothing';
  const results = [];
  for (const [i, { noteId, outcome }] of settleable.entries()) {
    results.push(await settlePendingRefund(ctx, noteId, outcome, i === settleable.length - 1 ? event : undefined));
  }
  return results.includes('settled') ? 'settled' : 'nothing';
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
