/**
 * Random billing histories as the stored items the journal reads (invoices with their payments, credit notes with
 * their refunds, write-offs, wallet movements), built by the same rules as the domain: amount_due = total − paid −
 * credited; a credit note first settles what is unpaid, then refunds (or, with `none`, credits) the rest.
 */
import fc from 'fast-check';
import type { InvoiceItem, InvoiceLineItem, PaymentTransaction } from '../../shared/domain/invoices/invoice';
import type { WalletTransactionItem } from '../../shared/domain/wallets/transaction';

export const RATES = [0, 5.5, 20] as const;
const WAYS = ['sandbox', 'stripe', 'manual', 'wallet'] as const;

type Step =
  | { kind: 'pay'; share: number; way: (typeof WAYS)[number] }
  | { kind: 'credit'; share: number; method: 'wallet' | 'payment_method' | 'none' }
  | { kind: 'uncollectible' }
  | { kind: 'void' };

export interface DocumentPlan {
  lines: { ex: number; rate: (typeof RATES)[number]; product: string | null }[];
  day: number;
  steps: Step[];
  status: 'to_pay' | 'grace_period' | 'draft';
}

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('pay' as const), share: fc.double({ min: 0.05, max: 1, noNaN: true }), way: fc.constantFrom(...WAYS) }),
  fc.record({ kind: fc.constant('credit' as const), share: fc.double({ min: 0.05, max: 1, noNaN: true }), method: fc.constantFrom('wallet' as const, 'payment_method' as const, 'none' as const) }),
  fc.constant({ kind: 'uncollectible' as const }),
  fc.constant({ kind: 'void' as const }),
);

export const planArb: fc.Arbitrary<DocumentPlan> = fc.record({
  lines: fc.array(fc.record({ ex: fc.integer({ min: -5_000, max: 1_000_000 }), rate: fc.constantFrom(...RATES), product: fc.constantFrom('itm_a', 'itm_b', null) }), { minLength: 1, maxLength: 4 }),
  day: fc.integer({ min: 0, max: 59 }),
  steps: fc.array(stepArb, { maxLength: 5 }),
  status: fc.constantFrom('to_pay' as const, 'to_pay' as const, 'grace_period' as const, 'draft' as const),
});

export const walletMovesArb = fc.array(fc.record({ type: fc.constantFrom('credit_free' as const, 'debit' as const), amount: fc.integer({ min: 1, max: 50_000 }), day: fc.integer({ min: 0, max: 59 }) }), { maxLength: 5 });

const at = (day: number, minute = 0) => new Date(Date.UTC(2026, 9, 1) + day * 86_400_000 + minute * 60_000).toISOString();

const line = (id: string, ex: number, rate: number, product: string | null): InvoiceLineItem => {
  const tax = Math.round((ex * rate) / 100);
  return {
    id, name: 'L', description: null, entry_type: 'product', product_id: product, product_type: null, price_id: null, units_count: 1, unit_amount: ex,
    amount: ex + tax, amount_excluding_tax: ex, tax_rate: rate, tax_rate_id: null, tax_amount: tax, discount_amount: 0, discount_percent: null,
    period_starts_at: null, period_ends_at: null, revenue_type: 'one_off', revenue_interval_count: null, revenue_interval_period: null,
    display_unit_amount: true, display_service_period: false, original_line_item_id: null,
  };
};

const transaction = (id: string, type: 'payment' | 'refund', amount: number, way: (typeof WAYS)[number], when: string, currency: string): PaymentTransaction => ({
  id, type, amount, currency, customer_id: 'cus_1', process_at: when, refunded_at: null, last_refreshed_at: when, provider_fee: null, chargeback: null, integrations: [],
  provider_id: way === 'sandbox' ? `sbx_ch_${id}` : way === 'stripe' ? `pi_${id}` : null,
  payment_method: { id: null, status: null, type: way === 'wallet' ? 'wallet' : 'transfer', last_4_digits: null, expiration_date: null, brand: null },
  status: 'succeeded', error_type: null, comment: null,
});

function document(id: string, type: 'invoice' | 'credit_note', lines: InvoiceLineItem[], when: string, currency: string, rate: number | null): InvoiceItem {
  const ex = lines.reduce((s, l) => s + l.amount_excluding_tax, 0);
  const tax = lines.reduce((s, l) => s + l.tax_amount, 0);
  return {
    pk: `WS#ws#INV#${id}`, sk: 'INV', _type: 'invoice', _version: 0, id, number: `${type === 'invoice' ? 'F' : 'A'}-${id}`, type, document_name: null, status: 'to_pay',
    reference: null, customer_id: 'cus_1', purchase_order: null, currency, source: 'api', total_amount: ex + tax, amount_due: ex + tax, amount_paid: 0, amount_credited: 0,
    amount_fixed: 0, amount_excluding_tax: ex, tax_rate: 0, tax_amount: tax, tax_scheme: 'manual' as never, discount_amount: 0, conversion_rate: rate, converted_amount: null,
    converted_at: null, payment_method_id: null, bank_account_id: null, custom_note: null, additional_info: null, footer: '',
    customer: { id: 'cus_1', name: 'Client Un', email: null, external_id: null, vat_number: null, tax_id: null, address: null },
    seller: { id: 'ive_1', name: 'Vendeur', trade_name: null, tax_id: null, address: null as never }, subscription_id: null, period_starts_at: null, period_ends_at: null,
    emitted_at: when, due_at: when, refunded_at: null, grace_period_ended_at: null, settled_at: null, created_at: when, updated_at: when, properties: null, custom_properties: null,
    original_invoice_id: null, original_invoice_number: null, line_items: lines, coupons: [], transactions: [], integrations: [], invoicing_entity_id: 'ive_1',
    tax_rate_exact: '0', coupon_terms: [], promotion_code_id: null, fixed_dates: { emitted_at: false, due_at: false }, credited_amount: 0, refunded_amount: 0,
    credited_by_line: {}, wallet_load: null,
  };
}

