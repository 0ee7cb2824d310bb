import { translator, type Language } from '../i18n/catalog';
import { formatterFor } from '../i18n/format';
import type { Invoice } from '../domain/invoices/invoice';
import { html } from '../pages/html';
import type { EmailKind } from './email-item';

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

interface ContentInput {
  kind: EmailKind;
  invoice: Invoice;
  language: Language;
  /** The entity's name as customers know it (trade name, else legal name). */
  seller: string;
  brandColor: string | null;
  timezone?: string;
}

const PREFIX = { invoice_issued: 'email.invoice_issued', invoice_paid: 'email.invoice_paid', invoice_reminder: 'email.invoice_reminder' } as const;

/** Only a #rgb / #rrggbb colour reaches the style attribute (the entity's is validated so; this keeps it so). */
const safeColor = (color: string | null): string => (color && /^#[0-9a-fA-F]{3,8}$/.test(color) ? color : '#1f2937');

/**
 * The email's subject, plain-text and HTML parts, from the same catalogs as the pages and PDFs
 * (shared/i18n/messages, `email.*`). The HTML has inline styles only: no remote image, font or script, and every
 * value is escaped (`html` tag). The link is the invoice's hosted page, a capability link.
 */
export function emailContent({ kind, invoice, language, seller, brandColor, timezone }: ContentInput): EmailContent {
  const t = translator(language);
  const format = formatterFor(language, timezone);
  const paid = kind === 'invoice_paid';
  const values = {
    seller,
    number: invoice.number ?? invoice.id,
    amount: format.money(paid ? invoice.total_amount : invoice.amount_due, invoice.currency),
    due_date: format.date(invoice.due_at),
  };
  const prefix = PREFIX[kind];
  const subject = t(`${prefix}.subject`, values);
  const intro = t(`${prefix}.intro`, values);
  // Reminders carry the link alone; the invoice and the receipt carry the PDF too.
  const attached = kind === 'invoice_reminder' ? null : t(`${PREFIX[kind]}.attached`, values);
  const action = paid ? t('email.view') : t('email.pay');
  const footer = t('email.footer', values);
  const text = [intro, ...(attached ? [attached] : []), `${action}: ${invoice.public_url}`, '', `-- `, footer, ''].join('\n');
  const color = safeColor(brandColor);
  const body = html`<!DOCTYPE html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${subject}</title></head>
<body style="margin:0;padding:24px;background:#f5f5f5;font-family:Helvetica,Arial,sans-serif;color:#111827">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-top:4px solid ${color}">
<tr><td style="padding:24px">
<p style="font-size:18px;font-weight:bold;margin:0 0 16px">${seller}</p>
<p style="margin:0 0 16px">${intro}</p>
${attached ? html`<p style="margin:0 0 16px">${attached}</p>` : ''}
<p style="margin:24px 0"><a href="${invoice.public_url}" style="background:${color};color:#ffffff;padding:12px 20px;text-decoration:none;border-radius:4px;display:inline-block">${action}</a></p>
<p style="font-size:12px;color:#6b7280;margin:24px 0 0">${footer}</p>
</td></tr></table>
</body></html>
`;
  return { subject, text, html: body.value };
}
