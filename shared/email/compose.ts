import MailComposer from 'nodemailer/lib/mail-composer';
import type { Ctx } from '../context';
import { languageFor } from '../i18n/catalog';
import { findCustomerItem } from '../domain/customers/read';
import { findEntityItem } from '../domain/invoicing-entities/read';
import { getInvoice } from '../domain/invoices/read';
import { emailContent } from './content';
import { messageIdHeader, type EmailItem } from './email-item';
import type { RawEmail } from './transport';

/**
 * The email as MIME (nodemailer's composer), from the invoice, customer and entity as they are when it is sent:
 * the entity's sender, reply-to and blind copies; the customer's language, else the entity's; the invoice PDF (a
 * Factur-X when the entity has it, as the download gives it) attached. The Message-ID derives from the email's
 * id, so every attempt of one email carries the same one.
 */
export async function composeEmail(ctx: Ctx, email: EmailItem): Promise<RawEmail> {
  const invoice = await getInvoice(ctx, email.invoice_id);
  const [entity, customer] = await Promise.all([findEntityItem(ctx, invoice.seller.id), findCustomerItem(ctx, email.customer_id)]);
  if (!entity.email_from) throw new Error(`the invoicing entity ${entity.id} has no email_from any more`);
  if (!email.to) throw new Error(`the email ${email.id} has no recipient`);
  const to = email.to;
  const seller = entity.trade_name ?? entity.name;
  const language = languageFor(customer.language, entity.language);
  const content = emailContent({ kind: email.kind, invoice, language, seller, brandColor: entity.brand_color, timezone: entity.timezone });
  const attachments = email.kind === 'invoice_reminder' ? [] : [await invoicePdf(ctx, invoice.id)];
  const bcc = entity.email_bcc ?? [];
  const composer = new MailComposer({
    from: { name: seller, address: entity.email_from },
    to,
    cc: email.cc,
    bcc,
    replyTo: entity.email_reply_to ?? undefined,
    subject: content.subject,
    text: content.text,
    html: content.html,
    messageId: messageIdHeader(email.id, entity.email_from),
    date: ctx.clock.now(),
    attachments,
    headers: { 'Content-Language': language, 'Auto-Submitted': 'auto-generated' },
  });
  const raw = await composer.compile().build();
  return { id: email.id, workspaceId: ctx.workspaceId, raw, from: entity.email_from, to: [to], cc: email.cc, bcc };
}

/** The invoice as GET /v1/invoices/{id}/download gives it (loaded on use: pdfkit is heavy). */
async function invoicePdf(ctx: Ctx, invoiceId: string) {
  const { downloadInvoice } = await import('../domain/invoices/pdf/download');
  const file = await downloadInvoice(ctx, invoiceId);
  return { filename: file.filename, content: Buffer.from(file.body), contentType: file.contentType };
}
