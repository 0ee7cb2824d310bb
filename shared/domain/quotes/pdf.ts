/**
 * The quote as a PDF, in the layout of every document (shared/domain/invoices/pdf/sheet.ts): what its hosted page
 * shows, as its display flags say (docs/hosted-pages.md, "Quote page"), for the customer to file or sign on paper.
 */
import type { EntityItem } from '../invoicing-entities/invoicing-entity';
import { customerLines, sellerLines } from '../invoices/pdf/header';
import type { Words } from '../invoices/pdf/labels';
import type { Sheet } from '../invoices/pdf/sheet';
import type { Column } from '../invoices/pdf/table';
import type { PrintedRow } from '../invoices/pdf/totals';
import type { Invoice } from '../invoices/invoice';
import { intervalText } from './interval-text';
import type { Quote } from './quote';

/** The table: product, quantity and billing; per period and periods when `display_phase_value`; amount when `display_quote_value`. */
function quoteTable(quote: Quote, words: Words): Sheet['table'] {
  const { t, f } = words;
  const money = (amount: number) => f.money(amount, quote.currency);
  const phases = quote.display_phase_value;
  const values = quote.display_quote_value;
  const columns: [Column, ...Column[]] = [
    { title: t('quote.product'), share: 0.36 },
    { title: t('pdf.qty'), share: 0.09 },
    { title: t('quote.billing'), share: 0.15 },
    ...(phases ? [{ title: t('quote.price_per_period'), share: 0.15 }, { title: t('quote.periods'), share: 0.08 }] : []),
    ...(values ? [{ title: t('doc.amount'), share: 0.17 }] : []),
  ];
  const rows = quote.line_items.map((line) => ({
    name: line.name,
    details: [],
    figures: [
      f.number(line.quantity),
      intervalText(words, line.billing_interval),
      ...(phases ? [money(line.amount_per_period), f.number(line.billing_periods)] : []),
      ...(values ? [money(line.amount)] : []),
    ],
  }));
  return { columns, rows };
}

function quoteTotals(quote: Quote, { t, f }: Words): PrintedRow[] {
  const rows: PrintedRow[] = [];
  if (quote.display_first_invoice_amount) {
    rows.push({ label: t('quote.first_invoice'), printed: f.money(quote.line_items.reduce((sum, l) => sum + l.amount_per_period, 0), quote.currency) });
  }
  if (quote.display_quote_value) rows.push({ label: t('quote.total_value'), printed: f.money(quote.amount, quote.currency), strong: 'due' });
  return rows;
}

/** The parties as an invoice of the same entity and customer would print them (the entity adds its legal details). */
export interface QuoteParties {
  seller: Invoice['seller'];
  customer: Invoice['customer'];
  entity: EntityItem | null;
}

export function quoteSheet(quote: Quote, { seller, customer: buyer, entity }: QuoteParties, words: Words): Sheet {
  const { t, f } = words;
  const facts: [string, string | null][] = [
    [t('pdf.quote_date'), f.date(quote.sent_at ?? quote.created_at)],
    [t('quote.valid_until'), quote.expires_at && f.date(quote.expires_at)],
    [t('quote.starts_at'), quote.starts_at && f.date(quote.starts_at)],
  ];
  const signed = quote.status === 'signed' ? t('quote.signed', { date: f.date(quote.signed_at), name: quote.signer_name ?? quote.signer_email ?? '—' }) : null;
  return {
    heading: { title: t('doc.quote'), number: quote.number, sellerName: seller.name, mark: null },
    parties: {
      seller: { name: seller.name, lines: sellerLines(seller, entity, words) },
      customer: { name: buyer.name, lines: customerLines(buyer, words) },
      facts: facts.filter((fact): fact is [string, string] => !!fact[1]),
    },
    table: quoteTable(quote, words),
    totals: quoteTotals(quote, words),
    notes: [
      quote.display_taxes ? t('quote.taxes_excluded') : null,
      quote.terms?.trim() ? `${t('quote.terms')}: ${quote.terms}` : null,
      quote.comments?.trim() ? `${t('quote.comments')}: ${quote.comments}` : null,
      signed,
    ].filter((note): note is string => !!note),
    footer: entity?.quote_footer ?? entity?.invoice_footer ?? '',
    info: { title: `${t('doc.quote')} ${quote.number}`, author: seller.name, created: new Date(quote.updated_at) },
  };
}
