import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { effectKey, outsideEffect } from '../../db/effect-claim';
import { putIfUnchanged, retryOnRace, versionCondition } from '../../db/items';
import { transactWrite } from '../../db/transactions';
import { afterOutsidePayment, type CollectionWrite } from '../collection/dunning';
import { Conflict, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { findCustomerItem } from '../customers/read';
import { methodSummary, type PaymentMethodItem } from '../payment-methods/payment-method';
import { findPaymentMethod } from '../payment-methods/payment-methods';
import { ChargeOutcomeUnknown } from '../payments/errors';
import { paymentProvider, type ChargeResult } from '../payments/provider';
import { toInvoice, type Invoice, type InvoiceItem } from './invoice';
import { assertPayable } from './payments';
import { pendingCheckPut } from './pending-check';
import { findInvoiceItem } from './read';
import { paymentTransaction, settlementItems, withFailedCharge, withPayment, withPendingCharge } from './settle';

async function methodFor(ctx: Ctx, invoice: InvoiceItem, given: string | undefined): Promise<PaymentMethodItem> {
  const id = given ?? invoice.payment_method_id ?? (await findCustomerItem(ctx, invoice.customer_id)).current_payment_method_id;
  if (!id) throw new RuleViolation('payment_method_missing', `Invoice '${invoice.id}' has no payment method to charge, nor has its customer a default one.`);
  return findPaymentMethod(ctx, invoice.customer_id, id).catch(() => {
    throw new RuleViolation('payment_method_not_found', `No saved payment method '${id}' for customer '${invoice.customer_id}'.`);
  });
}

/**
 * A charge made by the automatic collection (shared/domain/collection/collect.ts): its provider key is derived from
 * the invoice and the attempt (so a crashed worker's retry is the same charge at the provider), `check` refuses an
 * invoice that is no longer at this attempt, and `finish` moves the collection's state in the charge's own write.
 */
export interface CollectionCharge {
  providerKey: string;
  check(invoice: InvoiceItem): void;
  finish(charged: InvoiceItem, result: ChargeResult): CollectionWrite;
}

/**
 * Claims the invoice for one charge: a conditional write on its version that records the attempt (and the method,
 * which overrides the invoice's). While the claim holds, no other charge or payment starts, so the provider is never
 * asked twice for the same amount due.
 */
async function claim(ctx: Ctx, id: string, given: string | undefined, providerKey: string | undefined, collection?: CollectionCharge) {
  return retryOnRace(async () => {
    const invoice = await findInvoiceItem(ctx, id);
    collection?.check(invoice);
    // The attempt of a crashed request with the same Idempotency-Key is this one's: taken over at once.
    const ours = providerKey !== undefined && invoice.charge_attempt?.provider_key === providerKey;
    assertPayable(ctx, ours ? { ...invoice, charge_attempt: undefined } : invoice);
    if (invoice.amount_due === 0) throw new RuleViolation('nothing_to_charge', `Invoice '${id}' has nothing due.`);
    const method = await methodFor(ctx, invoice, given);
    const started_at = ctx.clock.now().toISOString();
    // An attempt that never finished (a crash, or no answer from the provider) may have charged: this charge is that
    // attempt again, under its id and provider key, so the provider answers with what it did instead of charging anew.
    const previous = invoice.charge_attempt;
    const attempt = previous
      ? { id: previous.id, started_at, first_started_at: previous.first_started_at ?? previous.started_at, ...(previous.provider_key && { provider_key: previous.provider_key }) }
      : { id: newId('tra'), started_at, ...(providerKey && { provider_key: providerKey }) };
    const claimed = await putIfUnchanged({ ...invoice, payment_method_id: method.id, charge_attempt: attempt }, invoice._version);
    return { invoice: claimed, method, attempt, resumedFrom: previous && (previous.first_started_at ?? previous.started_at) };
  });
}

/** Records the provider's answer on the invoice that the attempt claimed; a paid wallet load is credited with it. */
async function finish(ctx: Ctx, id: string, attemptId: string, method: PaymentMethodItem, result: ChargeResult, collection?: CollectionCharge): Promise<Invoice> {
  return retryOnRace(async () => {
    const invoice = await findInvoiceItem(ctx, id);
    if (invoice.charge_attempt?.id !== attemptId) throw new Conflict(`The charge of invoice '${id}' was taken over by another one.`, 'charge_in_progress');
    const transaction = paymentTransaction(ctx, invoice, attemptId, {
      amount: invoice.amount_due, provider_id: result.providerId || null, payment_method: methodSummary(method), status: result.status,
      provider_fee: result.status === 'succeeded' ? result.providerFee : null,
      error_type: result.status === 'failed' ? result.errorType : result.status === 'pending' ? result.reason : null,
      comment: result.status === 'succeeded' ? null : result.message,
    });
    const charged =
      result.status === 'succeeded' ? withPayment(ctx, invoice, transaction)
      : result.status === 'failed' ? withFailedCharge(ctx, invoice, transaction)
      : withPendingCharge(ctx, invoice, transaction, result.reason);
    // The collection's state moves in the same write: its retries, or its end (docs/collection.md).
    const moved = collection ? collection.finish(charged, result) : result.status === 'succeeded' ? afterOutsidePayment(ctx, charged) : { item: charged, also: [] };
    const next = { ...moved.item, _version: invoice._version + 1 };
    // A pending charge is checked at the provider later, in case its webhook never comes (pending-check.ts).
    const check = result.status === 'pending' ? [pendingCheckPut(ctx, id)] : [];
    await transactWrite([{ Put: { TableName: tableName(), Item: next, ...versionCondition(invoice._version) } }, ...moved.also, ...check, ...(await settlementItems(ctx, next))]);
    return toInvoice(next);
  });
}

/**
 * `POST /v1/invoices/{id}/charge` (decisions.md): charges the amount due with the body's method, else the
 * invoice's, else the customer's default. Success pays the invoice; a decline moves it to `error` with the failed
 * transaction and its `error_type`, and the answer is still 200 with the invoice.
 * Under an `Idempotency-Key` (docs/idempotency.md) only `finish` is the effect: the claim and its release are
 * preparation, redone by a retry after a crash, and the provider gets a key derived from the request's key, so the
 * retry's charge is the crashed one's, never a second.
 */
export async function chargeInvoice(ctx: Ctx, id: string, paymentMethodId?: string, collection?: CollectionCharge, onSession = false): Promise<Invoice> {
  const providerKey = collection?.providerKey ?? effectKey();
  const { invoice, method, attempt, resumedFrom } = await outsideEffect(() => claim(ctx, id, paymentMethodId, providerKey, collection));
  let result: ChargeResult;
  try {
    result = await paymentProvider(method.provider).charge({
      reference: method.provider_reference, amount: invoice.amount_due, currency: invoice.currency, idempotencyKey: attempt.provider_key ?? attempt.id,
      owner: { ctx, customerId: invoice.customer_id }, accountId: method.provider_account_id, offSession: !onSession,
      metadata: { invoice_id: invoice.id, attempt_id: attempt.id }, resumedFrom,
    });
  } catch (error) {
    // No answer: the attempt stays, marked, so that the next charge asks the provider again under the same key.
    await outsideEffect(() => (error instanceof ChargeOutcomeUnknown ? markUnknown(ctx, id, attempt.id) : release(ctx, id, attempt.id)));
    throw error;
  }
  return finish(ctx, id, attempt.id, method, result, collection);
}

/** The provider never answered: the attempt is kept, and the next charge may take it over at once. */
async function markUnknown(ctx: Ctx, id: string, attemptId: string): Promise<void> {
  await retryOnRace(async () => {
    const invoice = await findInvoiceItem(ctx, id);
    if (invoice.charge_attempt?.id !== attemptId) return;
    await putIfUnchanged({ ...invoice, charge_attempt: { ...invoice.charge_attempt, outcome_unknown: true } }, invoice._version);
  });
}

/** The charge failed before reaching the provider: the claim is lifted so the invoice can be charged again. */
async function release(ctx: Ctx, id: string, attemptId: string): Promise<void> {
  await retryOnRace(async () => {
    const invoice = await findInvoiceItem(ctx, id);
    if (invoice.charge_attempt?.id !== attemptId) return;
    const { charge_attempt: _attempt, ...rest } = invoice;
    await putIfUnchanged(rest as InvoiceItem, invoice._version);
  });
}
