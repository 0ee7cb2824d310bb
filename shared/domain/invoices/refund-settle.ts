import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem, retryOnRace, versionCondition } from '../../db/items';
import { transactWrite } from '../../db/transactions';
import { invoiceKey, invoiceListFields, type InvoiceItem } from './invoice';
import { pendingCheckDelete } from './pending-check';
import { appliedEventPut, type AppliedEvent } from './settle-pending';

/** What the provider says of a refund it was asked for. */
export type RefundOutcome = { status: 'succeeded'; providerId: string } | { status: 'failed'; providerId: string | null; errorType: string; message: string };

/**
 * Settles a credit note's pending refund (docs/payments.md, "Refunds"): succeeded, the refund transaction is
 * `succeeded` with the provider's refund id, the credit note `paid` (`credit_note.settled`), and both the credit note
 * and the original get `refunded_at`; failed, the transaction is `failed` with the provider's reason, the credit note
 * stays `to_pay`, and the original's refundable amount is given back. One transaction with the end of its check
 * (and the record of the provider's `event` that told it, when one did).
 */
export async function settlePendingRefund(ctx: Ctx, noteId: string, outcome: RefundOutcome, event?: AppliedEvent): Promise<'settled' | 'nothing'> {
  return retryOnRace(async () => {
    const note = await getItem<InvoiceItem>(invoiceKey(ctx, noteId), true);
    const pending = note?.pending_refund;
    if (!note || !pending || !note.original_invoice_id) return 'nothing';
    const original = (await getItem<InvoiceItem>(invoiceKey(ctx, note.original_invoice_id), true))!;
    const now = ctx.clock.now().toISOString();
    const paid = outcome.status === 'succeeded';
    const transactions = note.transactions.map((t) =>
      t.id !== pending.transaction_id ? t
      : paid ? { ...t, status: 'succeeded' as const, provider_id: outcome.providerId, refunded_at: now, last_refreshed_at: now }
      : { ...t, status: 'failed' as const, provider_id: outcome.providerId, error_type: outcome.errorType, comment: outcome.message, last_refreshed_at: now });
    const next: InvoiceItem = {
      ...note, transactions, updated_at: now, _version: note._version + 1,
      ...(paid && { status: 'paid' as const, amount_paid: pending.amount, amount_due: 0, settled_at: now, refunded_at: now }),
    };
    delete next.pending_refund;
    next.lf = invoiceListFields(next);
    const originalNext: InvoiceItem = paid
      ? { ...original, refunded_at: now, updated_at: now, _version: original._version + 1 }
      : { ...original, refunded_amount: original.refunded_amount - pending.amount, updated_at: now, _version: original._version + 1 };
    await transactWrite([
      { Put: { TableName: tableName(), Item: next, ...versionCondition(note._version) } },
      { Put: { TableName: tableName(), Item: originalNext, ...versionCondition(original._version) } },
      pendingCheckDelete(ctx, noteId),
      ...(event ? [appliedEventPut(event)] : []),
    ]);
    return 'settled';
  });
}
