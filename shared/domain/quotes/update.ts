import type { Ctx } from '../../context';
import { retryOnRace } from '../../db/items';
import { assertTypeRules, editableChanges, quoteEntity, type QuotePatch } from './input';
import { lineInputs, resolveQuoteLines } from './lines';
import { checkPromotionCode } from './promotion';
import { quoteListFields, toQuote, type Quote, type QuoteItem } from './quote';
import { findQuoteItem } from './read';
import { assertSubscriptionRules, keptProducts, subscriptionToUpdate } from './subscriptions';
import { assertEditable } from './transitions';
import { customerCheck, productEntries, quotePut, writeEntries, type Entry } from './writes';

/**
 * `PATCH /v1/quotes/{id}`, in draft and changes_requested only (else 409 `quote_not_editable`): omitted members are
 * kept, `null` clears. New lines are checked against the catalog and priced again (and the amount with them); a new
 * promotion code, or new lines under one, is checked again. One write, conditioned on the version read.
 */
export async function updateQuote(ctx: Ctx, id: string, patch: QuotePatch): Promise<Quote> {
  const first = await findQuoteItem(ctx, id);
  assertEditable(first);
  const changes = editableChanges(patch);
  assertTypeRules(first.type, { ...first, ...changes });
  const target = { ...first, ...changes };
  const [, subscription] = await Promise.all([
    changes.invoicing_entity_id && changes.invoicing_entity_id !== first.invoicing_entity_id ? quoteEntity(ctx, changes.invoicing_entity_id) : undefined,
    subscriptionToUpdate(ctx, target),
  ]);
  const resolved = patch.line_items ? await resolveQuoteLines(ctx, first.type, patch.line_items, first.currency, keptProducts(subscription)) : undefined;
  const lines = resolved?.lines ?? first.line_items;
  const codeChanged = changes.promotion_code !== undefined && changes.promotion_code !== first.promotion_code;
  const subscriptionChanged = ['subscription_id', 'starts_at', 'invoicing_entity_id'].some((k) => k in changes);
  await Promise.all([
    target.promotion_code && (codeChanged || resolved)
      ? checkPromotionCode(ctx, target, [...new Set(lines.map((l) => l.product_id))])
      : undefined,
    resolved || subscriptionChanged ? assertSubscriptionRules(ctx, target, lineInputs(lines)) : undefined,
  ]);
  return retryOnRace(async () => {
    const current = await findQuoteItem(ctx, id);
    assertEditable(current);
    const next: QuoteItem = { ...current, ...changes, updated_at: ctx.clock.now().toISOString(), _version: current._version + 1 };
    assertTypeRules(current.type, next);
    if (resolved) Object.assign(next, { line_items: resolved.lines, amount: resolved.amount });
    next.lf = quoteListFields(next);
    const entries: Entry[] = [{ entry: quotePut(next, current._version) }];
    if (resolved) entries.push({ entry: customerCheck(ctx, current.customer_id, current.currency) }, ...productEntries(ctx, resolved.checkedProductIds));
    await writeEntries(entries);
    return toQuote(next);
  });
}
