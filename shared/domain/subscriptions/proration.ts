/**
 * Proration (docs/subscriptions.md, "Proration"), pure. A change at instant `at` inside the period [S, E) is priced by
 * the fraction of the period in WHOLE SECONDS (Stripe's unit): total = ⌊E/1000⌋ − ⌊S/1000⌋, remaining = ⌊E/1000⌋ −
 * ⌊at/1000⌋, and a part of an amount A is round half-up(A × seconds / total), computed exactly (BigInt). Each changed
 * product gives at most one credit (the unused part of what was billed) and one charge (the part of the new price).
 *
 * - in-advance products (billed for the whole period at its start): credit the old amount × remaining, charge the new
 *   amount × remaining, over [at, E); only when the period was billed in advance (not in a trial, nor a pause without
 *   billing);
 * - in-arrears products at a fixed quantity (billed for the whole period at its end, at the quantity held then):
 *   charge the old amount × elapsed and credit the new amount × elapsed, over [S, at), so the end-of-period line at
 *   the new quantity plus this adjustment is the time-weighted price;
 * - metered products are billed on their usage, which needs no proration.
 * Amounts exclude tax; credits are applied to an invoice like amount coupons, so an invoice is never negative
 * (settle.ts says where a surplus goes).
 */
import { newId } from '../../ids';
import type { PricedLine } from '../invoices/amounts';
import { applyCoupons } from '../invoices/discounts';
import type { CouponTerms } from '../invoices/invoice';
import { computePrice } from '../pricing/compute-price';
import { roundHalfUp } from '../pricing/arithmetic';
import { line, type Period } from './lines';
import { isMetered } from './metered';
import type { StoredSubscriptionProduct } from './subscription';

export interface ProrationWindow {
  /** The current period [starts_at, ends_at). */
  starts_at: string;
  ends_at: string;
  /** The instant of the change, inside the period. */
  at: string;
}

export interface Proration {
  /** Charge lines (never negative). */
  lines: PricedLine[];
  /** Credits, amounts excluding tax, as amount coupons on every line of the invoice that takes them. */
  credits: CouponTerms[];
}

export const NO_PRORATION: Proration = { lines: [], credits: [] };

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** The period's length and what is left of it at `at`, in whole seconds (remaining clamped to [0, total]). */
export function prorationSeconds(w: ProrationWindow): { total: number; remaining: number; elapsed: number } {
  const total = seconds(w.ends_at) - seconds(w.starts_at);
  const remaining = Math.min(total, Math.max(0, seconds(w.ends_at) - seconds(w.at)));
  return { total, remaining, elapsed: total - remaining };
}

/** round half-up(amount × part / total), exact. */
export const partOf = (amount: number, part: number, total: number): number =>
  total <= 0 ? 0 : Number(roundHalfUp(BigInt(amount) * BigInt(part), BigInt(total)));

const recurring = (p: StoredSubscriptionProduct) => p.billing_interval.period !== 'once' && !isMetered(p);
const amountOf = (p: StoredSubscriptionProduct) => (p.quantity > 0 ? computePrice(p.price, { quantity: p.quantity }).amount : 0);
const day = (iso: string) => iso.slice(0, 10);

export function credit(name: string, amount: number): CouponTerms {
  return { id: newId('prc'), name, type: 'amount', discount_amount: amount, discount_percent: null, product_ids: null, repeat: 'once', duration: null };
}

/**
 * The proration of replacing `before` by `after` (products matched by their subscription product id: a kept product
 * keeps it) at `w.at`. `advanceBilled`: whether the period's in-advance products were invoiced.
 */
