import { Conflict } from '../../errors';
import type { InvoiceItem, InvoiceStatus } from './invoice';

/**
 * Every status move of decisions.md ("Invoices"), and only those. Each is made by one conditional write on the
 * invoice's version, so a move decided on a stale read fails and is decided again on the fresh state.
 */
export const MOVES = {
  validate: ['draft'],
  delete: ['draft'],
  void: ['to_pay'],
  uncollectible: ['to_pay', 'partially_paid', 'error'],
  pay: ['to_pay', 'partially_paid', 'error'],
  charge: ['to_pay', 'partially_paid', 'error'],
  credit: ['to_pay', 'partially_paid', 'paid', 'error', 'uncollectible'],
} as const satisfies Record<string, readonly InvoiceStatus[]>;

export type Move = keyof typeof MOVES;

const VERBS: Record<Move, string> = {
  validate: 'be validated', delete: 'be deleted', void: 'be voided', uncollectible: 'be marked uncollectible', pay: 'receive a payment',
  charge: 'be charged', credit: 'be credited',
};

/** Whether `move` is allowed from the invoice's status (e.g. whether it can be charged). */
export const canMove = (invoice: Pick<InvoiceItem, 'status'>, move: Move): boolean => (MOVES[move] as readonly InvoiceStatus[]).includes(invoice.status);

/** 409 `invalid_state_transition` unless `move` is allowed from the invoice's status. */
export function assertMove(invoice: Pick<InvoiceItem, 'id' | 'status' | 'type'>, move: Move): void {
  if (canMove(invoice, move)) return;
  throw new Conflict(`Invoice '${invoice.id}' is ${invoice.status}: it cannot ${VERBS[move]} (only from ${MOVES[move].join(', ')}).`);
}
