import type { FilterSpec } from './list-query';

export const INVOICE_STATUSES = [
  'draft', 'open', 'grace_period', 'to_pay', 'partially_paid', 'paid', 'voided', 'closed', 'error', 'missing_info', 'archived',
  'charged_on_parent', 'pending_parent_concat', 'uncollectible',
] as const;

export const INVOICE_TYPES = ['invoice', 'credit_note', 'document', 'child_invoice_ref', 'child_creditnote_ref'] as const;

export const invoiceFilters: FilterSpec = {
  status: { kind: 'enum', values: INVOICE_STATUSES },
  customer_id: { kind: 'string' },
  type: { kind: 'enum', values: INVOICE_TYPES },
  emitted_at: { kind: 'date' },
  due_at: { kind: 'date' },
  number: { kind: 'string' },
  original_invoice_id: { kind: 'string' },
  subscription_id: { kind: 'string' },
};
