import type { EventDraft } from '../events/catalog';
import type { InvoiceItem } from '../invoices/invoice';

/**
 * What a change of an invoice's collection tells (docs/collection.md), each from the one write that makes it, so
 * once: `invoice.payment_failed` for every failed attempt (a new `last_attempt_at` with an error), and
 * `invoice.reminder_due` for every new reminder (customers with `invoice_reminders_enabled`). The attempt number
 * is `data.dunning.attempt` (and `data.dunning.reminder.attempt`).
 */
export function dunningEvents(before: InvoiceItem | undefined, after: InvoiceItem, data: object): EventDraft[] {
  const was = before?.dunning;
  const is = after.dunning;
  if (!is) return [];
  const failed = is.last_error_type !== null && is.last_attempt_at !== null && is.last_attempt_at !== was?.last_attempt_at;
  const reminded = is.reminder !== null && is.reminder.at !== was?.reminder?.at;
  return [...(failed ? [{ type: 'invoice.payment_failed' as const, data }] : []), ...(reminded ? [{ type: 'invoice.reminder_due' as const, data }] : [])];
}
