import type { Ctx } from '../../context';
import { getItem, putIfUnchanged, retryOnRace } from '../../db/items';
import { dueIndexKeys } from '../../db/keys';
import { customerItemKey, type CustomerItem } from '../customers/customer';
import type { CardDetails } from '../payments/provider';
import { paymentMethodKey, type PaymentMethodItem } from './payment-method';

/** The card's expiry notice's kind in the scheduling index (gsi4): `<notice at>#card_expiry#<pm id>`. */
export const CARD_EXPIRY = 'card_expiry';

/** `payment_method.expiring` is told this long before the card stops working (the end of its expiry month). */
export const CARD_NOTICE_MS = 30 * 86_400_000;

/** The first instant the card no longer works: the start of the month after its expiry month (UTC). */
export const cardEndsAt = (card: Pick<CardDetails, 'exp_month' | 'exp_year'>): Date => new Date(Date.UTC(card.exp_year, card.exp_month, 1));

/** `2030-12`: which expiry a notice was for (a card renewed by its bank gets a notice for its new expiry). */
export const expiryOf = (card: Pick<CardDetails, 'exp_month' | 'exp_year'>): string => `${card.exp_year}-${String(card.exp_month).padStart(2, '0')}`;

const noticeAtOf = (card: CardDetails): string => new Date(cardEndsAt(card).getTime() - CARD_NOTICE_MS).toISOString();

/** A card's entry in the scheduling index, at its notice date; nothing for a direct debit (it does not expire). */
export const cardExpiryDueKeys = (ctx: Ctx, item: Pick<PaymentMethodItem, 'id' | 'card'>) => (item.card ? dueIndexKeys(ctx, noticeAtOf(item.card), CARD_EXPIRY, item.id) : {});

/** What a notice records on the method (the write that sets it is the `payment_method.expiring` event). */
export interface ExpiryNotice {
  expiration_date: string;
  notified_at: string;
  /** Whether it was the customer's default then (the event's `is_default`: the stream sees the method alone). */
  was_default: boolean;
}

/**
 * The scheduled work of a card's notice date (run by the scheduler's workers, safe to run twice): the notice recorded
 * once per expiry, on the method's version, and the method out of the scheduling index. A method deleted, a card
 * whose bank gave it a later expiry (its entry moves to the new notice date), or a card already expired, tell nothing.
 */
export function noticeCardExpiry(ctx: Ctx, id: string): Promise<void> {
  return retryOnRace(async () => {
    const method = await getItem<PaymentMethodItem>(paymentMethodKey(ctx, id), true);
    if (!method?.gsi4sk?.includes(`#${CARD_EXPIRY}#`)) return;
    const now = ctx.clock.now();
    const { gsi4pk: _pk, gsi4sk: _sk, ...next } = method;
    const card = method.deleted_at ? null : method.card;
    if (card && noticeAtOf(card) > now.toISOString()) {
      const due = dueIndexKeys(ctx, noticeAtOf(card), CARD_EXPIRY, id);
      if (due.gsi4sk === method.gsi4sk) return; // not yet due
      Object.assign(next, due);
    } else if (card && now < cardEndsAt(card) && method.expiry_notice?.expiration_date !== expiryOf(card)) {
      const customer = await getItem<CustomerItem>(customerItemKey(ctx, method.customer_id), true);
      next.expiry_notice = { expiration_date: expiryOf(card), notified_at: now.toISOString(), was_default: customer?.current_payment_method_id === id };
      next.updated_at = now.toISOString();
    }
    await putIfUnchanged(next, method._version);
  });
}
