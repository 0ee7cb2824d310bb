import { dunningEvents } from '../collection/events';
import type { EventDraft, EventType } from '../events/catalog';
import { toInvoice, type InvoiceItem, type InvoiceStatus } from './invoice';

/** What entering a status tells, by document type (decisions.md, "Webhook messages"). */
const INVOICE_STATUS_EVENTS: Partial<Record<InvoiceStatus, EventType>> = {
  grace_period: 'invoice.grace_period.started',
  to_pay: 'invoice.ready',
  paid: 'invoice.settled',
  error: 'invoice.errored',
  voided: 'invoice.voided',
};

/**
 * Invoices and documents: `invoice.created` when written, then one event per status entered. Credit notes:
 * `credit_note.ready` when issued and `credit_note.settled` once refunded (they are issued settled when nothing waits
 * for a provider, so both come together). Data is the invoice (or credit note) as returned by the API.
 * A subscription's invoice that becomes paid also emits Hyperline's `subscription.charged` (docs/hyperline.md), with
 * the invoice as data (it names the subscription): the stream sees the invoice alone.
 */
export function invoiceEvents(before: InvoiceItem | undefined, after: InvoiceItem | undefined): EventDraft[] {
  if (!after) return [];
  const data = toInvoice(after);
  const entered = before?.status !== after.status ? after.status : undefined;
  if (after.type === 'credit_note') {
    return [...(before ? [] : [{ type: 'credit_note.ready' as const, data }]), ...(entered === 'paid' ? [{ type: 'credit_note.settled' as const, data }] : [])];
  }
  const status = entered && INVOICE_STATUS_EVENTS[entered];
  return [
    ...(before ? [] : [{ type: 'invoice.created' as const, data }]), ...(status ? [{ type: status, data }] : []), ...dunningEvents(before, after, data),
    ...(entered === 'paid' && after.subscription_id ? [{ type: 'subscription.charged' as const, data }] : []),
    ...(newlyAwaitingAction(before, after) ? [{ type: 'invoice.payment_action_required' as const, data }] : []),
    ...(newlyDisputed(before, after) ? [{ type: 'invoice.payment_disputed' as const, data }] : []),
  ];
}

/**
 * A charge went pending on the customer's action (3-D Secure: Stripe's `requires_action`, or off session
 * `authentication_required`): the customer must complete it on the invoice's page (`public_url`). Once per charge.
 */
function newlyAwaitingAction(before: InvoiceItem | undefined, after: InvoiceItem): boolean {
  const awaiting = (item: InvoiceItem | undefined) =>
    new Set((item?.transactions ?? []).filter((t) => t.status === 'pending' && t.error_type === 'authentication_required').map((t) => t.id));
  const earlier = awaiting(before);
  return [...awaiting(after)].some((id) => !earlier.has(id));
}

/** A payment of the invoice got a dispute (a chargeback) it did not have. */
function newlyDisputed(before: InvoiceItem | undefined, after: InvoiceItem): boolean {
  const disputed = (item: InvoiceItem | undefined) => new Set((item?.transactions ?? []).filter((t) => t.chargeback).map((t) => t.chargeback!.provider_id));
  const earlier = disputed(before);
  return [...disputed(after)].some((id) => !earlier.has(id));
}
