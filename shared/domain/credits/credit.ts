import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { entityKey, type Key } from '../../db/keys';

/**
 * One partition per (customer, credit product): `pk` = `WS#<ws>#CRD#<customer_id>#<product_id>`, holding
 * - the balance item, sk `CRD`;
 * - the lots, one per top-up, sk `CRD#LOT#<expires_at | NEVER>#<cdt id>`: a Query `begins_with(sk, 'CRD')` returns
 *   the balance, then the lots earliest-expiring first and the never-expiring ones last;
 * - the usage markers of `event_id`s, sk `EVT#<event_id>`;
 * - the ledger, sk `TX#<seq>` (seq = 1, 2, 3… in commit order, zero-padded): entry n chains on entry n − 1.
 * See docs/credits.md.
 */
export const CREDIT = 'CRD';
/** The kind of the lots' scheduling-index entries (`gsi4sk` = `<expires_at>#credit_lot#<lot id>`). */
export const CREDIT_LOT = 'credit_lot';

const LOT_PREFIX = `${CREDIT}#LOT#`;
const NEVER = 'NEVER';
const SEQ_DIGITS = 12;

export type CreditTransactionType = 'topup' | 'usage' | 'expiration';

export interface CreditBalanceItem extends StoredItem {
  _type: 'credit_balance';
  customer_id: string;
  product_id: string;
  /** The product's name when the balance last changed through the API (GET of one balance reads it fresh). */
  name: string;
  balance: number;
  /** `credit.low_balance` fires when the balance crosses down to this (10 % of the latest top-up, rounded down). */
  low_count_threshold: number;
  /** How many ledger entries exist: the seq of the latest one, and the total of the unfiltered transaction list. */
  transaction_count: number;
  created_at: string;
  updated_at: string;
  gsi3pk?: string;
  gsi3sk?: string;
}

export interface CreditLotItem extends Key {
  _type: 'credit_lot';
  /** The id of the top-up transaction that made it. */
  id: string;
  customer_id: string;
  product_id: string;
  credit_count: number;
  remaining: number;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
  gsi4pk?: string;
  gsi4sk?: string;
}

export interface CreditPrice {
  id: string;
  amount: number;
  pack_size: number;
}

export interface CreditTransactionItem extends Key {
  _type: 'credit_transaction';
  id: string;
  seq: number;
  product_id: string;
  customer_id: string;
  price: CreditPrice | null;
  payment_method_id: string | null;
  invoice_id: string | null;
  event_id: string | null;
  aggregator_id: string | null;
  expires_at: string | null;
  type: CreditTransactionType;
  source: 'app' | 'portal' | 'api' | 'system';
  amount_excluding_tax: number | null;
  /** Always positive: the credits the transaction moved; `type` says in which direction. */
  credit_count: number;
  /**
   * A usage by an ingested event whose balance could not cover all of it: the credits missing (the event's usage is
   * `credit_count + uncovered_count`). 0 otherwise; absent on entries written before it existed.
   */
  uncovered_count?: number;
  balance_after: number;
  /** The lot a top-up created or an expiration emptied (not public). */
  lot_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface UsageMarkerItem extends Key {
  _type: 'credit_usage_event';
  event_id: string;
  transaction_sk: string;
  created_at: string;
}

export const creditBalanceKey = (ctx: Ctx, customerId: string, productId: string): Key => entityKey(ctx, CREDIT, `${customerId}#${productId}`);

export const lotKey = (pk: string, expiresAt: string | null, lotId: string): Key => ({ pk, sk: `${LOT_PREFIX}${expiresAt ?? NEVER}#${lotId}` });
export const isLotKey = (key: Key): boolean => key.sk.startsWith(LOT_PREFIX);

export const transactionKey = (pk: string, seq: number): Key => ({ pk, sk: `TX#${String(seq).padStart(SEQ_DIGITS, '0')}` });
export const TRANSACTION_PREFIX = 'TX#';

export const usageMarkerKey = (pk: string, eventId: string): Key => ({ pk, sk: `EVT#${eventId}` });

/** The signed change a transaction made to the balance. */
export const delta = (t: Pick<CreditTransactionItem, 'type' | 'credit_count'>): number => (t.type === 'topup' ? t.credit_count : -t.credit_count);

/** The balance of one credit product of a customer (Hyperline's "credit product attached to a customer"). */
export const toCreditBalance = (item: CreditBalanceItem, name: string = item.name) => ({
  product_id: item.product_id,
  customer_id: item.customer_id,
  name,
  current_balance: item.balance,
  low_count_threshold: item.low_count_threshold,
  /** Hyperline's name for when the balance last changed; no automatic top-up here (docs/hyperline.md). */
  last_refreshed_at: item.updated_at,
  auto_topup: null,
  created_at: item.created_at,
  updated_at: item.updated_at,
});

export type CreditBalance = ReturnType<typeof toCreditBalance>;

/** The list item of the spec: every member but `aggregator_id`. */
export const toCreditTransactionListItem = (t: CreditTransactionItem) => ({
  id: t.id,
  product_id: t.product_id,
  price: t.price,
  customer_id: t.customer_id,
  payment_method_id: t.payment_method_id,
  invoice_id: t.invoice_id,
  event_id: t.event_id,
  expires_at: t.expires_at,
  type: t.type,
  source: t.source,
  amount_excluding_tax: t.amount_excluding_tax,
  credit_count: t.credit_count,
  uncovered_count: t.uncovered_count ?? 0,
  balance_after: t.balance_after,
  created_at: t.created_at,
  updated_at: t.updated_at,
});

/** The full transaction (top-up and usage responses, events): with `aggregator_id`. */
export const toCreditTransaction = (t: CreditTransactionItem) => ({ ...toCreditTransactionListItem(t), aggregator_id: t.aggregator_id });

export type CreditTransaction = ReturnType<typeof toCreditTransaction>;
export type CreditTransactionListItem = ReturnType<typeof toCreditTransactionListItem>;
