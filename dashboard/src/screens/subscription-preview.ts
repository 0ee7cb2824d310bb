import { api, ok, type Schemas } from '../api/client';
import { h } from '../dom';
import { date, money } from '../format';
import { t } from '../i18n';
import { details, table } from '../ui';

type Product = Schemas['Product'];
type Price = Schemas['PriceConfiguration'];

/** A price of the catalog as the operator picks it: product, price configuration, and what it costs. */
function priceLabel(product: Product, price: Price): string {
  const first = price.prices[0];
  const interval = price.billing_interval.count ? `${price.billing_interval.count} ${price.billing_interval.period}` : price.billing_interval.period;
  const amount = first && 'amount' in first && price.type === 'fee' ? money(first.amount, price.currency) : `${price.type}, ${price.currency}`;
  return `${product.name} — ${amount} / ${interval}`;
}

/** The active prices of active products, as options `product_id|price_configuration_id` (optionally of one currency). */
export async function priceOptions(currency?: string): Promise<Array<[string, string]>> {
  const products = ok(await api.GET('/v1/products', { params: { query: { status: 'active', take: 100 } } }));
  const prices = ok(await api.GET('/v1/price-configurations', { params: { query: { take: 100 } } }));
  const byId = new Map(products.data.map((p) => [p.id, p]));
  return prices.data
    .filter((p) => p.status === 'active' && byId.has(p.product_id) && (!currency || p.currency === currency))
    .map((price): [string, string] => [`${price.product_id}|${price.id}`, priceLabel(byId.get(price.product_id)!, price)]);
}

/** `product_id|price_configuration_id` × quantity → a product of a subscription's body. */
export const productOf = (option: string, quantity: string) => {
  const [product_id, price_configuration_id] = option.split('|');
  return { product_id: product_id!, price_configuration_id: price_configuration_id!, quantity: Number(quantity) };
};

interface FirstInvoice {
  issued_at: string;
  period_starts_at: string;
  period_ends_at: string;
  line_items: Array<{ name: string; units_count: number; amount_excluding_tax: number; tax_amount: number; amount: number }>;
  amount_excluding_tax: number;
  discount_amount: number;
  tax_amount: number;
  total_amount: number;
}

/** The first invoice a new subscription would issue (POST /v2/subscriptions/preview), or that it issues none yet. */
export function firstInvoicePreview(invoice: FirstInvoice | null, currency: string): HTMLElement {
  if (!invoice) return h('section', { class: 'preview', 'aria-label': t('firstInvoice') }, h('h2', {}, t('firstInvoice')), h('p', {}, t('noFirstInvoice')));
  const amount = (n: number) => money(n, currency);
  return h(
    'section',
    { class: 'preview', 'aria-label': t('firstInvoice') },
    h('h2', {}, t('firstInvoice')),
    details([
      [t('issuedOn'), date(invoice.issued_at)],
      [t('period'), `${date(invoice.period_starts_at)} – ${date(invoice.period_ends_at)}`],
    ]),
    table(t('firstInvoice'), [
      { label: t('name'), cell: (l) => l.name },
      { label: t('quantity'), cell: (l) => String(l.units_count), numeric: true },
      { label: t('amountExcludingTax'), cell: (l) => amount(l.amount_excluding_tax), numeric: true },
      { label: t('tax'), cell: (l) => amount(l.tax_amount), numeric: true },
    ], invoice.line_items, t('noFirstInvoice')),
    details([
      [t('discount'), amount(invoice.discount_amount)],
      [t('amountExcludingTax'), amount(invoice.amount_excluding_tax)],
      [t('tax'), amount(invoice.tax_amount)],
      [t('total'), h('strong', {}, amount(invoice.total_amount))],
    ]),
  );
}

interface ChangePreview {
  later: boolean;
  lines: Array<{ name: string; amount: number }>;
  credits: Array<{ name: string; amount: number }>;
  due_now: number;
  to_wallet: number;
  currency: string;
}

/** A change's proration (POST /v2/subscriptions/{id}/preview): its charges, its credits, what is due now, what goes to the wallet. */
export function prorationPreview(preview: ChangePreview): HTMLElement {
  const amount = (n: number) => money(n, preview.currency);
  if (preview.later) return h('section', { class: 'preview', 'aria-label': t('proration') }, h('p', {}, t('changeAtNextPeriod')));
  const rows = [...preview.lines.map((l) => ({ name: l.name, amount: l.amount })), ...preview.credits.map((c) => ({ name: c.name, amount: -c.amount }))];
  return h(
    'section',
    { class: 'preview', 'aria-label': t('proration') },
    table(t('proration'), [
      { label: t('name'), cell: (r) => r.name },
      { label: t('amountExcludingTax'), cell: (r) => amount(r.amount), numeric: true },
    ], rows, t('noProration')),
    details([
      [t('dueNow'), h('strong', {}, amount(preview.due_now))],
      [t('toWallet'), amount(preview.to_wallet)],
    ]),
  );
}
