import type { Ctx } from '../../context';
import { outsideEffect } from '../../db/effect-claim';
import { putIfUnchanged, retryOnRace } from '../../db/items';
import { queryItems } from '../../db/query';
import { findInvoiceItem } from '../invoices/read';
import { canMove } from '../invoices/transitions';
import { dunningRefKey, isDunned, rearmed } from './dunning';

/**
 * A new default payment method (docs/collection.md): every invoice of the customer whose automatic collection
 * failed (retrying, or exhausted with nothing done) starts a new round, its first attempt due now, with the new
 * method. Found through the customer's `DUNNING#<invoice>` items (written with each failure). Each invoice is one
 * conditional write: running it twice re-arms it twice at most, which charges nothing by itself. It is a consequence
 * of the request's effect, not part of it: written outside its idempotency claim (docs/idempotency.md).
 */
export const rearmCollection = (ctx: Ctx, customerId: string): Promise<number> => outsideEffect(() => rearm(ctx, customerId));

async function rearm(ctx: Ctx, customerId: string): Promise<number> {
  const { pk } = dunningRefKey(ctx, customerId, '');
  const { items } = await queryItems<{ invoice_id: string }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': 'DUNNING#' },
  });
  let count = 0;
  for (const ref of items) {
    const done = await retryOnRace(async () => {
      const invoice = await findInvoiceItem(ctx, ref.invoice_id).catch(() => undefined);
      if (!invoice || !isDunned(invoice) || invoice.amount_due <= 0 || !canMove(invoice, 'charge')) return false;
      const d = invoice.dunning;
      if ((d.status !== 'active' && d.status !== 'exhausted') || d.final_action_status === 'pending' || d.attempt === 0) return false;
      await putIfUnchanged({ ...rearmed(ctx, invoice), updated_at: ctx.clock.now().toISOString() }, invoice._version);
      return true;
    });
    if (done) count += 1;
  }
  return count;
}
