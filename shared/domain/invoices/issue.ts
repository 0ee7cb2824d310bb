import type { Ctx } from '../../context';
import type { TransactItem } from '../../db/transactions';
import type { CustomerItem } from '../customers/customer';
import type { EntityItem } from '../invoicing-entities/invoicing-entity';
import { withCollection } from '../collection/payable';
import type { CollectionMethod } from '../collection/settings';
import { addDays, paymentDelay } from './dates';
import { graceDueKeys, invoiceListFields, type InvoiceItem } from './invoice';
import { numberOf, takeNumber } from './numbering';

export interface Issued {
  invoice: InvoiceItem;
  /** The entity's counter update: in the same transaction as the invoice's write. */
  numbering: TransactItem;
}

/**
 * An invoice leaving draft: its number, its issue date (now, unless the caller fixed it), its due date, and its
 * next status: grace_period when the entity has a grace period (and the move allows one), else to_pay (with its
 * collection: docs/collection.md).
 */
export function issue(ctx: Ctx, draft: InvoiceItem, entity: EntityItem, customer: CustomerItem, options: { allowGrace: boolean; collectionMethod?: CollectionMethod | null }): Issued {
  const now = ctx.clock.now().toISOString();
  const emitted_at = draft.fixed_dates.emitted_at ? draft.emitted_at : now;
  const due_at = draft.fixed_dates.due_at ? draft.due_at : addDays(emitted_at, paymentDelay(customer, entity));
  const grace = options.allowGrace && draft.type === 'invoice' ? entity.invoice_grace_period_duration : 0;
  const taken = takeNumber(ctx, entity, draft.type, new Date(emitted_at));
  const invoice: InvoiceItem = {
    ...draft,
    number: taken.number,
    status: grace > 0 ? 'grace_period' : 'to_pay',
    emitted_at,
    due_at,
    grace_period_ended_at: grace > 0 ? addDays(emitted_at, grace) : null,
    updated_at: now,
  };
  invoice.lf = invoiceListFields(invoice);
  if (grace > 0) Object.assign(invoice, graceDueKeys(ctx, invoice));
  // Payable now: its collection is decided in this same write (the subscription's choice first).
  return { invoice: withCollection(ctx, invoice, customer, entity, options.collectionMethod), numbering: taken.item };
}

/**
 * The same issued invoice numbered `sequence` in its entity's series: a batch whose transaction lost the counter to
 * another taker is written again under the numbers now free, without building its invoices again.
 */
export function renumbered(invoice: InvoiceItem, entity: EntityItem, sequence: number): InvoiceItem {
  const next: InvoiceItem = { ...invoice, number: numberOf(entity, invoice.type, sequence, new Date(invoice.emitted_at!)) };
  next.lf = invoiceListFields(next);
  return next;
}
