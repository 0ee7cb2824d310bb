import type { Ctx } from '../../context';
import { outsideEffect } from '../../db/effect-claim';
import { ledgerItems } from '../../db/ledger';
import { retryOnRace } from '../../db/items';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transactions';
import { DomainError } from '../../errors';
import { taxAmount } from '../../money/amounts';
import { findCustomerItem } from '../customers/read';
import { createInvoice } from '../invoices/create';
import { invoiceTaxScheme } from '../invoices/tax';
import { findEntityItem } from '../invoicing-entities/read';
import { walletChange } from '../wallets/ledger';
import type { WalletItem } from '../wallets/wallet';
import { createWallet, findCustomerWallet } from '../wallets/wallets';
import { billSubscription, SubscriptionChanged } from './billing';
import type { Period } from './lines';
import { creditUse, type Proration } from './proration';
import type { SubscriptionItem } from './subscription';
import { findSubscriptionItem, putOnVersion, summaryAlso, summaryUpdate } from './write';

/** Stripe's names: invoice the proration now, hold it for the next invoice, or do not prorate. */
export type ProrationBehavior = 'create_invoice' | 'next_invoice' | 'none';

export interface Settlement {
  /** The subscription read, and what it becomes (written on the version read). */
  current: SubscriptionItem;
  next: SubscriptionItem;
  proration: Proration;
  behavior: ProrationBehavior;
  /** The proration invoice's period. */
  period: Period;
  /** The customer's summary of the subscription changes (status, period): written in the same transaction. */
  summary: boolean;
  /** More items of the same transaction (the checks of products new to the subscription). */
  checks?: TransactItem[];
}

/**
 * The subscription a change decides on: read, and read again after billing the billing dates already due (a scheduler
 * run late or not yet come), so that the change applies to the period that is really running. Billing is exactly
 * once by itself and is not the request's effect (`outsideEffect`): a crash after it and a retry with the same
 * Idempotency-Key still apply the change.
 */
export async function upToDate(ctx: Ctx, id: string): Promise<SubscriptionItem> {
  const s = await findSubscriptionItem(ctx, id);
  if (s.status === 'cancelled' || s.next_billing_at === null || s.next_billing_at > ctx.clock.now().toISOString()) return s;
  await outsideEffect(() => billSubscription(ctx, s.id));
  return findSubscriptionItem(ctx, id);
}

/**
 * Runs a subscription change (read, decide, settle) again when the subscription, its customer's wallet or anything
 * else of its transaction changed since it was read: the whole decision is taken again on the new state, so a change
 * that lost a race re-applies on top of the winner (never on a stale proration).
 */
export const retryChange = <T>(attempt: () => Promise<T>): Promise<T> =>
  retryOnRace(() =>
    attempt().catch((error: unknown) => {
      throw error instanceof SubscriptionChanged ? new ConditionFailed(0) : error;
    }),
  );

/**
 * Writes a change of the subscription with its proration, in ONE transaction (docs/subscriptions.md, "Proration"):
 * - `none`: the change alone;
 * - `next_invoice`: the change, the proration held on the subscription for its next invoice;
 * - `create_invoice`: the change and, when it charges anything, a `to_pay` invoice of the charge lines with the
 *   credits applied like amount coupons (so it is never negative); the credit it cannot take (a downgrade) is
 *   credited, tax included at the invoice's rate, to the customer's wallet in the same transaction.
 * The customer's wallet is created first when it has none (an empty wallet: not part of the effect, so a crash after
 * it and a retry with the same Idempotency-Key still apply the change once).
 */
export async function settle(ctx: Ctx, s: Settlement): Promise<void> {
  const { current, proration } = s;
  const next = { ...s.next };
  const prorates = proration.lines.length + proration.credits.length > 0;
  if (s.behavior === 'next_invoice' && prorates) {
    const held = current.pending_proration ?? { lines: [], credits: [] };
    next.pending_proration = { lines: [...held.lines, ...proration.lines], credits: [...held.credits, ...proration.credits] };
  }
  const invoiced = s.behavior === 'create_invoice' && prorates;
  const { taken, left } = invoiced ? creditUse(proration.lines, [], proration.credits) : { taken: [], left: [] };
  const surplus = left.reduce((sum, c) => sum + (c.discount_amount ?? 0), 0);
  const wallet = surplus > 0 ? await walletCredit(ctx, next, surplus) : [];
  const write = putOnVersion(next, current);
  if (invoiced && proration.lines.some((l) => l.gross > 0)) {
    await createInvoice(
      ctx,
      { customer_id: next.customer_id, invoicing_entity_id: next.invoicing_entity_id, currency: next.currency, status: 'to_pay', period_starts_at: s.period.starts_at, period_ends_at: s.period.ends_at },
      {
        lines: proration.lines, coupons: taken, subscriptionId: next.id, collectionMethod: next.collection_method, continuing: true, also: [write, ...(s.checks ?? []), ...wallet],
        alsoFailed: () => new SubscriptionChanged(next.id), ...(s.summary && { customer: summaryAlso(next) }),
      },
    );
    return;
  }
  await transactWrite([write, ...(s.summary ? [summaryUpdate(ctx, next)] : []), ...(s.checks ?? []), ...wallet]);
}

/** The wallet ledger items that credit `surplus` plus its tax (at the rate the customer's invoices are taxed). */
async function walletCredit(ctx: Ctx, s: SubscriptionItem, surplus: number): Promise<TransactItem[]> {
  const customer = await findCustomerItem(ctx, s.customer_id);
  const entity = await findEntityItem(ctx, s.invoicing_entity_id, true);
  const amount = surplus + taxAmount(surplus, invoiceTaxScheme(customer, entity).rate);
  const wallet = await walletOf(ctx, s.customer_id);
  const comment = `Proration credit of subscription ${s.id}`;
  return ledgerItems(walletChange(ctx, wallet, [{ type: 'credit_paid', amount, source: 'subscription', comment }], ctx.clock.now()).change);
}

async function walletOf(ctx: Ctx, customerId: string): Promise<WalletItem> {
  const found = await findCustomerWallet(ctx, customerId);
  if (found) return found;
  await outsideEffect(() => createWallet(ctx, { customer_id: customerId })).catch((error: unknown) => {
    if (!(error instanceof DomainError && error.code === 'wallet_exists')) throw error; // created meanwhile: use it
  });
  return (await findCustomerWallet(ctx, customerId))!;
}
