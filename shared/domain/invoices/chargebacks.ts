import { isDeepStrictEqual } from 'node:util';
import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem, retryOnRace, versionCondition } from '../../db/items';
import { transactWrite } from '../../db/transactions';
import { invoiceKey, type Chargeback, type InvoiceItem } from './invoice';
import { appliedEventPut, type AppliedEvent } from './settle-pending';

/**
 * A dispute of a succeeded payment (`providerId`: the provider's payment), as the provider now reports it, kept on
 * the payment's transaction as `chargeback` (its first report emits `invoice.payment_disputed`), in one transaction
 * with the event's record. The amounts paid stay as they are: what a lost dispute takes back is the merchant's to
 * settle (a credit note), as Stripe's own invoices do. `nothing` when no such payment or nothing new.
 */
export async function recordChargeback(ctx: Ctx, invoiceId: string, providerId: string, chargeback: Chargeback, event: AppliedEvent): Promise<'recorded' | 'nothing' | 'duplicate'> {
  return retryOnRace(async () => {
    if (await getItem(event.key, true)) return 'duplicate';
    const invoice = await getItem<InvoiceItem>(invoiceKey(ctx, invoiceId), true);
    const paid = invoice?.transactions.find((t) => t.provider_id === providerId && t.status === 'succeeded' && t.type === 'payment');
    if (!invoice || !paid || isDeepStrictEqual(paid.chargeback, chargeback)) return 'nothing';
    const now = ctx.clock.now().toISOString();
    const transactions = invoice.transactions.map((t) => (t === paid ? { ...t, chargeback, last_refreshed_at: now } : t));
    const next: InvoiceItem = { ...invoice, transactions, updated_at: now, _version: invoice._version + 1 };
    await transactWrite([{ Put: { TableName: tableName(), Item: next, ...versionCondition(invoice._version) } }, appliedEventPut(event)]);
    return 'recorded';
  });
}
