import type { Ctx } from '../../context';
import { putIfUnchanged, retryOnRace } from '../../db/items';
import { withCollection } from '../collection/payable';
import { findCustomerItem } from '../customers/read';
import { findEntityItem } from '../invoicing-entities/read';
import { invoiceListFields, type InvoiceItem } from './invoice';
import { findInvoiceItem } from './read';

/**
 * Scheduled (decisions.md): grace_period → to_pay once `grace_period_ended_at` has passed (`invoice.ready`). One
 * conditional write on the invoice's version, which also takes it out of the scheduling index (or puts its first
 * automatic collection attempt there instead, docs/collection.md): safe to run twice.
 */
export async function endGracePeriod(ctx: Ctx, id: string): Promise<'moved' | 'nothing'> {
  return retryOnRace(async () => {
    const invoice = await findInvoiceItem(ctx, id);
    if (invoice.status !== 'grace_period' || !invoice.grace_period_ended_at) return 'nothing';
    if (Date.parse(invoice.grace_period_ended_at) > ctx.clock.now().getTime()) return 'nothing';
    const [customer, entity] = await Promise.all([findCustomerItem(ctx, invoice.customer_id), findEntityItem(ctx, invoice.invoicing_entity_id, true)]);
    const { gsi4pk: _pk, gsi4sk: _sk, ...rest } = invoice;
    const next: InvoiceItem = { ...rest, status: 'to_pay', updated_at: ctx.clock.now().toISOString() };
    next.lf = invoiceListFields(next);
    await putIfUnchanged(withCollection(ctx, next, customer, entity), invoice._version);
    return 'moved';
  });
}
