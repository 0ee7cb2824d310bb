import { requireAll } from './common';
import { dateTime, id, nullable, object, text, type Schema } from './common';
import { listQuerySchema, pagingQuery } from './list-query';
import { walletFilters } from './list-filters';
import { hyperlineLoadMembers } from './hyperline';

const money = { type: 'integer', minimum: 0, maximum: 1e15 };
const interval = object({ period: { type: 'string', enum: ['days', 'weeks', 'months', 'years'] }, count: { type: 'integer', minimum: 1, maximum: 1000 } }, ['period', 'count']);

const settings: Record<string, Schema> = {
  is_auto_load_enabled: { type: 'boolean' },
  auto_load_type: { type: 'string', enum: ['free', 'paid'] },
  auto_load_amount: nullable({ type: 'integer', minimum: 1, maximum: 1e15 }),
  auto_load_reset: { type: 'boolean' },
  auto_load_interval: nullable(interval),
  auto_load_next_date: nullable(dateTime),
  auto_load_threshold: nullable(money),
  low_projected_balance_threshold: nullable(money),
};

export const walletCreateBody = object({ customer_id: id, ...settings }, ['customer_id']);
export const walletUpdateBody = object({ state: { type: 'string', enum: ['active', 'paused'] }, ...settings });
/** Ours: `type` + `amount`; Hyperline's: `amount` (paid) and/or `amount_free` (docs/hyperline.md). At least one amount. */
export const walletLoadBody = {
  ...object({ type: { type: 'string', enum: ['free', 'paid'] }, amount: { type: 'integer', minimum: 1, maximum: 1e15 }, ...hyperlineLoadMembers, comment: nullable(text(500)) }),
  minProperties: 1,
};

export const walletListQuery = listQuerySchema(walletFilters, { sortable: true });
export const walletTransactionsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { ...pagingQuery, type: { type: 'string', enum: ['credit_free', 'credit_paid', 'debit'] } },
};
export const transactionPath = object({ id, transactionId: id }, ['id', 'transactionId']);

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };
const nint = { type: ['integer', 'null'] };
const amount = { type: 'object', properties: { amount: { type: 'integer' } } };

export const walletResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: str, customer_id: str, state: { type: 'string', enum: ['active', 'paused'] }, currency: str, balance: amount, projected_balance: amount,
    created_at: str, low_projected_balance_threshold: nint, is_auto_load_enabled: { type: 'boolean' }, auto_load_type: str, auto_load_amount: nint,
    auto_load_reset: { type: 'boolean' }, auto_load_interval: { anyOf: [{ type: 'object', properties: { period: str, count: { type: 'integer' } } }, { type: 'null' }] }, auto_load_next_date: nstr, auto_load_threshold: nint,
  },
});

export const walletTransactionResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: str, wallet_id: str, customer_id: str, type: { type: 'string', enum: ['credit_free', 'credit_paid', 'debit'] }, amount: { type: 'integer' },
    currency: str, balance_after: { type: 'integer' }, comment: nstr, source: str, reverts_transaction_id: nstr, reverted_by_transaction_id: nstr,
    invoice_id: nstr, created_at: str,
  },
});
