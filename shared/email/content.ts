import type { Language } from '../i18n/catalog';
import { html } from '../pages/html';

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

/** What one email says, in its language (each kind writes it from the catalogs: shared/email/kinds/). */
export interface EmailMessage {
  subject: string;
  /** Plain-text paragraphs, in order (escaped in the HTML part; line breaks kept). */
  paragraphs: string[];
  /** The one link: its label and a hosted page's capability link; null for none. */
  action: { label: string; url: string } | null;
}

export interface Brand {
  language: Language;
  /** The entity's name as customers know it (trade name, else legal name). */
  seller: string;
  brandColor: string | null;
  /** The closing line (`email.footer`). */
  footer: string;
  /** The Content-ID of the entity's logo, attached inline (compose.ts); none: the seller's name alone heads the email. */
  logoCid?: string | null;
}

/** Only a #rgb / #rrggbb colour reaches the style attribute (the entity's is validated so; this keeps it so). */
const safeColor = (color: string | null): string => (color && /^#[0-9a-fA-F]{3,8}$/.test(color) ? color : '#1f2937');

/**
 * The email's subject, plain-text and HTML parts, saying the same. The HTML has inline styles only: no remote image,
 * font or script, and every value is escaped (`html` tag). The entity's brand colour is its accent; its logo, when it
 * has one, is an inline attachment (`cid:`), which mail clients show without the remote-image prompt and which
 * needs no public URL of the logo.
 */
export function emailContent(message: EmailMessage, brand: Brand): EmailContent {
  const { subject, paragraphs, action } = message;
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), '', `-- `, brand.footer, ''].join('\n');
  const color = safeColor(brand.brandColor);
  const body = html`<!DOCTYPE html>
<html lang="${brand.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${subject}</title></head>
<body style="margin:0;padding:24px;background:#f5f5f5;font-family:Helvetica,Arial,sans-serif;color:#111827">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-top:4px solid ${color}">
<tr><td style="padding:24px">
${brand.logoCid ? html`<p style="margin:0 0 12px"><img src="cid:${brand.logoCid}" alt="${brand.seller}" height="48" style="display:block;height:48px;width:auto;max-width:100%"></p>` : ''}<p style="font-size:18px;font-weight:bold;margin:0 0 16px">${brand.seller}</p>
${paragraphs.map((paragraph) => html`<p style="margin:0 0 16px;white-space:pre-line">${paragraph}</p>\n`)}${action ? html`<p style="margin:24px 0"><a href="${action.url}" style="background:${color};color:#ffffff;padding:12px 20px;text-decoration:none;border-radius:4px;display:inline-block">${action.label}</a></p>` : ''}
<p style="font-size:12px;color:#6b7280;margin:24px 0 0">${brand.footer}</p>
</td></tr></table>
</body></html>
`;
  return { subject, text, html: body.value };
}
