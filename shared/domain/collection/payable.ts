import type { Ctx } from '../../context';
import type { CustomerItem } from '../customers/customer';
import type { InvoiceItem } from '../invoices/invoice';
import type { EntityItem } from '../invoicing-entities/invoicing-entity';
import { collectionDueKeys, firstAttempt } from './dunning';
import { collectionSettingsOf, type CollectionMethod } from './settings';

/**
 * Whose choice decides (docs/collection.md): the subscription's, else the customer's, else `automatic` when the
 * customer has a default payment method and `manual` when not (null means "inherit" at each level).
 */
export function resolveCollectionMethod(customer: Pick<CustomerItem, 'collection_method' | 'current_payment_method_id'>, subscription?: CollectionMethod | null): CollectionMethod {
  return subscription ?? customer.collection_method ?? (customer.current_payment_method_id ? 'automatic' : 'manual');
}

/**
 * The invoice as it becomes payable (to_pay), in the same write: its collection method recorded and, when
 * automatic and something is due, its first collection attempt due now in the scheduling index (which replaces a
 * grace period's item there). Credit notes and documents are never collected.
 */
export function withCollection(
  ctx: Ctx, invoice: InvoiceItem, customer: Pick<CustomerItem, 'collection_method' | 'current_payment_method_id'>, entity: EntityItem, subscription?: CollectionMethod | null,
): InvoiceItem {
  if (invoice.type !== 'invoice' || invoice.status !== 'to_pay') return invoice;
  const method = resolveCollectionMethod(customer, subscription);
  if (method !== 'automatic' || invoice.amount_due <= 0) return { ...invoice, collection_method: method, dunning: null };
  const settings = collectionSettingsOf(entity);
  const now = ctx.clock.now().toISOString();
  return {
    ...invoice, collection_method: method, dunning: firstAttempt(now, settings.dunning_retry_schedule, settings.dunning_final_action),
    ...collectionDueKeys(ctx, now, invoice.id),
  };
}
