import type { Ctx } from '../../context';
import { amountDue } from '../../money/amounts';
import { paidLoadCreditItems } from '../wallets/operations';
import type { TransactItem } from '../../db/transactions';
import { invoiceListFields, type InvoiceItem, type PaymentTransaction } from './invoice';

type TransactionDraft = Pick<PaymentTransaction, 'amount' | 'provider_id' | 'payment_method' | 'status' | 'error_type' | 'comment'> & {
  process_at?: string;
  provider_fee?: number | null;
};

export function paymentTransaction(ctx: Ctx, invoice: InvoiceItem, id: string, draft: TransactionDraft, type: PaymentTransaction['type'] = 'payment'): PaymentTransaction {
  const now = ctx.clock.now().toISOString();
  return {
    id, type, amount: draft.amount, currency: invoice.currency, customer_id: invoice.customer_id, provider_id: draft.provider_id, process_at: draft.process_at ?? now,
    refunded_at: null, last_refreshed_at: now, provider_fee: draft.provider_fee ?? null, chargeback: null, integrations: [], payment_method: draft.payment_method,
    status: draft.status, error_type: draft.error_type, comment: draft.comment,
  };
}

/**
 * The invoice after a succeeded payment: amount_paid and amount_due move together (amount_due = total − paid −
 * credited, refusing overpayment), partially_paid or paid, `settled_at` once nothing is due.
 */
export function withPayment(ctx: Ctx, invoice: InvoiceItem, transaction: PaymentTransaction): InvoiceItem {
  const amount_paid = invoice.amount_paid + transaction.amount;
  const amount_due = amountDue(invoice.total_amount, amount_paid, invoice.amount_credited ?? 0);
  const now = ctx.clock.now().toISOString();
  const next: InvoiceItem = {
    ...invoice,
    amount_paid,
    amount_due,
    status: amount_due === 0 ? 'paid' : 'partially_paid',
    settled_at: amount_due === 0 ? now : null,
    transactions: [...invoice.transactions, transaction],
    updated_at: now,
  };
  delete next.charge_attempt;
  next.lf = invoiceListFields(next);
  return next;
}

/** A failed charge: the invoice moves to `error` and keeps the failed transaction (decisions.md). */
export function withFailedCharge(ctx: Ctx, invoice: InvoiceItem, transaction: PaymentTransaction): InvoiceItem {
  const next: InvoiceItem = { ...invoice, status: 'error', transactions: [...invoice.transactions, transaction], updated_at: ctx.clock.now().toISOString() };
  delete next.charge_attempt;
  next.lf = invoiceListFields(next);
  return next;
}

/**
 * A charge the provider has not settled (processing, or awaiting the customer's authentication): the invoice keeps
 * its status and the pending transaction, and no other charge starts until the provider says (docs/payments.md).
 */
export function withPendingCharge(ctx: Ctx, invoice: InvoiceItem, transaction: PaymentTransaction, reason: 'processing' | 'authentication_required'): InvoiceItem {
  const next: InvoiceItem = {
    ...invoice,
    transactions: [...invoice.transactions, transaction],
    pending_charge: { transaction_id: transaction.id, provider_id: transaction.provider_id ?? '', reason },
    updated_at: ctx.clock.now().toISOString(),
  };
  delete next.charge_attempt;
  next.lf = invoiceListFields(next);
  return next;
}

/** What else settles with the invoice: a paid wallet load is credited in the same transaction. */
export async function settlementItems(ctx: Ctx, next: InvoiceItem): Promise<TransactItem[]> {
  if (next.status !== 'paid' || !next.wallet_load) return [];
  return paidLoadCreditItems(ctx, next.wallet_load.wallet_id, next.wallet_load.load_id, next.id);
}

/** What the provider finally says of a pending charge: paid (with its fee) or failed (with its reason). */
export type SettledOutcome = { status: 'succeeded'; providerFee: number | null } | { status: 'failed'; errorType: string; message: string };

/**
 * The invoice once the provider settled its pending charge: the pending transaction, in its place, becomes
 * succeeded (the invoice paid as by `withPayment`) or failed (the invoice in `error`, as by `withFailedCharge`). An
 * invoice that left the payable states meanwhile (voided…) keeps its status; only its transaction says what happened.
 */
export function withSettledCharge(ctx: Ctx, invoice: InvoiceItem, outcome: SettledOutcome, payable: boolean): InvoiceItem {
  const pendingId = invoice.pending_charge!.transaction_id;
  const pending = invoice.transactions.find((t) => t.id === pendingId)!;
  const now = ctx.clock.now().toISOString();
  const settled: PaymentTransaction = outcome.status === 'succeeded'
    ? { ...pending, status: 'succeeded', provider_fee: outcome.providerFee, error_type: null, comment: null, last_refreshed_at: now }
    : { ...pending, status: 'failed', error_type: outcome.errorType, comment: outcome.message, last_refreshed_at: now };
  const others = { ...invoice, transactions: invoice.transactions.filter((t) => t.id !== pendingId) };
  delete others.pending_charge;
  const moved = !payable ? { ...others, transactions: [...others.transactions, settled], updated_at: now }
    : outcome.status === 'succeeded' ? withPayment(ctx, others, settled)
    : withFailedCharge(ctx, others, settled);
  // The transaction keeps its place in the list.
  const next: InvoiceItem = { ...moved, transactions: invoice.transactions.map((t) => (t.id === pendingId ? settled : t)) };
  next.lf = invoiceListFields(next);
  return next;
}
