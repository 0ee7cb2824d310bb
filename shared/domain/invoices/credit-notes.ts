import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { retryOnRace, versionCondition } from '../../db/items';
import { ledgerItems } from '../../db/ledger';
import { counterUpdate } from '../../db/pagination';
import { transactWrite, type TransactItem } from '../../db/transactions';
import { Conflict, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { amountDue } from '../../money/amounts';
import type { EntityItem } from '../invoicing-entities/invoicing-entity';
import { findEntityItem } from '../invoicing-entities/read';
import { plainSummary, type PaymentMethodSummary } from '../payment-methods/payment-method';
import { walletChange } from '../wallets/ledger';
import type { WalletItem } from '../wallets/wallet';
import { findCustomerWallet } from '../wallets/wallets';
import { creditedParts, creditLines, type CreditRequest } from './credit-amounts';
import { INVOICE, invoiceKey, invoiceListFields, invoiceListKeys, toInvoice, type Invoice, type InvoiceItem, type InvoiceStatus } from './invoice';
import { takeNumber } from './numbering';
import { findInvoiceItem } from './read';
import { pendingCheckPut } from './pending-check';
import { paymentTransaction } from './settle';
import { assertNoChargeRunning } from './payments';
import { assertMove } from './transitions';

export type RefundMethod = 'payment_method' | 'wallet' | 'none';

export interface CreditNoteInput extends CreditRequest {
  refund_method?: RefundMethod;
  reason?: string | null;
}

const refundable = (invoice: InvoiceItem) => invoice.amount_paid - invoice.refunded_amount;

/** Statuses where a payment is still awaited: a credit note that settles everything left makes them `paid`. */
const AWAITING_PAYMENT: readonly InvoiceStatus[] = ['to_pay', 'partially_paid', 'error'];

/**
 * decisions.md: an explicit method wins; else the entity's wallet flag; else the payment method. Only the part of a
 * credit note beyond what is still unpaid gives money back (`paidPart`): with none, nothing is refunded, whatever the
 * method says.
 */
function refundMethodOf(input: CreditNoteInput, paidPart: number, entity: EntityItem): RefundMethod {
  if (paidPart === 0) return 'none';
  if (input.refund_method) return input.refund_method;
  return entity.credit_note_wallet_refund_enabled ? 'wallet' : 'payment_method';
}

/**
 * How a credit note of `total` splits (docs/invoices.md "Credit notes"): it first settles what is still unpaid (the
 * customer owes that much less), then gives back, up to what was paid, the rest; with `none` that rest is credited
 * without a refund. `settles + paidPart = total`, and `paidPart ≤ paid − refunded` because a credit note never
 * exceeds the uncredited total.
 */
export function creditSplit(invoice: Pick<InvoiceItem, 'amount_due'>, total: number) {
  const settles = Math.min(total, invoice.amount_due);
  return { settles, paidPart: total - settles };
}

/** A refund to the payment method goes back the way the money came: the method of the latest succeeded payment. */
function refundedWay(invoice: InvoiceItem): PaymentMethodSummary | null {
  return latestPayment(invoice)?.payment_method ?? null;
}

const latestPayment = (invoice: InvoiceItem) => invoice.transactions.filter((t) => t.type === 'payment' && t.status === 'succeeded').at(-1);

/** The Stripe PaymentIntent a refund to the payment method goes back through, when the money came by Stripe. */
function stripeIntentOf(invoice: InvoiceItem): string | undefined {
  const providerId = latestPayment(invoice)?.provider_id;
  return providerId?.startsWith('pi_') ? providerId : undefined;
}

async function customerWallet(ctx: Ctx, customerId: string): Promise<WalletItem> {
  const wallet = await findCustomerWallet(ctx, customerId);
  if (!wallet) throw new RuleViolation('wallet_missing', `Customer '${customerId}' has no wallet to refund to.`);
  return wallet;
}

interface Credit {
  original: InvoiceItem;
  entity: EntityItem;
  input: CreditNoteInput;
  /** void: the original moves to voided with this credit note. */
  voids: boolean;
}

/**
 * One transaction: the credit note (numbered from the entity's credit-note sequence), the original on its version
 * (what it has credited and refunded, and `refunded_at`), the list counter and, for a wallet refund, the wallet's
 * ledger. The original's version makes concurrent credit notes serialize, so together they never exceed the total.
 */
async function writeCreditNote(ctx: Ctx, { original, entity, input, voids }: Credit): Promise<{ note: InvoiceItem; original: InvoiceItem }> {
  const parts = creditedParts(original, input);
  const { lines, totals } = creditLines(original, parts, () => newId('ili'));
  if (totals.total_amount === 0) throw new RuleViolation('nothing_to_credit', `Invoice '${original.id}' has nothing left to credit.`);
  assertNoChargeRunning(ctx, original);
  const { settles, paidPart } = creditSplit(original, totals.total_amount);
  const method = voids ? 'none' : refundMethodOf(input, paidPart, entity);
  const refund = method === 'none' ? 0 : paidPart;
  if (refund > refundable(original)) {
    throw new RuleViolation('refund_exceeds_paid', `A refund of ${refund} exceeds the ${refundable(original)} paid and not yet refunded on invoice '${original.id}'.`);
  }
  const now = ctx.clock.now().toISOString();
  const id = newId('inv');
  const wallet = method === 'wallet' ? await customerWallet(ctx, original.customer_id) : undefined;
  const number = takeNumber(ctx, entity, 'credit_note', new Date(now));
  // Money paid through Stripe goes back through Stripe: the refund is pending until Stripe confirms it (refunds.ts).
  const intent = method === 'payment_method' && refund > 0 ? stripeIntentOf(original) : undefined;
  const refundId = newId('tra');
  const note: InvoiceItem = {
    ...original,
    ...invoiceKey(ctx, id),
    ...invoiceListKeys(ctx, now, id),
    _version: 0,
    id,
    number: number.number,
    type: 'credit_note',
    status: intent ? 'to_pay' : 'paid',
    ...totals,
    amount_fixed: 0,
    amount_paid: intent ? 0 : refund,
    amount_credited: settles,
    amount_due: intent ? refund : 0,
    line_items: lines,
    coupons: [],
    transactions: refund > 0 ? [paymentTransaction(ctx, original, refundId, {
      amount: refund, provider_id: null, payment_method: wallet ? plainSummary('wallet', wallet.id) : refundedWay(original),
      status: intent ? 'pending' : 'succeeded', error_type: null, comment: input.reason ?? null,
    }, 'refund')] : [],
    ...(intent && { pending_refund: { transaction_id: refundId, payment_intent: intent, amount: refund } }),
    custom_note: input.reason ?? null,
    emitted_at: now, due_at: now, settled_at: intent ? null : now, refunded_at: null, grace_period_ended_at: null, created_at: now, updated_at: now,
    original_invoice_id: original.id,
    original_invoice_number: original.number,
    coupon_terms: [], promotion_code_id: null, credited_amount: 0, refunded_amount: 0, credited_by_line: {}, wallet_load: null,
    fixed_dates: { emitted_at: false, due_at: false },
  };
  delete note.charge_attempt;
  delete note.gsi4pk;
  delete note.gsi4sk;
  note.lf = invoiceListFields(note);
  const credited_by_line = { ...original.credited_by_line };
  for (const [lineId, part] of parts) credited_by_line[lineId] = (credited_by_line[lineId] ?? 0) + part;
  const amount_credited = (original.amount_credited ?? 0) + settles;
  const amount_due = amountDue(original.total_amount, original.amount_paid, amount_credited);
  const settled = amount_due === 0 && AWAITING_PAYMENT.includes(original.status);
  const updated: InvoiceItem = {
    ...original,
    _version: original._version + 1,
    status: voids ? 'voided' : settled ? 'paid' : original.status,
    amount_credited,
    amount_due,
    settled_at: settled && !voids ? now : original.settled_at,
    credited_amount: original.credited_amount + totals.total_amount,
    refunded_amount: original.refunded_amount + refund,
    credited_by_line,
    refunded_at: refund > 0 && !intent ? now : original.refunded_at,
    updated_at: now,
  };
  updated.lf = invoiceListFields(updated);
  const items: TransactItem[] = [
    { Put: { TableName: tableName(), Item: note, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: tableName(), Item: updated, ...versionCondition(original._version) } },
    number.item,
    counterUpdate(ctx, INVOICE, 1),
    // Asked again later if the provider's answer never comes (pending-check.ts).
    ...(intent ? [pendingCheckPut(ctx, id)] : []),
    ...(wallet ? ledgerItems(walletChange(ctx, wallet, [{ type: 'credit_paid', amount: refund, source: 'credit_note', comment: `Credit note ${number.number}`, invoice_id: id }], new Date(now)).change) : []),
  ];
  await transactWrite(items);
  return { note, original: updated };
}

/**
 * `POST /v1/invoices/{id}/credit-notes`: credits all or part of an invoice (by amount, or by line) and refunds it
 * as `refund_method` says. Refunds are settled at once: to the wallet in the same transaction, to the payment method
 * by the provider (the sandbox's refunds always succeed); the credit note is then `paid` (refunded).
 */
export async function createCreditNote(ctx: Ctx, invoiceId: string, input: CreditNoteInput): Promise<Invoice> {
  return retryOnRace(async () => {
    const original = await findInvoiceItem(ctx, invoiceId);
    if (original.type !== 'invoice') throw new Conflict(`'${invoiceId}' is a ${original.type}: only invoices are credited.`);
    assertMove(original, 'credit');
    const entity = await findEntityItem(ctx, original.invoicing_entity_id, true);
    return toInvoice((await writeCreditNote(ctx, { original, entity, input, voids: false })).note);
  }, 40);
}

/** `POST /v1/invoices/{id}/void`: to_pay → voided, with a credit note for the full amount (nothing was paid to refund). */
export async function voidInvoice(ctx: Ctx, id: string): Promise<Invoice> {
  return retryOnRace(async () => {
    const original = await findInvoiceItem(ctx, id);
    assertMove(original, 'void');
    const entity = await findEntityItem(ctx, original.invoicing_entity_id, true);
    return toInvoice((await writeCreditNote(ctx, { original, entity, input: { refund_method: 'none' }, voids: true })).original);
  });
}
