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
    ...(newlyDisputed(before, after) ? [{ type: 'invoice.payment_disputed' as const, data }] : []),
  ];
}

/** A payment of the invoice got a dispute (a chargeback) it did not have. */
function newlyDisputed(before: InvoiceItem | undefined, after: InvoiceItem): boolean {
  const disputed = (item: InvoiceItem | undefined) => new Set((item?.transactions ?? []).filter((t) => t.chargeback).map((t) => t.chargeback!.provider_id));
  const earlier = disputed(before);
  return [...disputed(after)].some((id) => !earlier.has(id));
}
