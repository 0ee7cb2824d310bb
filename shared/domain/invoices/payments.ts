import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { retryOnRace, versionCondition } from '../../db/items';
import { transactWrite, type TransactItem } from '../../db/transactions';
import { Conflict, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { plainSummary } from '../payment-methods/payment-method';
import { walletDebitItems } from '../wallets/ledger';
import { afterOutsidePayment, type CollectionWrite } from '../collection/dunning';
import type { WalletItem } from '../wallets/wallet';
import { findCustomerWallet } from '../wallets/wallets';
import { toInvoice, type Invoice, type InvoiceItem } from './invoice';
import { findInvoiceItem } from './read';
import { paymentTransaction, settlementItems, withPayment } from './settle';
import { assertMove } from './transitions';

export interface PaymentInput {
  amount: number;
  payment_method_type?: 'transfer' | 'card' | 'direct_debit' | 'wallet' | 'external' | 'other';
  process_at?: string;
  comment?: string | null;
}

/** A charge older than this is taken as abandoned (its Lambda timed out): payments may go on. */
export const CHARGE_LOCK_MS = 60_000;

export function assertPayable(ctx: Ctx, invoice: InvoiceItem): void {
  if (invoice.type === 'credit_note') throw new Conflict(`'${invoice.id}' is a credit note: it is refunded, not paid.`);
  assertMove(invoice, 'pay');
  assertNoChargeRunning(ctx, invoice);
}

/** A charge at the provider is for the amount due when it started: nothing may change that amount meanwhile. */
export function assertNoChargeRunning(ctx: Ctx, invoice: InvoiceItem): void {
  if (invoice.pending_charge) {
    throw new Conflict(`Invoice '${invoice.id}' has a payment pending at the provider (${invoice.pending_charge.reason}); its outcome settles it.`, 'charge_pending');
  }
  const attempt = invoice.charge_attempt;
  if (attempt && !attempt.outcome_unknown && ctx.clock.now().getTime() - Date.parse(attempt.started_at) < CHARGE_LOCK_MS) {
    throw new Conflict(`Invoice '${invoice.id}' is being charged right now; try again once the charge is over.`, 'charge_in_progress');
  }
}

async function liveWallet(ctx: Ctx, invoice: InvoiceItem): Promise<WalletItem> {
  const wallet = await findCustomerWallet(ctx, invoice.customer_id);
  if (!wallet) throw new RuleViolation('wallet_missing', `Customer '${invoice.customer_id}' has no wallet to pay from.`);
  if (wallet.state !== 'active') throw new RuleViolation('wallet_paused', `Wallet '${wallet.id}' is paused: it does not pay invoices.`);
  if (invoice.wallet_load) throw new RuleViolation('wallet_load_not_payable_from_wallet', 'A wallet load cannot be paid from the wallet it loads.');
  return wallet;
}

/** A payment the automatic collection makes from the wallet: `check` and `finish` as for its charges (charge.ts). */
export interface CollectionPayment {
  check(invoice: InvoiceItem): void;
  finish(paid: InvoiceItem): CollectionWrite;
}

/**
 * `POST /v1/invoices/{id}/transactions`: a payment received outside the provider (transfer, cash…) or taken from
 * the customer's wallet. One transaction writes the invoice (on its version), the wallet debit when paid from the
 * wallet, and the wallet credit when the invoice is a paid load that this payment settles.
 */
export async function recordPayment(ctx: Ctx, id: string, input: PaymentInput, collection?: CollectionPayment): Promise<Invoice> {
  return retryOnRace(async () => {
    const invoice = await findInvoiceItem(ctx, id);
    assertPayable(ctx, invoice);
    collection?.check(invoice);
    const type = input.payment_method_type ?? 'transfer';
    const wallet = type === 'wallet' ? await liveWallet(ctx, invoice) : undefined;
    // The collection takes what the wallet holds, up to the amount due, as both are now (read again on a race).
    const amount = collection ? Math.min(input.amount, invoice.amount_due, wallet?.balance ?? 0) : input.amount;
    if (collection && amount <= 0) return toInvoice(invoice);
    if (amount > invoice.amount_due) {
      throw new RuleViolation('amount_exceeds_due', `The payment of ${amount} exceeds the ${invoice.amount_due} still due on invoice '${id}'.`);
    }
    const transaction = paymentTransaction(ctx, invoice, newId('tra'), {
      amount, provider_id: null, payment_method: plainSummary(type, wallet?.id ?? null), status: 'succeeded', error_type: null,
      comment: input.comment ?? null, process_at: input.process_at,
    });
    const paid = withPayment(ctx, invoice, transaction);
    // A payment outside the collection stops it; the collection's own moves its state (docs/collection.md).
    const moved = collection ? collection.finish(paid) : afterOutsidePayment(ctx, paid);
    const next = { ...moved.item, _version: invoice._version + 1 };
    const items: TransactItem[] = [
      { Put: { TableName: tableName(), Item: next, ...versionCondition(invoice._version) } },
      ...moved.also,
      ...(wallet ? walletDebitItems(ctx, wallet, amount, invoice.id) : []),
      ...(await settlementItems(ctx, next)),
    ];
    await transactWrite(items);
    return toInvoice(next);
  });
}
