import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import type { LedgerChange } from '../../db/ledger';
import { parentListKeys, type Key } from '../../db/keys';
import { counterUpdate, parentCounter } from '../../db/pagination';
import type { TransactItem } from '../../db/transactions';
import { newId } from '../../ids';
import {
  CREDIT, delta, transactionKey, type CreditBalanceItem, type CreditPrice, type CreditTransactionItem, type CreditTransactionType,
} from './credit';
import { balanceTooLarge } from './errors';

/** One move of credits; a change writes one or more, in order (a usage may first expire lots that are due). */
export interface Movement {
  type: CreditTransactionType;
  credit_count: number;
  id?: string;
  price?: CreditPrice | null;
  amount_excluding_tax?: number | null;
  expires_at?: string | null;
  event_id?: string | null;
  /** A usage by an ingested event: the aggregator that metered it (metering/credit-consumption.ts). */
  aggregator_id?: string | null;
  /** A usage by an ingested event: the part of its usage the balance could not cover. */
  uncovered_count?: number;
  lot_id?: string | null;
  source: CreditTransactionItem['source'];
}

export interface BalanceOwner {
  balanceKey: Key;
  customerId: string;
  productId: string;
  /** The product's name, refreshed on the balance whenever it is known (top-ups and usages read the product). */
  name?: string;
}

export interface CreditChange {
  change: LedgerChange;
  entries: CreditTransactionItem[];
  /** The balance item as the change leaves it. */
  balance: CreditBalanceItem;
  /** Index, in the TransactWriteItems, of the first item of `also` (to tell which condition failed). */
  alsoIndex: number;
}

/** The time of a change: now, but never before the balance's last change (so the ledger's time never goes back). */
export const changeTime = (now: Date, current: Pick<CreditBalanceItem, 'updated_at'> | undefined): Date =>
  new Date(Math.max(now.getTime(), current ? Date.parse(current.updated_at) : Number.NEGATIVE_INFINITY));

/** The counter of a customer's balances (`meta.total` of GET /v1/customers/{id}/credits). */
export const balanceCounter = (customerId: string) => parentCounter(CREDIT, 'customer_id', customerId);

/**
 * The ledger change for `movements` on a balance (created when absent): ONE writeLedger call writes the balance on
 * the version read, the entries (seq n+1, n+2…, each `balance_after` = the previous one + its delta) with
 * attribute_not_exists, and `also` (lot updates, a usage marker, a product check). `created_at` never goes back
 * in time along the ledger (it is at least the balance's `updated_at`), so time order and chain order agree.
 */
export function creditChange(
  ctx: Ctx,
  owner: BalanceOwner,
  current: CreditBalanceItem | undefined,
  movements: Movement[],
  now: Date,
  options: { also?: TransactItem[]; lowCountThreshold?: number } = {},
): CreditChange {
  const at = changeTime(now, current);
  const iso = at.toISOString();
  let running = current?.balance ?? 0;
  let seq = current?.transaction_count ?? 0;
  const entries = movements.map((m): CreditTransactionItem => {
    running += delta({ type: m.type, credit_count: m.credit_count });
    if (running < 0) throw new Error(`A credit change would take the balance below zero (${running}); this is a bug.`);
    if (running > Number.MAX_SAFE_INTEGER) throw balanceTooLarge();
    seq += 1;
    return {
      ...transactionKey(owner.balanceKey.pk, seq),
      _type: 'credit_transaction',
      id: m.id ?? newId('cdt', at.getTime()),
      seq,
      product_id: owner.productId,
      customer_id: owner.customerId,
      price: m.price ?? null,
      payment_method_id: null,
      invoice_id: null,
      event_id: m.event_id ?? null,
      aggregator_id: m.aggregator_id ?? null,
      expires_at: m.expires_at ?? null,
      type: m.type,
      source: m.source,
      amount_excluding_tax: m.amount_excluding_tax ?? null,
      credit_count: m.credit_count,
      uncovered_count: m.uncovered_count ?? 0,
      balance_after: running,
      lot_id: m.lot_id ?? null,
      created_at: iso,
      updated_at: iso,
    };
  });
  const name = owner.name ?? current?.name ?? '';
  const threshold = options.lowCountThreshold ?? current?.low_count_threshold ?? 0;
  const set: Record<string, unknown> = { balance: running, transaction_count: seq, updated_at: iso, name, low_count_threshold: threshold };
  const created = current === undefined;
  if (created) {
    Object.assign(set, {
      _type: 'credit_balance',
      customer_id: owner.customerId,
      product_id: owner.productId,
      created_at: iso,
      ...parentListKeys(ctx, CREDIT, 'customer_id', owner.customerId, iso, owner.productId),
    });
  }
  const puts = entries.slice(1).map((item): TransactItem => ({ Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }));
  const change: LedgerChange = {
    balanceKey: owner.balanceKey,
    readVersion: current?._version,
    set,
    entry: entries[0] as unknown as LedgerChange['entry'],
    // The caller's items first, so their indexes are known; the counter of a new balance last.
    also: [...puts, ...(options.also ?? []), ...(created ? [counterUpdate(ctx, balanceCounter(owner.customerId), 1)] : [])],
  };
  const balance = {
    ...(current ?? ({ ...owner.balanceKey, _version: -1 } as CreditBalanceItem)),
    ...set,
    _version: (current?._version ?? -1) + 1,
  } as CreditBalanceItem;
  return { change, entries, balance, alsoIndex: 2 + puts.length };
}