export function prorate(before: StoredSubscriptionProduct[], after: StoredSubscriptionProduct[], w: ProrationWindow, advanceBilled: boolean): Proration {
  const { total, remaining, elapsed } = prorationSeconds(w);
  const result: Proration = { lines: [], credits: [] };
  if (total <= 0) return result;
  const rest: Period = { starts_at: w.at, ends_at: w.ends_at };
  const past: Period = { starts_at: w.starts_at, ends_at: w.at };
  const ids = [...new Set([...before, ...after].filter(recurring).map((p) => p.id))];
  for (const id of ids) {
    const old = before.find((p) => p.id === id && recurring(p));
    const now = after.find((p) => p.id === id && recurring(p));
    const [oldAmount, newAmount] = [old ? amountOf(old) : 0, now ? amountOf(now) : 0];
    if (oldAmount === newAmount && old && now && old.quantity === now.quantity) continue;
    const any = (now ?? old)!;
    if (any.fee_timing === 'in_advance') {
      if (!advanceBilled || remaining === 0) continue;
      const back = partOf(oldAmount, remaining, total);
      const charge = partOf(newAmount, remaining, total);
      if (back > 0) result.credits.push(credit(`Unused time on ${old!.name} × ${old!.quantity} (${day(w.at)} – ${day(w.ends_at)})`, back));
      if (charge > 0) result.lines.push(line(now!, rest, { units: now!.quantity, amount: charge, name: `${now!.name} (prorated)`, description: `Remaining time from ${day(w.at)} × ${now!.quantity}` }));
    } else {
      if (elapsed === 0) continue;
      const owed = partOf(oldAmount, elapsed, total);
      const back = partOf(newAmount, elapsed, total);
      if (owed > 0) result.lines.push(line(old!, past, { units: old!.quantity, amount: owed, name: `${old!.name} (prorated)`, description: `Time before the change on ${day(w.at)} × ${old!.quantity}` }));
      if (back > 0) result.credits.push(credit(`${now!.name} × ${now!.quantity} billed for the whole period: time before ${day(w.at)}`, back));
    }
  }
  return result;
}

/**
 * The final charges of a period ended early (an immediate cancellation at `w.at`): in-arrears products at a fixed
 * quantity for the elapsed part; with `prorate`, a credit for the unused part of the in-advance ones.
 */
export function finalProration(products: StoredSubscriptionProduct[], w: ProrationWindow, options: { prorate: boolean; advanceBilled: boolean; arrearsDue: boolean }): Proration {
  const { total, remaining, elapsed } = prorationSeconds(w);
  const result: Proration = { lines: [], credits: [] };
  if (total <= 0) return result;
  for (const p of products.filter(recurring)) {
    const amount = amountOf(p);
    if (p.fee_timing === 'in_arrears') {
      const owed = options.arrearsDue ? partOf(amount, elapsed, total) : 0;
      if (owed > 0) result.lines.push(line(p, { starts_at: w.starts_at, ends_at: w.at }, { units: p.quantity, amount: owed, description: `Until the cancellation on ${day(w.at)}` }));
    } else if (options.prorate && options.advanceBilled) {
      const back = partOf(amount, remaining, total);
      if (back > 0) result.credits.push(credit(`Unused time on ${p.name} × ${p.quantity} (${day(w.at)} – ${day(w.ends_at)})`, back));
    }
  }
  return result;
}

/**
 * What an invoice of `lines` takes of `credits`, applied after its own coupons (`before`) exactly as the invoice
 * applies them (applyCoupons): how much in all, each credit as taken (what the invoice lists), and what is left of
 * each credit it could not take whole.
 */
export function creditUse(lines: readonly PricedLine[], before: readonly CouponTerms[], credits: readonly CouponTerms[]) {
  const applied = applyCoupons(lines, [...before, ...credits]).applied.slice(before.length);
  const used = credits.map((c, i) => ({ credit: c, used: applied[i]?.discount_amount ?? 0, amount: c.discount_amount ?? 0 }));
  return {
    absorbed: used.reduce((sum, u) => sum + u.used, 0),
    taken: used.filter((u) => u.used > 0).map((u): CouponTerms => ({ ...u.credit, discount_amount: u.used })),
    left: used.filter((u) => u.amount > u.used).map((u): CouponTerms => ({ ...u.credit, discount_amount: u.amount - u.used })),
  };
}
