import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { retryOnRace, versionCondition } from '../../db/items';
import { ledgerItems } from '../../db/ledger';
import { counterUpdate } from '../../db/pagination';
import { transactWrite, type TransactItem } from '../../db/transactions';
import { Conflict, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import type { EntityItem } from '../invoicing-entities/invoicing-entity';
import { findEntityItem } from '../invoicing-entities/read';
import { walletChange } from '../wallets/ledger';
import type { WalletItem } from '../wallets/wallet';
import { findCustomerWallet } from '../wallets/wallets';
import { creditedParts, creditLines, type CreditRequest } from './credit-amounts';
import { INVOICE, invoiceKey, invoiceListFields, invoiceListKeys, toInvoice, type Invoice, type InvoiceItem } from './invoice';
import { takeNumber } from './numbering';
import { findInvoiceItem } from './read';
import { paymentTransaction } from './settle';
import { assertMove } from './transitions';

export type RefundMethod = 'payment_method' | 'wallet' | 'none';

export interface CreditNoteInput extends CreditRequest {
  refund_method?: RefundMethod;
  reason?: string | null;
}

const refundable = (invoice: InvoiceItem) => invoice.amount_paid - invoice.refunded_amount;

/**
 * decisions.md: an explicit method wins; else the entity's wallet flag; else the payment method for paid invoices;
 * else none. With nothing paid (and not refunded yet) there is nothing to refund: none, whatever the flag.
 */
function refundMethodOf(input: CreditNoteInput, invoice: InvoiceItem, entity: EntityItem): RefundMethod {
  if (input.refund_method) return input.refund_method;
  if (refundable(invoice) === 0) return 'none';
  if (entity.credit_note_wallet_refund_enabled) return 'wallet';
  return invoice.status === 'paid' ? 'payment_method' : 'none';
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
  const method = voids ? 'none' : refundMethodOf(input, original, entity);
  const refund = method === 'none' ? 0 : totals.total_amount;
  if (refund > refundable(original)) {
    throw new RuleViolation('refund_exceeds_paid', `A refund of ${refund} exceeds the ${refundable(original)} paid and not yet refunded on invoice '${original.id}'.`);
  }
  const now = ctx.clock.now().toISOString();
  const id = newId('inv');
  const wallet = method === 'wallet' ? await customerWallet(ctx, original.customer_id) : undefined;
  const number = takeNumber(ctx, entity, 'credit_note', new Date(now));
  const note: InvoiceItem = {
    ...original,
    ...invoiceKey(ctx, id),
    ...invoiceListKeys(ctx, now, id),
    _version: 0,
    id,
    number: number.number,
    type: 'credit_note',
    status: 'paid',
    ...totals,
    amount_fixed: 0,
    amount_paid: totals.total_amount,
    amount_due: 0,
    line_items: lines,
    coupons: [],
    transactions: refund > 0 ? [paymentTransaction(ctx, original, newId('tra'), {
      amount: refund, provider_id: null, payment_method: { id: wallet?.id ?? original.payment_method_id, type: method === 'wallet' ? 'wallet' : 'payment_method' },
      status: 'succeeded', error_type: null, comment: input.reason ?? null,
    }, 'refund')] : [],
    custom_note: input.reason ?? null,
    emitted_at: now, due_at: now, settled_at: now, refunded_at: null, grace_period_ended_at: null, created_at: now, updated_at: now,
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
  const updated: InvoiceItem = {
    ...original,
    _version: original._version + 1,
    status: voids ? 'voided' : original.status,
    credited_amount: original.credited_amount + totals.total_amount,
    refunded_amount: original.refunded_amount + refund,
    credited_by_line,
    refunded_at: now,
    updated_at: now,
  };
  updated.lf = invoiceListFields(updated);
  const items: TransactItem[] = [
    { Put: { TableName: tableName(), Item: note, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: tableName(), Item: updated, ...versionCondition(original._version) } },
    number.item,
    counterUpdate(ctx, INVOICE, 1),
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
