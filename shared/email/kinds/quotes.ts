import { findQuoteItem } from '../../domain/quotes/read';
import { quotePageUrl, type QuoteItem } from '../../domain/quotes/quote';
import type { EmailMessage } from '../content';
import type { Render, Wording } from './kind';

/** The quote's number and value, the sender's message, and the page where it is signed. */
export function quoteMessage(quote: Pick<QuoteItem, 'number' | 'amount' | 'currency' | 'sent_message'>, url: string, { t, format, seller }: Wording): EmailMessage {
  const values = { seller, number: quote.number, amount: format.money(quote.amount, quote.currency) };
  const note = quote.sent_message ? [`${t('email.quote_sent.message')}\n${quote.sent_message}`] : [];
  return { subject: t('email.quote_sent.subject', values), paragraphs: [t('email.quote_sent.intro', values), ...note], action: { label: t('email.sign_quote'), url } };
}

export const renderQuoteSent: Render = async (ctx, email) => {
  const quote = await findQuoteItem(ctx, email.quote_id!);
  return { entityId: quote.invoicing_entity_id, attachments: [], message: (wording) => quoteMessage(quote, quotePageUrl(quote), wording) };
};
