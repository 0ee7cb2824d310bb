import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { retryOnRace } from '../../db/items';
import { Conflict, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { assertTypeRules, EDITABLE_DEFAULTS, editableChanges, quoteCustomer, quoteEntity, type QuoteInput } from './input';
import { lineInputs, resolveQuoteLines, type ResolvedQuoteLines } from './lines';
import { readQuoteCounter, takeQuoteNumber } from './numbering';
import { checkPromotionCode } from './promotion';
import { quoteKey, quoteListFields, quoteListKeys, toQuote, type Quote, type QuoteItem } from './quote';
import { assertSubscriptionRules, keptProducts, subscriptionToUpdate } from './subscriptions';
import { customerCheck, productEntries, writeEntries } from './writes';

/** Creations of one workspace serialize on its quote counter: more attempts than an ordinary edit (see numbering.ts). */
const NUMBERING_ATTEMPTS = 60;

/**
 * `POST /v1/quotes`: a draft, or directly `approved` / `pending_signature` when asked and the quote needs no
 * approval. One transaction writes the quote with its number (the workspace counter, conditioned on the value read),
 * checks that its products are still usable and that the customer is still there in the quote's currency.
 */
export async function createQuote(ctx: Ctx, input: QuoteInput & { amount?: number }): Promise<Quote> {
  const first = await quoteCustomer(ctx, input.customer_id);
  const { customer_id: _customer, type: _type, status = 'draft', amount: expected, ...editable } = input;
  const members = { ...EDITABLE_DEFAULTS, invoicing_entity_id: first.invoicing_entity_id, ...editableChanges(editable) };
  assertTypeRules(input.type, members);
  if (status !== 'draft' && members.requires_approval) {
    throw new Conflict(`A quote that requires approval is created in draft: finalize it, then approve it (status '${status}' asked).`);
  }
  const [, subscription] = await Promise.all([
    quoteEntity(ctx, members.invoicing_entity_id),
    subscriptionToUpdate(ctx, { type: input.type, customer_id: first.id, subscription_id: members.subscription_id }),
  ]);
  const priced = new Map<string, Promise<ResolvedQuoteLines>>();
  const linesIn = (currency: string) => {
    if (!priced.has(currency)) priced.set(currency, resolveQuoteLines(ctx, input.type, input.line_items, currency, keptProducts(subscription)));
    return priced.get(currency)!;
  };
  const resolved = await linesIn(first.currency);
  // Hyperline's `amount` (the estimated value) is computed here from the catalog: another would misstate the quote.
  if (expected !== undefined && expected !== resolved.amount) {
    throw new RuleViolation('amount_mismatch', `amount ${expected} is not this quote's value, ${resolved.amount}, computed from its lines' catalog prices: leave amount out.`);
  }
  await Promise.all([
    checkPromotionCode(ctx, { promotion_code: members.promotion_code, customer_id: first.id, currency: first.currency }, resolved.productIds),
    assertSubscriptionRules(ctx, { ...members, type: input.type, customer_id: first.id }, lineInputs(resolved.lines)),
  ]);
  let attempt = 0;
  return retryOnRace(async () => {
    // A retry means something changed under us: the customer (its currency prices the lines) or the counter.
    const [customer, counter] = await Promise.all([attempt++ === 0 ? first : quoteCustomer(ctx, input.customer_id), readQuoteCounter(ctx)]);
    const { lines, checkedProductIds, amount } = customer.currency === first.currency ? resolved : await linesIn(customer.currency);
    const taken = takeQuoteNumber(ctx, counter);
    const id = newId('quo');
    const now = ctx.clock.now().toISOString();
    const item: QuoteItem = {
      ...quoteKey(ctx, id),
      ...quoteListKeys(ctx, now, id),
      _type: 'quote',
      _version: 0,
      id,
      number: taken.number,
      customer_id: customer.id,
      type: input.type,
      status: 'draft',
      currency: customer.currency,
      amount,
      line_items: lines,
      ...members,
      child_subscription_ids: [],
      invoice_id: null,
      signed_file: null,
      sent_at: null,
      sent_to: null,
      sent_message: null,
      signed_at: null,
      signer_name: null,
      signer_email: null,
      void_reason: null,
      voided_at: null,
      created_at: now,
      updated_at: now,
    };
    item.status = status;
    if (status === 'pending_signature') item.sent_at = now;
    item.lf = quoteListFields(item);
    await writeEntries([
      { entry: { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } } },
      { entry: taken.item },
      { entry: customerCheck(ctx, customer.id, customer.currency) },
      ...productEntries(ctx, checkedProductIds),
    ]);
    return toQuote(item);
  }, NUMBERING_ATTEMPTS);
}
