import { Conflict } from '../../errors';
import type { QuoteItem, QuoteStatus } from './quote';

/**
 * Every status move of decisions.md ("Quotes"), and only those: the statuses each action starts from. Each move is
 * one conditional write on the quote's version, so a move decided on a stale read fails and is decided again on the
 * fresh state (two racing moves: one wins, the other sees the new status and gets a 409).
 */
export const MOVES = {
  finalize: ['draft', 'changes_requested'],
  approve: ['pending_approval'],
  request_changes: ['pending_approval'],
  send: ['approved'],
  sign: ['draft', 'pending_approval', 'changes_requested', 'approved', 'pending_signature'],
  void: ['draft', 'pending_approval', 'changes_requested', 'approved', 'pending_signature'],
} as const satisfies Record<string, readonly QuoteStatus[]>;

export type QuoteMove = keyof typeof MOVES;

const VERBS: Record<QuoteMove, string> = {
  finalize: 'be finalized', approve: 'be approved', request_changes: 'have changes requested', send: 'be sent', sign: 'be signed', void: 'be voided',
};

/** 409 `invalid_state_transition` unless `move` is allowed from the quote's status. */
export function assertMove(quote: Pick<QuoteItem, 'id' | 'status'>, move: QuoteMove): void {
  const from = MOVES[move] as readonly QuoteStatus[];
  if (from.includes(quote.status)) return;
  throw new Conflict(`Quote '${quote.id}' is ${quote.status}: it cannot ${VERBS[move]} (only from ${from.join(', ')}).`);
}

/** Statuses in which the quote's content may change (`PATCH /v1/quotes/{id}`). */
export const EDITABLE: readonly QuoteStatus[] = ['draft', 'changes_requested'];

export function assertEditable(quote: Pick<QuoteItem, 'id' | 'status'>): void {
  if (EDITABLE.includes(quote.status)) return;
  throw new Conflict(`Quote '${quote.id}' is ${quote.status}: it can be edited only in ${EDITABLE.join(' or ')}.`, 'quote_not_editable');
}
