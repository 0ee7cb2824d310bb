import type Stripe from 'stripe';
import type { Ctx } from '../../../context';
import { getItem } from '../../../db/items';
import { DomainError } from '../../../errors';
import { transactWrite } from '../../../db/transactions';
import { invoiceKey, type InvoiceItem } from '../../invoices/invoice';
import { pendingCheckDelete, pendingCheckPut, NEXT_CHECK_MS } from '../../invoices/pending-check';
import { settlePendingCharge, type AppliedEvent, type PendingOutcome } from '../../invoices/settle-pending';
import { connectedStripe } from '../../payment-providers/connect';
import { outcomeOf, retrieveIntent } from './charge';
import { refundWithStripe } from './refunds';

/** What the PaymentIntent, as Stripe holds it now, means for the invoice. */
const currentOutcome = (stripe: Stripe, intentId: string) => async () => outcomeOf(await retrieveIntent(stripe, intentId));

/**
 * A PaymentIntent event of the workspace's Stripe: the invoice its metadata names is settled from the PaymentIntent
 * as Stripe holds it now (never from the event's copy, which may be older than another event already applied).
 */
export function applyPaymentIntent(ctx: Ctx, stripe: Stripe, intent: Stripe.PaymentIntent, event: AppliedEvent): Promise<PendingOutcome> {
  const invoiceId = intent.metadata?.invoice_id;
  if (!invoiceId || intent.metadata.workspace_id !== ctx.workspaceId) return Promise.resolve('nothing');
  return settlePendingCharge(ctx, invoiceId, intent.id, currentOutcome(stripe, intent.id), { event, attemptId: intent.metadata.attempt_id });
}

/**
 * The reconciliation of one invoice (the scheduled check, the sync): its pending charge is settled from what Stripe
 * says (a credit note's pending refund is asked again, under its key); still pending, it is checked again a day
 * later; no longer pending, its check ends.
 */
export async function checkPendingCharge(ctx: Ctx, invoiceId: string, connected?: Awaited<ReturnType<typeof connectedStripe>>): Promise<PendingOutcome> {
  const invoice = await getItem<InvoiceItem>(invoiceKey(ctx, invoiceId), true);
  const providerId = invoice?.pending_charge?.provider_id;
  if (!providerId && !invoice?.pending_refund) {
    await transactWrite([pendingCheckDelete(ctx, invoiceId)]);
    return 'nothing';
  }
  let stripe: Stripe;
  try {
    ({ stripe } = connected ?? (await connectedStripe(ctx)));
  } catch (error) {
    // Disconnected meanwhile: asked again a day later, once it may be connected again.
    if (!(error instanceof DomainError && error.code === 'payment_provider_not_connected')) throw error;
    await transactWrite([pendingCheckPut(ctx, invoiceId, NEXT_CHECK_MS)]);
    return 'still_pending';
  }
  if (!providerId) return recheck(ctx, invoiceId, await refundWithStripe(ctx, invoiceId));
  return recheck(ctx, invoiceId, await settlePendingCharge(ctx, invoiceId, providerId, currentOutcome(stripe, providerId)));
}

/** Still pending: asked again a day later. */
async function recheck(ctx: Ctx, invoiceId: string, outcome: PendingOutcome): Promise<PendingOutcome> {
  if (outcome === 'still_pending') await transactWrite([pendingCheckPut(ctx, invoiceId, NEXT_CHECK_MS)]);
  return outcome;
}
