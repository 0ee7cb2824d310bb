import type { Ctx } from '../context';
import { updateUnlessDone } from '../db/transactions';
import { invoiceKey } from '../domain/invoices/invoice';
import type { EmailItem, EmailStatus, InvoiceEmailStatus } from './email-item';

export const invoiceEmailStatusOf = (email: Pick<EmailItem, 'status' | 'skipped_reason'>): InvoiceEmailStatus =>
  email.skipped_reason === 'no_recipient' ? 'no_recipient' : email.status;

/** How far an email has gone: a status never gives way to one of a lower step (a delivery reported after a bounce). */
export const EMAIL_STEP: Record<EmailStatus, number> = { queued: 0, sent: 1, failed: 1, skipped: 1, delivered: 2, bounced: 3, complained: 4 };

/**
 * Marks the invoice (or credit note) with what became of an email about it, unless a later email of it, or a later step of this one, marked
 * it already (`email_order`: the email's creation time, id and step), so a retry of an old email finishing late does
 * not hide a newer one, nor a late report of a delivery a bounce. `_version` is left alone: this is no change of the
 * invoice a writer conditions on, and its stream record maps to no event.
 */
export async function markInvoiceEmail(ctx: Ctx, email: Pick<EmailItem, 'invoice_id' | 'created_at' | 'id' | 'status' | 'skipped_reason'>): Promise<void> {
  // Not about an invoice or a credit note; or a failed payment told by its reminder, whose email is the latest.
  if (!email.invoice_id || email.skipped_reason === 'in_reminder') return;
  await updateUnlessDone({
    Key: invoiceKey(ctx, email.invoice_id),
    UpdateExpression: 'SET email_status = :status, email_order = :order',
    ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(email_order) OR email_order <= :order)',
    ExpressionAttributeValues: { ':status': invoiceEmailStatusOf(email), ':order': `${email.created_at}#${email.id}#${EMAIL_STEP[email.status]}` },
  });
}
