import type { Ctx } from '../../context';
import type { Invoice } from '../../domain/invoices/invoice';
import { getInvoice } from '../../domain/invoices/read';
import type { EmailMessage } from '../content';
import type { EmailItem } from '../email-item';
import type { Attachment, Render, Wording } from './kind';

/*
 * What the emails of an invoice or credit note say: issued, paid, a reminder, a failed payment, an action required
 * (3-D Secure), a credit note issued. The link is the document's hosted page (`public_url`), a capability link.
 */

/** The kinds about an invoice or a credit note (their decision from the event: decide.ts). */
export const INVOICE_KINDS = ['invoice_issued', 'invoice_paid', 'invoice_reminder', 'payment_failed', 'payment_action_required', 'credit_note_issued'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/** The values the invoice texts take. */
function valuesOf(invoice: Invoice, { format, seller }: Wording, amount: number) {
  return { seller, number: invoice.number ?? invoice.id, amount: format.money(amount, invoice.currency), due_date: format.date(invoice.due_at) };
}

/** What each kind says of its document, as it is when the email is sent. */
const WORDS: Record<InvoiceKind, (invoice: Invoice, wording: Wording, email: Pick<EmailItem, 'created_at'>) => { subject: string; paragraphs: string[]; label: string }> = {
  invoice_issued: (invoice, w) => {
    const values = valuesOf(invoice, w, invoice.amount_due);
    return { subject: w.t('email.invoice_issued.subject', values), paragraphs: [w.t('email.invoice_issued.intro', values), w.t('email.invoice_issued.attached')], label: w.t('email.pay') };
  },
  invoice_paid: (invoice, w) => {
    const values = valuesOf(invoice, w, invoice.total_amount);
    return { subject: w.t('email.invoice_paid.subject', values), paragraphs: [w.t('email.invoice_paid.intro', values), w.t('email.invoice_paid.attached')], label: w.t('email.view') };
  },
  invoice_reminder: (invoice, w, email) => {
    const values = valuesOf(invoice, w, invoice.amount_due);
    // The reminder's phase as the collection decided it: before or after the due date, when the failure happened.
    const overdue = !!invoice.due_at && email.created_at >= invoice.due_at;
    const failed = invoice.dunning?.last_error_type ? [w.t('email.charge_failed')] : [];
    return overdue
      ? { subject: w.t('email.invoice_reminder.subject_after_due', values), paragraphs: [w.t('email.invoice_reminder.intro_after_due', values), ...failed], label: w.t('email.pay') }
      : { subject: w.t('email.invoice_reminder.subject', values), paragraphs: [w.t('email.invoice_reminder.intro', values), ...failed], label: w.t('email.pay') };
  },
  payment_failed: (invoice, w) => {
    const values = valuesOf(invoice, w, invoice.amount_due);
    return { subject: w.t('email.payment_failed.subject', values), paragraphs: [w.t('email.payment_failed.intro', values), w.t('email.payment_failed.next')], label: w.t('email.pay') };
  },
  payment_action_required: (invoice, w) => {
    const values = valuesOf(invoice, w, invoice.amount_due);
    return { subject: w.t('email.action_required.subject', values), paragraphs: [w.t('email.action_required.intro', values)], label: w.t('email.confirm_payment') };
  },
  credit_note_issued: (invoice, w) => {
    const values = valuesOf(invoice, w, invoice.total_amount);
    return { subject: w.t('email.credit_note.subject', values), paragraphs: [w.t('email.credit_note.intro', values), w.t('email.credit_note.attached')], label: w.t('email.view_credit_note') };
  },
};

/** The kinds that carry the document's PDF: the invoice, its receipt, the credit note. */
const WITH_PDF: ReadonlySet<InvoiceKind> = new Set(['invoice_issued', 'invoice_paid', 'credit_note_issued']);

/** What the email of `kind` says of the invoice (or credit note), with its hosted page as the link. */
export function invoiceMessage(kind: InvoiceKind, invoice: Invoice, wording: Wording, email: Pick<EmailItem, 'created_at'>): EmailMessage {
  const { subject, paragraphs, label } = WORDS[kind](invoice, wording, email);
  return { subject, paragraphs, action: { label, url: invoice.public_url } };
}

export const renderInvoiceEmail = (kind: InvoiceKind): Render => async (ctx, email) => {
  const invoice = await getInvoice(ctx, email.invoice_id!);
  return {
    entityId: invoice.seller.id,
    attachments: WITH_PDF.has(kind) ? [await invoicePdf(ctx, invoice.id)] : [],
    message: (wording) => invoiceMessage(kind, invoice, wording, email),
  };
};

/** The document as GET /v1/invoices/{id}/download gives it, Factur-X when the entity has it (loaded on use: pdfkit is heavy). */
async function invoicePdf(ctx: Ctx, invoiceId: string): Promise<Attachment> {
  const { downloadInvoice } = await import('../../domain/invoices/pdf/download');
  const file = await downloadInvoice(ctx, invoiceId);
  return { filename: file.filename, content: Buffer.from(file.body), contentType: file.contentType };
}
