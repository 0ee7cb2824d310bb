import MailComposer from 'nodemailer/lib/mail-composer';
import type { Ctx } from '../context';
import { languageFor, translator } from '../i18n/catalog';
import { formatterFor } from '../i18n/format';
import { findCustomerItem } from '../domain/customers/read';
import { findEntityItem } from '../domain/invoicing-entities/read';
import { readLogo } from '../domain/invoicing-entities/logo';
import type { Logo } from '../domain/invoices/pdf/logo';
import { emailContent } from './content';
import { messageIdHeader, type EmailItem } from './email-item';
import { RENDER } from './kinds/render';
import type { RawEmail } from './transport';

/** The logo's Content-ID: one per message, so a fixed one is unique within it. */
const LOGO_CID = 'logo@billing';

const logoAttachment = (logo: Logo) => ({
  filename: logo.contentType === 'image/png' ? 'logo.png' : 'logo.jpg', content: Buffer.from(logo.body), contentType: logo.contentType, cid: LOGO_CID, contentDisposition: 'inline' as const,
});

/**
 * The email as MIME (nodemailer's composer), from what it is about, its customer and entity as they are when it is
 * sent: the entity's sender, reply-to and blind copies; the customer's language, else the entity's; what the kind
 * attaches (an invoice's PDF, a Factur-X when the entity has it, as the download gives it), and the entity's logo
 * inline. The Message-ID derives
 * from the email's id, so every attempt of one email carries the same one.
 */
export async function composeEmail(ctx: Ctx, email: EmailItem): Promise<RawEmail> {
  const rendered = await RENDER[email.kind](ctx, email);
  const [entity, customer] = await Promise.all([findEntityItem(ctx, rendered.entityId), findCustomerItem(ctx, email.customer_id)]);
  if (!entity.email_from) throw new Error(`the invoicing entity ${entity.id} has no email_from any more`);
  if (!email.to) throw new Error(`the email ${email.id} has no recipient`);
  const to = email.to;
  const seller = entity.trade_name ?? entity.name;
  const language = languageFor(customer.language, entity.language);
  const t = translator(language);
  const message = rendered.message({ t, format: formatterFor(language, entity.timezone), seller });
  const logo = await readLogo(entity);
  const content = emailContent(message, { language, seller, brandColor: entity.brand_color, footer: t('email.footer', { seller }), logoCid: logo && LOGO_CID });
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
    attachments: [...(rendered.attachments ?? []), ...(logo ? [logoAttachment(logo)] : [])],
    headers: { 'Content-Language': language, 'Auto-Submitted': 'auto-generated' },
  });
  const raw = await composer.compile().build();
  return { id: email.id, workspaceId: ctx.workspaceId, raw, from: entity.email_from, to: [to], cc: email.cc, bcc };
}
