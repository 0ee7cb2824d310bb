import type { Ctx } from '../../context';
import { retryOnRace } from '../../db/items';
import { ConditionFailed } from '../../db/transactions';
import { InvalidRequest, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { createInvoice } from '../invoices/create';
import { withFileId, type QuoteFileInput } from './input';
import { lineInputs, resolveQuoteLines, type ResolvedQuoteLines } from './lines';
import { promotionCoupons } from './promotion';
import { quoteListFields, toQuote, type Quote, type QuoteItem } from './quote';
import { findQuoteItem } from './read';
import { assertNotExpired } from './status';
import { keptProducts, prepareEffect, subscriptionToUpdate } from './subscriptions';
import { assertMove } from './transitions';
import { merged, productEntries, quotePut, writeEntries, type Entry } from './writes';

/** `POST /v1/quotes/{id}/sign`: every member optional. */
export interface SignInput {
  signed_at?: string;
  signer_name?: string | null;
  signer_email?: string | null;
  signed_file?: QuoteFileInput | null;
}

/** The quote's own write failed inside the invoice's transaction: read the quote again and decide again. */
class QuoteChanged extends Error {}

/** A lost race costs a retry of the whole signature (reads included); a few more than an ordinary edit. */
const SIGN_ATTEMPTS = 30;

/**
 * The catalog, as it is at signature, must still price the lines as quoted: the customer signs what the quote showed
 * (422 `quote_prices_changed` otherwise: void it and quote again). Products archived meanwhile are a 422
 * `product_archived`, configurations archived a 422 `price_archived`.
 */
async function linesAtSignature(ctx: Ctx, quote: QuoteItem, kept: ReadonlySet<string>): Promise<ResolvedQuoteLines> {
  const resolved = await resolveQuoteLines(ctx, quote.type, lineInputs(quote.line_items), quote.currency, kept);
  const changed = resolved.lines.findIndex((line, i) => line.amount !== quote.line_items[i]!.amount);
  if (changed >= 0) {
    const was = quote.line_items[changed]!;
    throw new RuleViolation(
      'quote_prices_changed',
      `line_items.${changed}: price configuration '${was.price_configuration_id}' now prices this line at ${resolved.lines[changed]!.amount}, the quote at ${was.amount}: void the quote and quote again.`,
    );
  }
  return resolved;
}

/**
 * draft, pending_approval, changes_requested, approved, pending_signature → signed, and what the signature does, in
 * ONE transaction with the quote's move (its Put conditioned on the version read):
 * - `subscription`: the new subscription's items (prepareSubscription), `subscription_id` and
 *   `child_subscription_ids` set on the quote;
 * - `subscription_update`: the subscription's new product list (prepareSubscriptionUpdate);
 * - `one_off`: an invoice issued (to_pay, numbered) by createInvoice, the quote's move riding in its transaction;
 *   `invoice_id` set on the quote.
 * The promotion code's redemption is counted in the same transaction. Any failure writes nothing: the quote stays
 * unsigned and nothing is created. A lost race (a void, an edit, a concurrent signature) is read again: the loser
 * of void against sign gets the 409 of a signed or voided quote.
 */
export async function signQuote(ctx: Ctx, id: string, input: SignInput): Promise<Quote> {
  const requestedAt = ctx.clock.now();
  if (input.signed_at !== undefined && Date.parse(input.signed_at) > requestedAt.getTime()) {
    throw new InvalidRequest('Invalid body: body.signed_at must not be in the future.', [{ path: 'body.signed_at', message: 'must not be in the future' }]);
  }
  const signedFile = input.signed_file ? withFileId(input.signed_file) : null;
  return retryOnRace(async () => {
    const current = await findQuoteItem(ctx, id);
    assertMove(current, 'sign');
    const now = ctx.clock.now().toISOString();
    const signed_at = input.signed_at ? new Date(input.signed_at).toISOString() : now;
    assertNotExpired(current, signed_at, 'be signed');
    const signed: QuoteItem = {
      ...current,
      status: 'signed',
      signed_at,
      signer_name: input.signer_name ?? null,
      signer_email: input.signer_email ?? null,
      signed_file: signedFile,
      updated_at: now,
      _version: current._version + 1,
    };
    return toQuote(current.type === 'one_off' ? await issueInvoice(ctx, current, signed) : await startSubscription(ctx, current, signed));
  }, SIGN_ATTEMPTS);
}

async function issueInvoice(ctx: Ctx, current: QuoteItem, signed: QuoteItem): Promise<QuoteItem> {
  await linesAtSignature(ctx, current, new Set());
  const invoiceId = newId('inv');
  const next: QuoteItem = { ...signed, invoice_id: invoiceId };
  next.lf = quoteListFields(next);
  try {
    await createInvoice(
      ctx,
      {
        customer_id: current.customer_id,
        invoicing_entity_id: current.invoicing_entity_id,
        currency: current.currency,
        status: 'to_pay',
        line_items: current.line_items.map((l) => ({ product_id: l.product_id, price_configuration_id: l.price_configuration_id, quantity: l.quantity })),
        ...(current.promotion_code && { promotion_code: current.promotion_code }),
      },
      { invoiceId, also: [quotePut(next, current._version)], alsoFailed: () => new QuoteChanged() },
    );
  } catch (error) {
    if (error instanceof QuoteChanged) throw new ConditionFailed(0);
    throw error;
  }
  return next;
}

async function startSubscription(ctx: Ctx, current: QuoteItem, signed: QuoteItem): Promise<QuoteItem> {
  const subscription = await subscriptionToUpdate(ctx, current);
  const kept = keptProducts(subscription);
  const resolved = await linesAtSignature(ctx, current, kept);
  // The code's coupon goes with a new subscription, which applies it to its invoices as long as the coupon lasts.
  const promotion = await promotionCoupons(ctx, current, resolved.productIds);
  const coupons = current.type === 'subscription' ? promotion.terms : [];
  const prepared = await prepareEffect(ctx, current, lineInputs(current.line_items), current.starts_at ?? signed.signed_at!, coupons);
  const redemption = promotion.items;
  const next: QuoteItem = { ...signed, subscription_id: prepared.subscription.id, child_subscription_ids: [prepared.subscription.id] };
  next.lf = quoteListFields(next);
  const ours: Entry[] = [
    { entry: quotePut(next, current._version) },
    ...productEntries(ctx, resolved.checkedProductIds),
    ...redemption.map((entry) => ({ entry })),
  ];
  // The subscription's items: any failed condition there means something changed (the customer, a product): the
  // next attempt prepares again and says why (422), or succeeds.
  await writeEntries(merged(ours, prepared.items.map((entry) => ({ entry }))));
  return next;
}