const OPEN = new Set(['to_pay', 'partially_paid', 'error', 'grace_period']);

/** The documents a plan makes: the invoice as it ends, and its credit notes. */
export function documentsOf(plan: DocumentPlan, n: number, currency = 'EUR', rate: number | null = null): InvoiceItem[] {
  const lines = plan.lines.map((l, i) => line(`ili_${n}_${i}`, l.ex, l.rate, l.product));
  let invoice = document(`inv_${n}`, 'invoice', lines, at(plan.day), currency, rate);
  if (invoice.total_amount <= 0) return [];
  if (plan.status === 'draft') return [{ ...invoice, status: 'draft', number: null }];
  invoice.status = plan.status;
  const notes: InvoiceItem[] = [];
  plan.steps.forEach((step, k) => {
    const when = at(plan.day, k + 1);
    const payable = ['to_pay', 'partially_paid'].includes(invoice.status);
    if (step.kind === 'pay' && payable && invoice.amount_due > 0) {
      const amount = Math.max(1, Math.floor(invoice.amount_due * step.share));
      const paid = invoice.amount_paid + amount;
      const due = invoice.total_amount - paid - invoice.amount_credited;
      invoice = { ...invoice, amount_paid: paid, amount_due: due, status: due === 0 ? 'paid' : 'partially_paid', transactions: [...invoice.transactions, transaction(`tra_${n}_${k}`, 'payment', amount, step.way, when, currency)] };
    }
    if (step.kind === 'uncollectible' && payable && invoice.amount_due > 0) invoice = { ...invoice, status: 'uncollectible', written_off_at: when };
    const left = invoice.total_amount - invoice.credited_amount;
    const voids = step.kind === 'void' && invoice.status === 'to_pay' && invoice.amount_paid === 0;
    if ((step.kind === 'credit' && ['to_pay', 'partially_paid', 'paid', 'uncollectible'].includes(invoice.status) && left > 0) || voids) {
      const total = voids ? left : Math.max(1, Math.floor(left * (step.kind === 'credit' ? step.share : 1)));
      const rateOf = plan.lines[0]!.rate;
      const tax = Math.round((total * rateOf) / (100 + rateOf));
      const settles = Math.min(total, invoice.amount_due);
      const paidPart = total - settles;
      const method = voids || paidPart === 0 ? 'none' : (step as { method: 'wallet' | 'payment_method' | 'none' }).method;
      const refund = method === 'none' ? 0 : paidPart;
      const note = document(`inv_${n}_cn${k}`, 'credit_note', [{ ...line(`ili_${n}_cn${k}`, total - tax, rateOf, plan.lines[0]!.product), tax_amount: tax, amount: total }], when, currency, rate);
      notes.push({
        ...note, status: 'paid', amount_paid: refund, amount_credited: settles, amount_due: 0, original_invoice_id: invoice.id,
        transactions: refund > 0 ? [transaction(`tra_${n}_r${k}`, 'refund', refund, method === 'wallet' ? 'wallet' : 'manual', when, currency)] : [],
      });
      const credited = invoice.amount_credited + settles;
      const due = invoice.total_amount - invoice.amount_paid - credited;
      invoice = {
        ...invoice, amount_credited: credited, amount_due: due, credited_amount: invoice.credited_amount + total, refunded_amount: invoice.refunded_amount + refund,
        status: voids ? 'voided' : due === 0 && OPEN.has(invoice.status) ? 'paid' : invoice.status,
      };
    }
  });
  return [invoice, ...notes];
}

export function walletTransactionsOf(moves: { type: 'credit_free' | 'debit'; amount: number; day: number }[]): WalletTransactionItem[] {
  return moves.map((m, i) => ({
    pk: 'WS#ws#WAL#wal_1', sk: `TX#walt_${i}`, _type: 'wallet_transaction', id: `walt_${i}`, wallet_id: 'wal_1', customer_id: 'cus_1', type: m.type, amount: m.amount,
    balance_after: 0, currency: 'EUR', comment: null, source: m.type === 'debit' ? 'auto_load' : 'load', reverts_transaction_id: null, reverted_by_transaction_id: null,
    invoice_id: null, created_at: at(m.day, 30),
  }));
}

/** What the customer owes, from the documents themselves: open invoices' amount_due, less what credit notes credited without refund. */
export function expectedReceivable(documents: readonly InvoiceItem[]): number {
  const owed = documents.filter((d) => d.type === 'invoice' && OPEN.has(d.status)).reduce((s, d) => s + d.amount_due, 0);
  const credit = documents.filter((d) => d.type === 'credit_note').reduce((s, d) => s + d.total_amount - d.amount_credited - d.amount_paid - d.amount_due, 0);
  return owed - credit;
}
