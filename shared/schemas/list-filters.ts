/**
 * The filters of each list (the list query language of list-query.ts) and the values they name: what the list
 * functions evaluate at run time. Kept apart from the request schemas, which are built when their module loads,
 * so that a function filtering a list does not build every schema of its area at each cold start.
 */
import { EMAIL_KINDS, EMAIL_STATUSES } from '../email/email-item';
import type { FilterSpec } from './list-query';

/** Kept beside SUBSCRIPTION_STATUSES (shared/domain/subscriptions/subscription.ts); a unit test checks they agree. */
export const SUBSCRIPTION_STATUS_VALUES = ['pending', 'trialing', 'active', 'paused', 'cancelled'] as const;

export const subscriptionFilters: FilterSpec = {
  status: { kind: 'enum', values: SUBSCRIPTION_STATUS_VALUES },
  customer_id: { kind: 'string' },
};

export const CUSTOMER_STATUSES = ['active', 'archived'] as const;

export const customerFilters: FilterSpec = {
  name: { kind: 'string' },
  status: { kind: 'enum', values: CUSTOMER_STATUSES },
  external_id: { kind: 'string' },
  billing_email: { kind: 'string' },
  created_at: { kind: 'date' },
};
/** `search`: part of the name, billing email or external id, ignoring case (the dashboard's search box). */
export const CUSTOMER_SEARCH_FIELDS = ['name', 'billing_email', 'external_id'] as const;

export const PRODUCT_TYPES = ['flat_fee', 'seat', 'dynamic', 'credit'] as const;
export const PRODUCT_STATUSES = ['active', 'archived'] as const;

export const productFilters: FilterSpec = {
  name: { kind: 'string' },
  type: { kind: 'enum', values: PRODUCT_TYPES },
  status: { kind: 'enum', values: PRODUCT_STATUSES },
  created_at: { kind: 'date' },
};

export const priceConfigurationFilters: FilterSpec = {
  product_id: { kind: 'string' },
  price_book_id: { kind: 'string' },
};

export const promotionCodeFilters: FilterSpec = {
  coupon_id: { kind: 'string' },
  code: { kind: 'string' },
  customer_id: { kind: 'string' },
};

export const walletFilters: FilterSpec = { customer_id: { kind: 'string' } };

export const QUOTE_STATUSES = ['draft', 'pending_approval', 'changes_requested', 'approved', 'pending_signature', 'signed', 'voided'] as const;
export const QUOTE_TYPES = ['subscription', 'subscription_update', 'one_off'] as const;

export const quoteFilters: FilterSpec = {
  status: { kind: 'enum', values: QUOTE_STATUSES },
  customer_id: { kind: 'string' },
  type: { kind: 'enum', values: QUOTE_TYPES },
  number: { kind: 'string' },
  created_at: { kind: 'date' },
};

export const CREDIT_TRANSACTION_TYPES = ['topup', 'usage', 'expiration'] as const;

export const creditTransactionFilters: FilterSpec = {
  type: { kind: 'enum', values: CREDIT_TRANSACTION_TYPES },
  created_at: { kind: 'date' },
};

export const emailFilters: FilterSpec = {
  customer_id: { kind: 'string' },
  invoice_id: { kind: 'string' },
  type: { kind: 'enum', values: EMAIL_KINDS },
  status: { kind: 'enum', values: EMAIL_STATUSES },
};
