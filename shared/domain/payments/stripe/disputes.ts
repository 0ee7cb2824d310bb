import type Stripe from 'stripe';
import type { Ctx } from '../../../context';
import { recordChargeback } from '../../invoices/chargebacks';
import type { AppliedEvent } from '../../invoices/settle-pending';
import { atStripe } from './errors';

/**
 * A `charge.dispute.*` event: the dispute as Stripe holds it now (never the event's copy, so a late `created` does
 * not undo a `closed`), kept on the payment of the invoice its PaymentIntent's metadata names.
 */
export async function applyDispute(ctx: Ctx, stripe: Stripe, dispute: Stripe.Dispute, event: AppliedEvent): Promise<'recorded' | 'nothing' | 'duplicate'> {
  const current = await atStripe(() => stripe.disputes.retrieve(dispute.id, { expand: ['payment_intent'] }));
  const intent = current.payment_intent;
  if (!intent || typeof intent === 'string') return 'nothing';
  const invoiceId = intent.metadata?.invoice_id;
  if (!invoiceId || intent.metadata.workspace_id !== ctx.workspaceId) return 'nothing';
  return recordChargeback(ctx, invoiceId, intent.id, {
    provider_id: current.id, status: current.status, reason: current.reason, amount: current.amount, currency: current.currency.toUpperCase(),
    opened_at: new Date(current.created * 1000).toISOString(),
  }, event);
}
